/**
 * 300 stalled request bodies were all still open after 47 s. Now a connection that stops sending
 * is cut (IDLE_TIMEOUT_MS, 28 s by default; shortened here), headers must arrive within HEADERS_TIMEOUT_MS, and
 * other clients are served meanwhile; a body that keeps coming (a large upload) is not cut.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { startTestApp, type TestApp } from '../server/helpers';

const IDLE_MS = 2_000;
let t: TestApp;
let port = 0;

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-sec-'));
  const { timeouts } = loadConfig({
    DATA_DIR: dataDir,
    JWT_SECRET: 'x'.repeat(40),
    IDLE_TIMEOUT_MS: String(IDLE_MS),
    HEADERS_TIMEOUT_MS: '1500',
    REQUEST_TIMEOUT_MS: '20000',
  });
  rmSync(dataDir, { recursive: true, force: true });
  expect(timeouts).toEqual({ idleMs: IDLE_MS, headersMs: 1500, requestMs: 20_000 });
  t = await startTestApp({ timeouts });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
}, 180_000);
afterAll(async () => {
  await t.close();
});

/** Opens a raw connection and writes `text`; answers the socket and when (ms after opening) it was closed. */
function rawRequest(text: string): { socket: Socket; closed: Promise<number> } {
  const started = Date.now();
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(text);
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - started)));
  return { socket, closed };
}

const partialBody =
  'POST /api/v1/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
  'Content-Length: 1000\r\n\r\n{"username":"agent@acme.test","pass';

describe('slow clients', () => {
  it('stalled bodies are cut while other clients are served', async () => {
    const stalled = Array.from({ length: 50 }, () => rawRequest(partialBody));
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    const times = await Promise.all(stalled.map((s) => s.closed));
    // Cut after the idle time-out (not before), and well within twice it.
    for (const ms of times) {
      expect(ms).toBeGreaterThanOrEqual(IDLE_MS - 50);
      expect(ms).toBeLessThan(IDLE_MS * 3);
    }
  });

  it('headers that trickle in are cut at the header time-out', async () => {
    const { socket, closed } = rawRequest('GET /healthz HTTP/1.1\r\n');
    // A header line every 400 ms: never idle, never done.
    const drip = setInterval(() => socket.write('X-Slow: 1\r\n'), 400);
    try {
      expect(await closed).toBeLessThan(1500 + 2_500);
    } finally {
      clearInterval(drip);
    }
  });

  it('a body that keeps coming is not cut, however long it takes', async () => {
    const body = JSON.stringify({ username: 'nobody@acme.test', password: 'Wrong#Guess1' });
    const chunks = body.match(/.{1,8}/g) ?? [];
    const socket = connect(port, '127.0.0.1');
    const answer = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (data) => {
        text += data.toString();
        if (text.includes('\r\n\r\n')) resolve(text);
      });
      socket.on('close', () => resolve(text));
    });
    socket.write(
      'POST /api/v1/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    // Longer in total than the idle time-out, each gap a fifth of it (a loaded machine's timers run late).
    expect(chunks.length * (IDLE_MS / 5)).toBeGreaterThan(IDLE_MS);
    for (const chunk of chunks) {
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS / 5));
      socket.write(chunk);
    }
    expect(await answer).toMatch(/^HTTP\/1\.1 400/);
    socket.destroy();
  });
});
