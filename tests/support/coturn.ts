import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

/** A port on `host` free a moment ago for both TCP and UDP (coturn listens on both; a TCP probe alone can pick
 * a port some other program's UDP socket holds). */
async function freeTcpAndUdpPort(host: string): Promise<number> {
  for (;;) {
    const udp = createSocket('udp4');
    const port = await new Promise<number>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(0, host, () => resolve(udp.address().port));
    });
    const tcp = createServer();
    const free = await new Promise<boolean>((resolve) => {
      tcp.once('error', () => resolve(false));
      tcp.listen(port, host, () => resolve(true));
    });
    await new Promise<void>((resolve) => (free ? tcp.close(() => resolve()) : resolve()));
    await new Promise<void>((resolve) => udp.close(() => resolve()));
    if (free) return port;
  }
}

/** Whether a STUN Binding request to `host:port` over UDP is answered within `timeoutMs`. */
function answersStunOverUdp(host: string, port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    const transaction = randomBytes(12);
    // Binding request: type 0x0001, no attributes, the magic cookie, a transaction id (RFC 8489).
    const request = Buffer.concat([
      Buffer.from([0x00, 0x01, 0x00, 0x00, 0x21, 0x12, 0xa4, 0x42]),
      transaction,
    ]);
    const done = (answered: boolean) => {
      clearTimeout(timer);
      socket.close();
      resolve(answered);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.on('message', (message) => {
      if (
        message.length >= 20 &&
        message.readUInt16BE(0) === 0x0101 &&
        message.subarray(8, 20).equals(transaction)
      )
        done(true);
    });
    socket.on('error', () => done(false));
    socket.send(request, port, host);
  });
}

/**
 * A coturn on loopback with the TURN REST API scheme (`use-auth-secret`) and a random secret, relaying to
 * loopback peers from a random range of 200 ports (two helpers' ranges rarely meet). Resolves once it answers on
 * both transports: its TCP listener accepts connections and a STUN Binding over UDP is answered. A coturn that
 * cannot bind its UDP listener goes on serving TCP alone (every call then relays over TCP), so a port some other
 * socket took meanwhile is given up for another one.
 */
export async function startCoturn(options: { secret?: string } = {}): Promise<Coturn> {
  if (!existsSync(TURNSERVER)) throw new Error(`${TURNSERVER} is missing: install Debian's coturn`);
  const secret = options.secret ?? randomBytes(24).toString('hex');
  for (let attempt = 1; ; attempt++) {
    const started = await startOnce(secret);
    if ('coturn' in started) return started.coturn;
    if (!started.portTaken || attempt === 3) throw new Error(started.failure);
  }
}

type Started = { coturn: Coturn } | { failure: string; portTaken: boolean };

async function startOnce(secret: string): Promise<Started> {
  const host = '127.0.0.1';
  const port = await freeTcpAndUdpPort(host);
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
  while (!((await accepts(host, port)) && (await answersStunOverUdp(host, port, 500)))) {
    const portTaken = /Address already in use/.test(output);
    if (exited || portTaken || Date.now() > deadline) {
      await stop();
      return { failure: `turnserver did not start on ${host}:${port} (TCP and UDP):\n${output}`, portTaken };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    coturn: {
      host,
      port,
      secret,
      urls: [`turn:${host}:${port}?transport=udp`, `turn:${host}:${port}?transport=tcp`],
      log: () => output,
      stop,
    },
  };
}
