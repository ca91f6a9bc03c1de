/**
 * `npm run bench:api`: seeds 10,000 profiles into a fresh PGlite in a temporary folder, starts the
 * server on a free port (a child process, so the load generator does not share its event loop), and
 * runs autocannon with 50 connections against the profile list, one profile and its documents.
 * After a 2 s warm-up per endpoint, prints requests per second and p50/p95/p99 latency per endpoint.
 * Nothing is asserted.
 *
 * The load generator runs on the same machine, so it also prints where the CPU went during each run
 * (from /proc, Linux only): the server process, this client (autocannon), and everything else on the
 * machine. With 50 connections on one single-threaded server, latency is about connections / throughput,
 * so anything that takes CPU from the server shows up directly in the figures; when the server did not
 * get a whole core, or the client and other processes left it less than one, it says so under the table.
 * The server's CPU time per request is printed too: it moves far less with contention than latency,
 * so it is the better figure to compare runs made on a busy machine (heavy contention still inflates it); and
 * that of its event loop and of its PGlite thread apart, since a request waits for whichever of the two is full.
 *
 * It measures two servers on the same data: as deployed, where every read of a person's data is noted in the
 * access log, and `bench/serverWithoutAccessLog.ts`, where it is not. They take turns for several rounds, the
 * order swapped each round, and each side's table is the median of its rounds: measured one after the other
 * once, a drift of the machine (another process, the data's caches) looked like a difference between them.
 * A last table puts the sides beside each other, with the machine's load average before and after.
 *
 * Before and after in one run (bench/baseline.ts): the server of BENCH_BASELINE_REV (default: the revision before
 * the list's page became one JSON text, docs/decisions/0233-list-rows-as-json-text.md) takes its turns with the
 * working tree's, on data its own seed wrote (the same demo data), so each table says what the change did on the
 * same machine at the same load. BENCH_BASELINE_REV=none measures the working tree alone.
 *
 * Env: BENCH_PROFILES (default 10000), BENCH_SECONDS per endpoint (default 10), BENCH_CONNECTIONS (50),
 * BENCH_ACCESS_LOG (both; on or off measures one side), BENCH_ROUNDS (3), BENCH_BASELINE_REV (afa9ec8).
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { inTurns, machineLoad, runIn, type ServerTree, serverTrees } from './baseline';
import { finished, freePort, percentile, stop, waitForServer } from './support';

const PROFILES = Number(process.env.BENCH_PROFILES ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP_SECONDS = 2;
/** both (default): the access log on, then off, in one run; on or off: that side only. */
const ACCESS_LOG = process.env.BENCH_ACCESS_LOG ?? 'both';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** The revision before the list's page became one JSON text: the "before" of bench:api. */
const BEFORE_REV = 'afa9ec8';

/** Per endpoint, the median of each figure over the rounds (the rounds list the endpoints in the same order). */
export function medianRows(rounds: Row[][]): Row[] {
  const middle = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const half = Math.floor(sorted.length / 2);
    return sorted.length % 2
      ? (sorted[half] as number)
      : ((sorted[half - 1] as number) + (sorted[half] as number)) / 2;
  };
  return (rounds[0] ?? []).map((first, index) => {
    const row = { ...first } as Record<string, unknown>;
    for (const [key, value] of Object.entries(first)) {
      const values = rounds.map((round) => (round[index] as unknown as Record<string, unknown>)[key]);
      if (typeof value === 'number' && values.every((v) => typeof v === 'number'))
        row[key] = Math.round(middle(values as number[]) * 1000) / 1000;
    }
    return row as unknown as Row;
  });
}

/** A server to measure: which tree, and as deployed (reads noted in the access log) or without noting them. */
interface Side {
  label: string;
  tree: ServerTree;
  entry: string;
}

/** The servers to measure, per tree: as deployed, and without noting reads (`BENCH_ACCESS_LOG` picks). */
function sidesToMeasure(trees: ServerTree[]): Side[] {
  const entries: [string, string][] = [
    ['access log on', 'server/main.ts'],
    ['access log off', 'bench/serverWithoutAccessLog.ts'],
  ];
  return trees.flatMap((tree) =>
    entries
      .filter(([log]) => ACCESS_LOG === 'both' || log.endsWith(ACCESS_LOG))
      .map(([log, entry]) => ({ label: trees.length > 1 ? `${tree.label}, ${log}` : log, tree, entry })),
  );
}

/** Per endpoint, every side's requests per second, p50, p95 and CPU a request beside each other. */
function compared(sides: [string, Row[]][]) {
  const [[, first = []] = ['', []]] = sides;
  return first.map((row, index) => ({
    endpoint: row.endpoint,
    ...Object.fromEntries(
      sides.map(([side, rows]) => {
        const other = rows[index];
        return [
          side,
          other
            ? `${other.rps} rps, p50 ${other.p50}, p95 ${other.p95}, ${other['server cpu ms/req']} ms cpu ` +
              `(loop ${other['loop ms/req']}, db ${other['db thread ms/req']})`
            : 'n/a',
        ];
      }),
    ),
  }));
}

