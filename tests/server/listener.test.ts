/**
 * Stopping to listen: a connection the kernel accepted before the stop began (its request sent, the event loop
 * busy or handling the signal first) is served, not reset. A load balancer may not retry a POST it has sent,
 * so a reset there is a 502 for a client who reached the process in time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const CHILD = join(import.meta.dirname, 'listenerChild.ts');

let child: ChildProcess | undefined;
let folder: string | undefined;
afterEach(() => {
  child?.kill('SIGKILL');
  if (folder) rmSync(folder, { recursive: true, force: true });
  child = undefined;
  folder = undefined;
});

async function until(what: string, done: () => boolean): Promise<void> {
  const giveUpAt = Date.now() + 30_000;
  while (!done()) {
    if (Date.now() > giveUpAt) throw new Error(`${what} did not happen`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * Starts the child with `mode`, connects while its loop is busy, sends a POST on the queued connection, lets the
 * child stop listening, and gives what came back: the answer's text, or the socket's error code.
 */
async function postWhileStopping(mode: 'plain' | 'deferred'): Promise<{ text: string; error?: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'idv-listener-'));
  folder = dir;
  const started = spawn(process.execPath, ['--import', 'tsx', CHILD, mode, dir], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child = started;
  const port = await new Promise<number>((resolve, reject) => {
    started.once('message', (message) => resolve((message as { port: number }).port));
    started.once('exit', (code) => reject(new Error(`the child exited with ${code}`)));
  });
  started.send('stop');
  await until('the child busy', () => existsSync(join(dir, 'busy')));

  return new Promise((resolve) => {
    let text = '';
    const socket = connect(port, '127.0.0.1', () => {
      socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nbody');
      writeFileSync(join(dir, 'connected'), '');
    });
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve({ text, error: error.code }));
    socket.on('end', () => resolve({ text }));
  });
}

describe('stopping to listen', () => {
  it('serves the connection the kernel had queued when the stop began', async () => {
    const answer = await postWhileStopping('deferred');
    expect(answer.error).toBeUndefined();
    expect(answer.text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer.text.endsWith('served')).toBe(true);
  }, 60_000);

  it('closing the listener at once resets that connection (what the stop avoids)', async () => {
    const answer = await postWhileStopping('plain');
    expect(answer).toEqual({ text: '', error: 'ECONNRESET' });
  }, 60_000);
});
