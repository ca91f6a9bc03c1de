/**
 * `npm run bench:tracing`: what tracing costs. On a fresh PGlite with the demo data (the first start seeds it), runs
 * the server (a child process) in turn without OTEL_EXPORTER_OTLP_ENDPOINT and with it pointed at an OTLP
 * sink in this process (which accepts and drops every export), twice each, alternating so that a change in the
 * machine's load hits both, and measures the profile list and one profile with autocannon (bench/api.ts's
 * `measure`). Prints req/s, latencies, the server's CPU time per request, its resident memory after the runs
 * and the spans exported. Nothing is asserted.
 *
 * Env: BENCH_SECONDS per endpoint (10), BENCH_CONNECTIONS (50), BENCH_ROUNDS (2).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measure, type Row } from './api';
import { freePort, run, stop, waitForServer } from './support';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const WARMUP_SECONDS = 2;

/** Resident memory of a process in MB (Linux /proc), or null. */
function residentMb(pid: number | undefined): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return Number.isFinite(kb) ? Math.round(kb / 1024) : null;
  } catch {
    return null;
  }
}

/** An OTLP/HTTP endpoint that accepts every export and counts its requests and bytes. */
async function otlpSink() {
  const seen = { exports: 0, bytes: 0 };
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => {
      seen.bytes += chunk.length;
    });
    request.on('end', () => {
      seen.exports += 1;
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-bench-tracing-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    DATA_DIR: dataDir,
    PORT: String(port),
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
  };
  const sink = await otlpSink();
  let server: ChildProcess | undefined;
  try {
    const rows: (Row & { tracing: string; 'rss MB': number | string })[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const tracing of ['off', 'on'] as const) {
        server = run(
          ['server/main.ts'],
          tracing === 'on' ? { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint } : env,
        );
        await waitForServer(base, server);
        const login = await fetch(`${base}/api/v1/login/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'admin@acme.test', password: 'Admin@2026' }),
        });
        const { access } = (await login.json()) as { access: string };
        const targets = [
          ['profile list', `${base}/api/v2/profile?limit=20`],
          ['one profile', `${base}/api/v2/profile/1`],
        ] as const;
        for (const [name, url] of targets) await measure(name, url, access, server.pid, WARMUP_SECONDS);
        for (const [name, url] of targets) {
          console.log(`round ${round}, tracing ${tracing}: ${name} ...`);
          const row = await measure(name, url, access, server.pid);
          rows.push({ tracing, ...row, 'rss MB': residentMb(server.pid) ?? 'n/a' });
        }
        await stop(server);
        server = undefined;
      }
    }
    console.log('\nResults (the demo data; latency in ms; "on" exports to a local OTLP sink)');
    console.table(
      rows.map(({ tracing, endpoint, rps, p50, p95, p99, 'server cpu ms/req': cpu, 'rss MB': rss }) => ({
        tracing,
        endpoint,
        rps,
        p50,
        p95,
        p99,
        'server cpu ms/req': cpu,
        'rss MB': rss,
      })),
    );
    console.log(`OTLP exports received: ${sink.seen.exports} (${Math.round(sink.seen.bytes / 1024)} KB)`);
  } finally {
    await stop(server);
    await sink.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
