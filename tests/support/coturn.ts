import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './freePort';

export const TURNSERVER = '/usr/bin/turnserver';

export interface Coturn {
  /** The address it listens on (127.0.0.1). */
  host: string;
  /** Its TURN/STUN port, UDP and TCP. */
  port: number;
  /** The shared secret (`static-auth-secret`) that credentials are minted from. */
  secret: string;
  /** `turn:host:port?transport=udp` and `?transport=tcp`: a TURN_URLS value for a server under test. */
  urls: string[];
  /** What it printed so far (for a failing test's message). */
  log(): string;
  stop(): Promise<void>;
}

function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * A coturn on loopback with the TURN REST API scheme (`use-auth-secret`) and a random secret, relaying to
 * loopback peers from a random range of 200 ports (two helpers' ranges rarely meet). Resolves once its TCP
 * listener accepts connections.
 */
export async function startCoturn(options: { secret?: string } = {}): Promise<Coturn> {
  if (!existsSync(TURNSERVER)) throw new Error(`${TURNSERVER} is missing: install Debian's coturn`);
  const host = '127.0.0.1';
  const port = await freePort();
  const secret = options.secret ?? randomBytes(24).toString('hex');
  const minPort = randomInt(20_000, 29_800) * 2;
  const dir = mkdtempSync(join(tmpdir(), 'coturn-'));
  const args = [
    '-n',
    '--use-auth-secret',
    `--static-auth-secret=${secret}`,
    '--realm=test',
    '--fingerprint',
    '--no-tls',
    '--no-dtls',
    '--no-cli',
    '--no-rfc5780',
    `--listening-ip=${host}`,
    `--relay-ip=${host}`,
    `--listening-port=${port}`,
    `--min-port=${minPort}`,
    `--max-port=${minPort + 199}`,
    '--allow-loopback-peers',
    `--pidfile=${join(dir, 'turnserver.pid')}`,
    '--log-file=stdout',
    '--simple-log',
  ];
  let output = '';
  const child: ChildProcess = spawn(TURNSERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  });
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  const stop = async () => {
    if (!exited) {
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exit;
      clearTimeout(killer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 15_000;
  while (!(await accepts(host, port))) {
    if (exited || Date.now() > deadline) {
      await stop();
      throw new Error(`turnserver did not start on ${host}:${port}:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    host,
    port,
    secret,
    urls: [`turn:${host}:${port}?transport=udp`, `turn:${host}:${port}?transport=tcp`],
    log: () => output,
    stop,
  };
}