/** Each round's requests per second and p95, per endpoint and side: whether a difference holds in every round. */
export function roundRows(roundsBySide: Map<string, Row[][]>) {
  return [...roundsBySide].flatMap(([side, rounds]) =>
    (rounds[0] ?? []).map((first, index) => ({
      endpoint: first.endpoint,
      side,
      ...Object.fromEntries(
        rounds.map((round, r) => [`round ${r + 1} rps / p95`, `${round[index]?.rps} / ${round[index]?.p95}`]),
      ),
    })),
  );
}

/** Clock ticks per second of /proc times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;
const CORES = availableParallelism();

/** CPU seconds of a process so far (user + system, all threads), or null without /proc. */
function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the name: state is field 3, utime 14 and stime 15 (1-based, as in proc(5)).
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/**
 * CPU seconds so far of the server's event loop (`MainThread`) and of its PGlite thread (`WorkerThread`, 0 on
 * PostgreSQL): the list is bound by whichever of the two is full, which the process's total does not say.
 */
function threadCpuSeconds(pid: number): { loop: number; db: number } | null {
  try {
    const seconds = { loop: 0, db: 0 };
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const used = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
      if (name === 'MainThread') seconds.loop += used;
      else if (name === 'WorkerThread') seconds.db += used;
    }
    return seconds;
  } catch {
    return null;
  }
}

/** Busy and total CPU seconds of the whole machine so far (all cores), or null without /proc. */
function machineCpuSeconds(): { busy: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const [, ...values] = line.trim().split(/\s+/);
    const ticks = values.map(Number);
    const total = ticks.reduce((sum, t) => sum + t, 0);
    const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0); // idle + iowait
    return { busy: (total - idle) / TICKS_PER_SECOND, total: total / TICKS_PER_SECOND };
  } catch {
    return null;
  }
}

interface CpuShare {
  /** CPU seconds the server used during the run (all its threads). */
  serverSeconds: number;
  /** Of those, its event loop's and its PGlite thread's (null without /proc's threads). */
  loopSeconds: number | null;
  dbSeconds: number | null;
  /** Percent of one core used during the run, by the server, this client and everything else. */
  server: number;
  client: number;
  others: number;
}

/** Starts counting CPU time; the returned function gives each party's share of the run so far. */
function cpuMeter(serverPid: number | undefined): () => CpuShare | null {
  const started = performance.now();
  const client0 = process.cpuUsage();
  const server0 = serverPid ? processCpuSeconds(serverPid) : null;
  const threads0 = serverPid ? threadCpuSeconds(serverPid) : null;
  const machine0 = machineCpuSeconds();
  return () => {
    const seconds = (performance.now() - started) / 1000;
    const server1 = serverPid ? processCpuSeconds(serverPid) : null;
    const threads1 = serverPid ? threadCpuSeconds(serverPid) : null;
    const machine1 = machineCpuSeconds();
    if (server0 === null || server1 === null || !machine0 || !machine1 || seconds <= 0) return null;
    const client = process.cpuUsage(client0);
    const clientSeconds = (client.user + client.system) / 1e6;
    const serverSeconds = server1 - server0;
    const othersSeconds = Math.max(0, machine1.busy - machine0.busy - serverSeconds - clientSeconds);
    const percent = (cpuSeconds: number) => Math.round((100 * cpuSeconds) / seconds);
    return {
      serverSeconds,
      loopSeconds: threads0 && threads1 ? threads1.loop - threads0.loop : null,
      dbSeconds: threads0 && threads1 ? threads1.db - threads0.db : null,
      server: percent(serverSeconds),
      client: percent(clientSeconds),
      others: percent(othersSeconds),
    };
  };
}

export interface Row {
  endpoint: string;
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  /** Server CPU time per request: moves less with contention than the latencies (but still moves). */
  'server cpu ms/req': number | string;
  /** Of it, the event loop's and the PGlite thread's: the list is bound by the fuller of the two. */
  'loop ms/req': number | string;
  'db thread ms/req': number | string;
  'server cpu %': number | string;
  'client cpu %': number | string;
  'others cpu %': number | string;
}

export async function measure(
  name: string,
  url: string,
  token: string,
  serverPid: number | undefined,
  seconds = SECONDS,
): Promise<Row> {
  const latencies: number[] = [];
  const cpu = cpuMeter(serverPid);
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
  const share = cpu();
  latencies.sort((a, b) => a - b);
  const perRequest = (cpuSeconds: number | null | undefined) =>
    typeof cpuSeconds === 'number' && result.requests.total > 0
      ? Number(((1000 * cpuSeconds) / result.requests.total).toFixed(3))
      : 'n/a';
  return {
    endpoint: name,
    requests: result.requests.total,
    errors: result.non2xx + result.errors,
    rps: Math.round(result.requests.average),
    p50: Number(percentile(latencies, 50).toFixed(1)),
    p95: Number(percentile(latencies, 95).toFixed(1)),
    p99: Number(percentile(latencies, 99).toFixed(1)),
    'server cpu ms/req': perRequest(share?.serverSeconds),
    'loop ms/req': perRequest(share?.loopSeconds),
    'db thread ms/req': perRequest(share?.dbSeconds),
    'server cpu %': share?.server ?? 'n/a',
    'client cpu %': share?.client ?? 'n/a',
    'others cpu %': share?.others ?? 'n/a',
  };
}

