/**
 * A customer on a poor mobile link, built from real parts on this machine (the end-to-end namespace test and
 * `npm run bench:calls` share it):
 *
 * - a network namespace joined to the host by a veth pair; its one route is the /30 of that pair, so from
 *   inside only the host-side address can be reached (the TURN relay and the studio's server listen there);
 * - `tbf` on both ends of the pair: the link's rate (1 Mbit/s each way by default);
 * - a userspace UDP relay in front of the TURN server's UDP port that delays and drops the datagrams of the
 *   namespace's address (the kernel here has no `netem`); other clients (the agent) pass untouched;
 * - a Chromium launcher that runs the browser inside the namespace (`ip netns exec`, Playwright's pipe kept).
 *
 * Needs root (`ip netns`); `netnsUnavailable()` says why not. Everything made is removed by `close()`.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

async function ip(...args: string[]): Promise<void> {
  await exec('ip', args);
}

/** Why a namespace cannot be made here, or null when it can (checked by making and removing one). */
export async function netnsUnavailable(): Promise<string | null> {
  if (process.getuid?.() !== 0) return 'not root: `ip netns` needs root';
  const probe = `idv-probe-${process.pid}-${randomInt(1e6)}`;
  try {
    await ip('netns', 'add', probe);
    await ip('netns', 'del', probe);
    await exec('tc', ['-V']);
    return null;
  } catch (error) {
    return `\`ip netns\` or \`tc\` not allowed here: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export interface ShapedNamespace {
  name: string;
  /** The host side's address: the only one the namespace reaches. */
  hostIp: string;
  /** The namespace side's address. */
  nsIp: string;
  /** Takes the namespace's side of the link down for `ms`, then up again; resolves once it is up. */
  cut(ms: number): Promise<{ downAt: number; upAt: number }>;
  /** An executable that runs Chromium inside the namespace (for Playwright's `executablePath`). */
  chromium(binary: string): string;
  /**
   * Makes `http://127.0.0.1:<port>` inside the namespace reach the host side's `<port>` (a TCP forwarder run
   * in the namespace): pages there get the secure context a camera needs, as on loopback.
   */
  forwardLoopback(port: number): Promise<void>;
  close(): Promise<void>;
}

