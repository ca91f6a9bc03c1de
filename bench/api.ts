/**
 * `npm run bench:api`: seeds 10,000 profiles into a fresh PGlite in a temporary folder, starts the
 * server on a free port (a child process, so the load generator does not share its event loop), and
 * runs autocannon with 50 connections against the profile list, one profile and its documents.
 * After a 2 s warm-up per endpoint, prints requests per second and p50/p95/p99 latency per endpoint.
 * Nothing is asserted.
 *
 * Env: BENCH_PROFILES (default 10000), BENCH_SECONDS per endpoint (default 10), BENCH_CONNECTIONS (50).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const PROFILES = Number(process.env.BENCH_PROFILES ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP_SECONDS = 2;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function run(args: string[], env: NodeJS.ProcessEnv, inherit = true): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', ...args], {
    env: { ...process.env, ...env },
    stdio: inherit ? 'inherit' : ['ignore', 'ignore', 'inherit'],
  });
}

function finished(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

async function waitForServer(base: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('server exited early');
    try {
      if ((await fetch(`${base}/api/v1/regions`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not start');
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

interface Row {
  endpoint: string;
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
}

async function measure(name: string, url: string, token: string, seconds = SECONDS): Promise<Row> {
  const latencies: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: CONNECTIONS,
        duration: seconds,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      },
      (error, finished) => (error ? reject(error) : resolve(finished)),
    );
    // Every response's time, for exact percentiles (autocannon itself reports p97.5, not p95).
    instance.on('response', (_client, _status, _bytes, responseTime) => latencies.push(responseTime));
  });
  latencies.sort((a, b) => a - b);
  return {
    endpoint: name,
    requests: result.requests.total,
    errors: result.non2xx + result.errors,
    rps: Math.round(result.requests.average),
    p50: Number(percentile(latencies, 50).toFixed(1)),
    p95: Number(percentile(latencies, 95).toFixed(1)),
    p99: Number(percentile(latencies, 99).toFixed(1)),
  };
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-bench-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    DATA_DIR: dataDir,
    PORT: String(port),
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
  };
  let server: ChildProcess | undefined;
  try {
    console.log(`Seeding ${PROFILES} profiles into PGlite in ${dataDir} ...`);
    const seedStarted = Date.now();
    const seedCode = await finished(run(['server/db/seed.ts', '--profiles', String(PROFILES)], env, false));
    if (seedCode !== 0) throw new Error(`seed failed (${seedCode})`);
    console.log(`Seeded in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`);

    server = run(['server/main.ts'], env, false);
    await waitForServer(base, server);
    const login = await fetch(`${base}/api/v1/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin@acme.test', password: 'Admin@2026' }),
    });
    const { access } = (await login.json()) as { access: string };
    // Profile 6 has three documents (ID with two pages, selfie, one more) in the demo data.
    const profileId = 6;
    const targets: [string, string][] = [
      ['GET /profile?limit=20', `${base}/api/v2/profile?limit=20`],
      [`GET /profile/${profileId}`, `${base}/api/v2/profile/${profileId}`],
      [`GET /profile/${profileId}/documents`, `${base}/api/v2/profile/${profileId}/documents`],
    ];
    // Warm-up (not measured): JIT and PostgreSQL's caches, so the first endpoint is not measured cold.
    console.log(`Warming up for ${WARMUP_SECONDS} s per endpoint ...`);
    for (const [name, url] of targets) await measure(name, url, access, WARMUP_SECONDS);
    const rows: Row[] = [];
    for (const [name, url] of targets) {
      console.log(`${name}: ${CONNECTIONS} connections for ${SECONDS} s ...`);
      rows.push(await measure(name, url, access));
    }
    console.log(
      `\nResults (${PROFILES} profiles, ${CONNECTIONS} connections, ${SECONDS} s each; latency in ms)`,
    );
    console.table(rows);
  } finally {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await finished(server);
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