/** What the CPU figures say about how far the latencies can be trusted. */
function cpuNotes(rows: Row[]): string[] {
  const notes: string[] = [];
  for (const row of rows) {
    const { endpoint } = row;
    const server = row['server cpu %'];
    const client = row['client cpu %'];
    const others = row['others cpu %'];
    if (typeof server !== 'number' || typeof client !== 'number' || typeof others !== 'number') continue;
    const left = CORES * 100 - client - others;
    if (server < 90) {
      notes.push(
        `${endpoint}: the server got only ${server} % of a core (client ${client} %, other processes ${others} %, ` +
          `${CORES} cores): it waited for CPU, so these latencies are worse than the server alone would give.`,
      );
    } else if (left < 150) {
      notes.push(
        `${endpoint}: the client (${client} %) and other processes (${others} %) left ${Math.max(0, left)} % ` +
          `of ${CORES * 100} %: the server had little headroom, figures may be pessimistic.`,
      );
    }
  }
  return notes;
}

async function main() {
  const trees = serverTrees(BEFORE_REV);
  // Each tree's own data folder, written by its own seed: an older server need not read a newer schema.
  const dataDirs = new Map(trees.map((tree) => [tree, mkdtempSync(join(tmpdir(), 'idv-bench-'))]));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const jwtSecret = randomBytes(32).toString('hex');
  const envOf = (tree: ServerTree) => ({
    DATA_DIR: dataDirs.get(tree) as string,
    PORT: String(port),
    JWT_SECRET: jwtSecret,
    LOG_LEVEL: 'warn',
  });
  let server: ChildProcess | undefined;
  try {
    for (const tree of trees) {
      console.log(`Seeding ${PROFILES} profiles for ${tree.label} into PGlite in ${dataDirs.get(tree)} ...`);
      const seedStarted = Date.now();
      const seed = runIn(tree, ['server/db/seed.ts', '--profiles', String(PROFILES)], envOf(tree));
      const seedCode = await finished(seed);
      if (seedCode !== 0) throw new Error(`seed failed (${seedCode})`);
      console.log(`Seeded in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s`);
    }

    const roundsBySide = new Map<string, Row[][]>();
    const loadBefore = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    for (const {
      side: { label: side, tree, entry },
      round,
    } of inTurns(sidesToMeasure(trees), ROUNDS)) {
      server = runIn(tree, [entry], envOf(tree));
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
      console.log(`${side}: warming up for ${WARMUP_SECONDS} s per endpoint (${machineLoad()}) ...`);
      for (const [name, url] of targets) await measure(name, url, access, server.pid, WARMUP_SECONDS);
      const rows: Row[] = [];
      for (const [name, url] of targets) {
        console.log(`${side}, round ${round}: ${name}: ${CONNECTIONS} connections for ${SECONDS} s ...`);
        rows.push(await measure(name, url, access, server.pid));
      }
      await stop(server);
      server = undefined;
      roundsBySide.set(side, [...(roundsBySide.get(side) ?? []), rows]);
    }
    const rowsBySide = [...roundsBySide].map(
      ([side, rounds]) => [side, medianRows(rounds)] as [string, Row[]],
    );
    const loadAfter = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    for (const [side, rows] of rowsBySide) {
      console.log(
        `\nResults, ${side}, median of ${ROUNDS} rounds (${PROFILES} profiles, ${CONNECTIONS} connections, ${SECONDS} s each; latency in ms; ` +
          `cpu in % of one core, ${CORES} cores)`,
      );
      console.table(rows);
      const notes = cpuNotes(rows);
      for (const note of notes) console.log(`Note: ${note}`);
      if (notes.length === 0 && rows.some((r) => typeof r['server cpu %'] === 'number')) {
        console.log(
          'CPU: the server had a core of its own in every run; the client did not distort the figures.',
        );
      }
    }
    console.log('\nEach round (the order of the sides swapped every round):');
    console.table(roundRows(roundsBySide));
    if (rowsBySide.length > 1) console.table(compared(rowsBySide));
    console.log(`Machine: ${CORES} cores; load average before ${loadBefore}, after ${loadAfter}.`);
  } finally {
    await stop(server);
    for (const dir of dataDirs.values()) rmSync(dir, { recursive: true, force: true });
    for (const tree of trees) tree.remove();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