/** A namespace whose link to the host runs at `rateKbit` each way. */
export async function shapedNamespace(options: { rateKbit?: number } = {}): Promise<ShapedNamespace> {
  const rate = `${options.rateKbit ?? 1000}kbit`;
  const id = `${process.pid % 10_000}${randomInt(100)}`;
  const name = `idv-call-${id}`;
  const hostSide = `idvh${id}`;
  const nsSide = `idvn${id}`;
  // A /30 of its own per run (two runs at once never share one).
  const octet = randomInt(0, 63) * 4;
  const third = randomInt(1, 254);
  const hostIp = `10.231.${third}.${octet + 1}`;
  const nsIp = `10.231.${third}.${octet + 2}`;
  const inNs = (...args: string[]) => ip('netns', 'exec', name, 'ip', ...args);
  const dir = mkdtempSync(join(tmpdir(), 'idv-netns-'));
  const forwarders: ChildProcess[] = [];
  const close = async () => {
    for (const child of forwarders.splice(0)) child.kill('SIGKILL');
    // Removing the namespace removes its end of the pair, and the kernel the other.
    await ip('netns', 'del', name).catch(() => undefined);
    await ip('link', 'del', hostSide).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await ip('netns', 'add', name);
    await ip('link', 'add', hostSide, 'type', 'veth', 'peer', 'name', nsSide);
    await ip('link', 'set', nsSide, 'netns', name);
    await ip('addr', 'add', `${hostIp}/30`, 'dev', hostSide);
    await ip('link', 'set', hostSide, 'up');
    await inNs('addr', 'add', `${nsIp}/30`, 'dev', nsSide);
    await inNs('link', 'set', nsSide, 'up');
    await inNs('link', 'set', 'lo', 'up');
    const tbf = ['qdisc', 'add', 'dev', '', 'root', 'tbf', 'rate', rate, 'burst', '10kb', 'latency', '400ms'];
    await exec(
      'tc',
      tbf.map((arg) => (arg === '' ? hostSide : arg)),
    );
    await exec('ip', ['netns', 'exec', name, 'tc', ...tbf.map((arg) => (arg === '' ? nsSide : arg))]);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    name,
    hostIp,
    nsIp,
    async cut(ms) {
      const downAt = Date.now();
      await inNs('link', 'set', nsSide, 'down');
      await new Promise((resolve) => setTimeout(resolve, ms));
      await inNs('link', 'set', nsSide, 'up');
      return { downAt, upAt: Date.now() };
    },
    chromium(binary) {
      const path = join(dir, 'chromium-in-namespace');
      writeFileSync(path, `#!/bin/sh\nexec ip netns exec ${name} ${binary} "$@"\n`);
      chmodSync(path, 0o755);
      return path;
    },
    async forwardLoopback(port) {
      const script = `const net = require('node:net');
        net.createServer((c) => { const u = net.connect(${port}, '${hostIp}'); c.pipe(u).pipe(c);
          c.on('error', () => u.destroy()); u.on('error', () => c.destroy()); })
          .listen(${port}, '127.0.0.1', () => console.log('ready'));`;
      const child = spawn('ip', ['netns', 'exec', name, process.execPath, '-e', script], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      forwarders.push(child);
      await new Promise<void>((resolve, reject) => {
        child.stdout?.once('data', () => resolve());
        child.once('exit', (code) => reject(new Error(`the forwarder in ${name} exited (${code})`)));
      });
    },
    close,
  };
}

export interface UdpImpairment {
  port: number;
  /** Datagrams forwarded and dropped on purpose, both ways. */
  counts(): { forwarded: number; dropped: number };
  stop(): Promise<void>;
}

/**
 * A UDP relay on `listen` that forwards every client's datagrams to `target` from a socket of that client's
 * own (so the target sees one address per client) and the answers back. Datagrams of clients for whom
 * `impaired(address)` holds are delayed by `delayMs` and dropped with `lossPct` % chance, each way.
 */
export async function udpImpairment(options: {
  listen: { host: string; port?: number };
  target: { host: string; port: number };
  impaired: (address: string) => boolean;
  delayMs: number;
  lossPct: number;
  random?: () => number;
}): Promise<UdpImpairment> {
  const random = options.random ?? Math.random;
  const front = createSocket('udp4');
  const upstreams = new Map<string, Socket>();
  let forwarded = 0;
  let dropped = 0;
  let stopped = false;
  /** Sends now or after the delay, unless dropped. */
  const pass = (impaired: boolean, send: () => void) => {
    if (stopped) return;
    if (impaired && random() * 100 < options.lossPct) {
      dropped += 1;
      return;
    }
    forwarded += 1;
    if (impaired && options.delayMs > 0) setTimeout(() => !stopped && send(), options.delayMs);
    else send();
  };
  const upstreamOf = (client: RemoteInfo) => {
    const key = `${client.address}:${client.port}`;
    let upstream = upstreams.get(key);
    if (upstream) return upstream;
    const socket = createSocket('udp4');
    const impaired = options.impaired(client.address);
    socket.on('message', (message) =>
      pass(impaired, () => front.send(message, client.port, client.address, () => undefined)),
    );
    socket.on('error', () => undefined);
    socket.bind(0, options.target.host);
    upstreams.set(key, socket);
    upstream = socket;
    return upstream;
  };
  front.on('message', (message, client) => {
    const upstream = upstreamOf(client);
    pass(options.impaired(client.address), () =>
      upstream.send(message, options.target.port, options.target.host, () => undefined),
    );
  });
  front.on('error', () => undefined);
  await new Promise<void>((resolve) => front.bind(options.listen.port ?? 0, options.listen.host, resolve));
  return {
    port: front.address().port,
    counts: () => ({ forwarded, dropped }),
    async stop() {
      stopped = true;
      for (const socket of upstreams.values()) socket.close();
      upstreams.clear();
      await new Promise<void>((resolve) => front.close(() => resolve()));
    },
  };
}
