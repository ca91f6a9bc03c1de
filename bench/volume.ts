/**
 * `npm run bench:volume`: the reads of a large company at 50 connections, on PGlite and on
 * PostgreSQL, at 10,000 and 1,000,000 profiles, and the ratio of the two.
 *
 * For each database and size: `npm run seed -- --profiles N` (the bulk path past 10,000, server/db/seed/bulk.ts)
 * into a fresh PGlite folder or the PostgreSQL database (a scratch cluster in /tmp unless
 * BENCH_VOLUME_DATABASE_URL names one: its data is replaced), then the server as a child process, signed in as
 * admin@acme.test, then every section of `SECTIONS` against it. A line is BENCH_VOLUME_WARMUP unmeasured requests,
 * then BENCH_VOLUME_REQUESTS measured ones (at most BENCH_VOLUME_SECONDS of them), always BENCH_VOLUME_CONNECTIONS
 * in flight; p50/p95 of the time to the whole body, and the CPU a request cost the server, PostgreSQL and the
 * bench itself (all on this machine's cores). The warm-ups let the server's JIT (and PGlite's WebAssembly, which V8
 * compiles again once it is hot) and the database's caches settle: a server runs for days. With 300 a line measured
 * the warming: the first page on PGlite at 10,000 profiles had a p95 of 127 ms after 500 requests and 58–72 ms after
 * 6,000.
 *
 * Env: BENCH_VOLUME_SIZES (10000,1000000), BENCH_VOLUME_DATABASES (pglite,postgres), BENCH_VOLUME_CONNECTIONS
 * (50), BENCH_VOLUME_REQUESTS (2000), BENCH_VOLUME_WARMUP (3000), BENCH_VOLUME_SECONDS (30),
 * BENCH_VOLUME_DATABASE_URL, BENCH_VOLUME_QUEUE (1; 0 leaves out the queue: `queueSection` of bench/queue.ts, with its
 * own server, run once at the end with its own BENCH_QUEUE_* settings). Nothing is asserted; targets at 1,000,000: p95 < 50 ms on PostgreSQL, < 100 ms on
 * PGlite, the report < 200 ms, p95 at most 2× that at 10,000.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { dayOf, lastMonths } from '#contract/statsRange';
import { startPostgres } from '../scripts/cluster';
import { queueSection } from './queue';
import { type StatsServer, startStatsServer } from './stats';
import { cpuSeconds, finished, freePort, percentile, postgresCpuSeconds, run } from './support';

const list = (name: string, fallback: string) =>
  (process.env[name] ?? fallback)
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
const SIZES = list('BENCH_VOLUME_SIZES', '10000,1000000').map(Number);
const DATABASES = list('BENCH_VOLUME_DATABASES', 'pglite,postgres') as Database[];
const CONNECTIONS = Number(process.env.BENCH_VOLUME_CONNECTIONS ?? 50);
const REQUESTS = Number(process.env.BENCH_VOLUME_REQUESTS ?? 2000);
const WARMUP = Number(process.env.BENCH_VOLUME_WARMUP ?? 3000);
const SECONDS = Number(process.env.BENCH_VOLUME_SECONDS ?? 30);
const QUEUE = process.env.BENCH_VOLUME_QUEUE !== '0';

type Database = 'pglite' | 'postgres';

/** One measured line of one database at one size. */
export interface VolumeLine {
  line: string;
  p50: number;
  p95: number;
  requests: number;
  /** Requests that failed (HTTP error or closed socket): not in the percentiles. */
  failed: number;
  /** What the answer said (e.g. the search's count), so a fast empty answer is seen as one. */
  note: string;
  cpu: RequestCpu;
}

/** The server of one database at one size, signed in as admin@acme.test. */
export interface VolumeTarget {
  database: Database;
  size: number;
  server: StatsServer;
}

/** A part of the bench: what it measures against one running server (the queue runs apart: `queueSection`). */
export type VolumeSection = (target: VolumeTarget) => Promise<VolumeLine[]>;

const authorized = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

async function getJson<T>(url: string, token: string): Promise<T> {
  const response = await fetch(url, authorized(token));
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** CPU milliseconds per measured request: the server's process, PostgreSQL's (all its processes), this bench's. */
export interface RequestCpu {
  server: number;
  postgres: number;
  bench: number;
}

/**
 * GET `url` with `token`, the body read whole. node:http with a keep-alive agent of `CONNECTIONS` sockets, not
 * fetch: the bench shares the machine's two cores with the server, and fetch cost about 0.5 ms of CPU a request
 * here against 0.15–0.2 ms, CPU the server under test did not get.
 */
function getter(url: string, token: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const target = new URL(url);
  const get = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          path: `${target.pathname}${target.search}`,
          agent,
          headers: { authorization: `Bearer ${token}` },
        },
        (response) => {
          response.on('data', () => undefined);
          response.on('error', reject);
          response.on('end', () =>
            response.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${response.statusCode}`)),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });
  return { get, close: () => agent.destroy() };
}

/**
 * Sends GET `url` with `CONNECTIONS` requests in flight: WARMUP unmeasured, then REQUESTS measured (fewer when
 * SECONDS run out), as the server's signed-in admin; the milliseconds from sending to the last byte of the body, and
 * the CPU each measured request cost the server, PostgreSQL and this bench.
 */
export async function underLoad(
  url: string,
  server: StatsServer,
): Promise<{ p50: number; p95: number; requests: number; failed: number; cpu: RequestCpu }> {
  let failed = 0;
  const client = getter(url, server.token);
  const serverPid = server.child.pid;
  const fire = async (total: number, until: number, times: number[] | null) => {
    let sent = 0;
    const worker = async () => {
      while (sent < total && Date.now() < until) {
        sent++;
        const started = performance.now();
        // A refusal or a closed socket (the server's request timeout under load) is counted, not fatal.
        try {
          await client.get();
          times?.push(performance.now() - started);
        } catch {
          if (times) failed++;
        }
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  };
  try {
    await fire(WARMUP, Date.now() + SECONDS * 1000, null);
    const times: number[] = [];
    const before = {
      server: cpuSeconds(serverPid),
      postgres: postgresCpuSeconds(),
      bench: process.cpuUsage(),
    };
    await fire(REQUESTS, Date.now() + SECONDS * 1000, times);
    const bench = process.cpuUsage(before.bench);
    const perRequest = (seconds: number) => Number(((seconds * 1000) / Math.max(times.length, 1)).toFixed(3));
    times.sort((a, b) => a - b);
    const round = (ms: number) => Number(ms.toFixed(1));
    return {
      p50: round(percentile(times, 50)),
      p95: round(percentile(times, 95)),
      requests: times.length,
      failed,
      cpu: {
        server: perRequest(cpuSeconds(serverPid) - before.server),
        postgres: perRequest(postgresCpuSeconds() - before.postgres),
        bench: perRequest((bench.user + bench.system) / 1e6),
      },
    };
  } finally {
    client.close();
  }
}

interface ProfilePage {
  count: number;
  next: string | null;
  results: { id: number; name: string | null; id_card_number: string }[];
}

/** The profile list as the studio reads it: first page, deep page, the three searches. */
const profileReads: VolumeSection = async ({ size, server }) => {
  const { base, token } = server;
  const listUrl = `${base}/api/v2/profile?limit=20`;
  // A page deep in the list: the `next` link of the page at 90 % (an offset today; whatever the server
  // answers after keyset paging, the bench follows it).
  const deep = await getJson<ProfilePage>(`${listUrl}&offset=${Math.floor(size * 0.9)}`, token);
  if (!deep.next) throw new Error('the page at 90 % has no next link');
  const deepNext = await getJson<ProfilePage>(deep.next, token);
  const idNumber = deepNext.results[0]?.id_card_number;
  if (!idNumber) throw new Error('no profile on the deep page');
  const searches: [line: string, url: string][] = [
    ['first list page', listUrl],
    ['deep page (next link after 90 %)', deep.next],
    ['search by name "Yılmaz"', `${listUrl}&search=${encodeURIComponent('Yılmaz')}`],
    [`search by ID number (${idNumber})`, `${listUrl}&search=${idNumber}`],
    ['Turkish-folded search "CELIK"', `${listUrl}&search=CELIK`],
  ];
  const lines: VolumeLine[] = [];
  for (const [line, url] of searches) {
    const { count, results } = await getJson<ProfilePage>(url, token);
    const note = line.startsWith('Turkish')
      ? `${count} found, first: ${results[0]?.name ?? 'none'}`
      : `${count} found`;
    lines.push({ line, note, ...(await underLoad(url, server)) });
  }
  return lines;
};

/** The call report of the last 6 months (GET /videocall/report, as the calls screen sends it). */
const callReport: VolumeSection = async ({ server }) => {
  const { start, end } = lastMonths(dayOf(new Date()));
  const url = `${server.base}/api/v2/videocall/report?start_date=${start}&end_date=${end}`;
  return [{ line: '6-month call report', note: `${start} … ${end}`, ...(await underLoad(url, server)) }];
};

/** The dashboard of the last 6 months (GET /bitool with its default range, as the dashboard screen sends it). */
const dashboard: VolumeSection = async ({ server }) => {
  const url = `${server.base}/api/v2/bitool`;
  const { totals } = await getJson<{ totals: { profiles: number } }>(url, server.token);
  return [
    {
      line: 'dashboard, 6 months',
      note: `${totals.profiles} profiles created in it`,
      ...(await underLoad(url, server)),
    },
  ];
};

/** What runs against every server, in order. */
export const SECTIONS: VolumeSection[] = [profileReads, callReport, dashboard];

interface DatabasePlace {
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

/** A fresh place per database: a PGlite folder, or the PostgreSQL database (seed replaces its data). */
async function placeFor(database: Database, dir: string): Promise<DatabasePlace> {
  const env = {
    DATA_DIR: join(dir, 'data'),
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    // A slow answer is measured, not cut: the server closes a connection silent for 28 s by default, and a
    // request closed that way leaves its query running and the next line waiting behind it.
    IDLE_TIMEOUT_MS: '600000',
  };
  if (database === 'pglite')
    return { env, cleanup: () => rmSync(env.DATA_DIR, { recursive: true, force: true }) };
  const given = process.env.BENCH_VOLUME_DATABASE_URL;
  if (given) return { env: { ...env, DATABASE_URL: given }, cleanup: () => undefined };
  const postgres = startPostgres(join(dir, 'pg'), await freePort());
  return { env: { ...env, DATABASE_URL: postgres.databaseUrl }, cleanup: postgres.stop };
}

async function seed(env: NodeJS.ProcessEnv, size: number): Promise<number> {
  const started = Date.now();
  const code = await finished(run(['server/db/seed.ts', '--profiles', String(size)], env));
  if (code !== 0) throw new Error(`seed of ${size} profiles failed (${code})`);
  return (Date.now() - started) / 1000;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'idv-bench-volume-'));
  // PostgreSQL's account (when root) must pass through to its own folder inside.
  chmodSync(dir, 0o711);
  const results: (VolumeLine & { database: Database; size: number })[] = [];
  const seeds: Record<string, string>[] = [];
  try {
    for (const database of DATABASES) {
      const place = await placeFor(database, dir);
      try {
        for (const size of SIZES) {
          console.log(`${database}: seeding ${size.toLocaleString('en-US')} profiles …`);
          const seconds = await seed(place.env, size);
          seeds.push({ database, profiles: size.toLocaleString('en-US'), seed: `${seconds.toFixed(1)} s` });
          console.log(
            `${database}: seeded in ${seconds.toFixed(1)} s; measuring (load ${loadavg()[0]?.toFixed(2)})`,
          );
          const server = await startStatsServer(place.env);
          try {
            for (const section of SECTIONS)
              for (const line of await section({ database, size, server })) {
                results.push({ ...line, database, size });
                console.log(
                  `  ${line.line}: p50 ${line.p50} ms, p95 ${line.p95} ms (${line.requests} answered, ${line.failed} failed; ${line.note}); ` +
                    `CPU ms a request: server ${line.cpu.server}, PostgreSQL ${line.cpu.postgres}, bench ${line.cpu.bench}`,
                );
              }
          } finally {
            await server.stop();
          }
        }
      } finally {
        place.cleanup();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `\nSeeding (load average now ${loadavg()[0]?.toFixed(2)}); then ${CONNECTIONS} connections, ${REQUESTS} ` +
      `requests per line after ${WARMUP} warm-ups (at most ${SECONDS} s), ms:`,
  );
  console.table(seeds);
  printTable(results);
  // The queue (bench/queue.ts) does not depend on the profiles: one server of its own, once.
  if (QUEUE) await queueSection();
}

/** One row per line and database: p50/p95 per size, and p95 of the largest size over the smallest. */
function printTable(results: (VolumeLine & { database: Database; size: number })[]): void {
  const rows: Record<string, string>[] = [];
  const smallest = Math.min(...SIZES);
  const largest = Math.max(...SIZES);
  for (const database of DATABASES)
    for (const line of [...new Set(results.map((r) => r.line.replace(/ \(\d+\)$/, '')))]) {
      const of = (size: number) =>
        results.find(
          (r) => r.database === database && r.size === size && r.line.replace(/ \(\d+\)$/, '') === line,
        );
      const row: Record<string, string> = { line, database };
      for (const size of SIZES) {
        const r = of(size);
        row[`${size.toLocaleString('en-US')} p50 / p95`] = r
          ? `${r.p50} / ${r.p95}${r.failed ? ` (${r.failed} failed)` : ''}`
          : '–';
      }
      const [low, high] = [of(smallest), of(largest)];
      if (low && high && largest !== smallest) row['p95 ratio'] = `${(high.p95 / low.p95).toFixed(2)}×`;
      if (high)
        row['CPU ms: server / PG / bench'] = `${high.cpu.server} / ${high.cpu.postgres} / ${high.cpu.bench}`;
      rows.push(row);
    }
  console.table(rows);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
