/**
 * `npm run bench:stats`: the call report, the dashboard and the instant stats on a large company.
 *
 * 1. `seedStatsDatabase`: the demo data without profiles (users, companies) is seeded into a fresh PGlite
 *    in a temporary DATA_DIR; then, in bulk SQL (generate_series), Acme Bank gets BENCH_AGENTS agents
 *    (`bench-agent-<n>@acme.test`, password User@2026), BENCH_PROFILES profiles by the seed's bulk path
 *    (server/db/seed/bulk.ts: every status, created over the last 6 months, 1–2 documents with checks, an AML
 *    screening for every second profile), and BENCH_CALLS calls (every status, spread over the agents and the
 *    last 6 months);
 *    then VACUUM ANALYZE.
 * 2. `startStatsServer`: the server on a free port (child process), signed in as admin@acme.test.
 * 3. `timeGet`: BENCH_RUNS sequential requests (after BENCH_WARMUP unmeasured ones) through HTTP; the
 *    median and p90 of the detailed call report and of the dashboard (bitool) for the last 6 months.
 * 4. `instantStats`: the delay from a customer joining or an agent changing status to the supervisor's
 *    socket receiving the `stats.update` that shows it, with 200 waiting customers.
 *
 * Env: BENCH_PROFILES (50000), BENCH_CALLS (100000), BENCH_AGENTS (50), BENCH_RUNS (15), BENCH_WARMUP (3).
 * Nothing is asserted; the target is a median under 200 ms for each query.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { InstantStats } from '#contract/socket';
import { dayOf, lastMonths } from '#contract/statsRange';
import { openDatabase } from '../server/db/client';
import { seedBulkProfiles } from '../server/db/seed/bulk';
import {
  api,
  BENCH_AGENT_PASSWORD,
  type ClientSocket,
  connected,
  customerCall,
  onlineAgent,
  pool,
  profileIds,
  socketOf,
  spread,
} from './calls';
import { finished, freePort, percentile, run, stop, waitForServer } from './support';

const PROFILES = Number(process.env.BENCH_PROFILES ?? 50_000);
const CALLS = Number(process.env.BENCH_CALLS ?? 100_000);
const AGENTS = Number(process.env.BENCH_AGENTS ?? 50);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);

export interface StatsVolume {
  profiles: number;
  calls: number;
  agents: number;
}

/** Fresh PGlite data folder with the demo users and the bulk statistics rows; answers the server env. */
export async function seedStatsDatabase(
  volume: StatsVolume,
): Promise<{ dataDir: string; env: NodeJS.ProcessEnv }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-bench-stats-'));
  const env = { DATA_DIR: dataDir, JWT_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'warn' };
  try {
    await bulkRows(dataDir, env, volume);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return { dataDir, env };
}

async function bulkRows(dataDir: string, env: NodeJS.ProcessEnv, volume: StatsVolume): Promise<void> {
  const code = await finished(run(['server/db/seed.ts', '--profiles', '0'], env));
  if (code !== 0) throw new Error(`seed failed (${code})`);
  const database = await openDatabase({ pgliteDir: join(dataDir, 'pg') });
  const { db } = database;
  try {
    const acme = (await db.execute(sql`SELECT id FROM companies WHERE name = 'Acme Bank'`)) as {
      rows: { id: number }[];
    };
    const company = acme.rows[0]?.id;
    if (!company) throw new Error('no Acme Bank in the demo data');
    const span = sql.raw(`interval '182 days'`);
    // Agents (also what instant stats need): copies of agent@acme.test with their own e-mail.
    await db.execute(sql`
      INSERT INTO users (company_id, email, first_name, last_name, password_hash, role)
      SELECT ${company}, 'bench-agent-' || n || '@acme.test', 'Agent', 'No. ' || n, u.password_hash, 'User'
        FROM generate_series(1, ${volume.agents}) AS n,
             (SELECT password_hash FROM users WHERE email = 'agent@acme.test' LIMIT 1) AS u`);
    // Profiles with their documents and AML screenings: the seed's bulk path (server/db/seed/bulk.ts).
    await seedBulkProfiles(db, {
      companyId: company,
      firstIndex: 0,
      count: volume.profiles,
      now: Date.now(),
      spanDays: 182,
      staffIds: [],
      amlProvider: 'Local AML lists',
      calls: false,
    });
    await db.execute(sql`
      WITH agents AS (SELECT array_agg(id ORDER BY id) AS ids FROM users WHERE email LIKE 'bench-agent-%'),
           bench AS (SELECT min(id) AS first_id, count(*) AS total FROM profiles WHERE company_id = ${company})
      INSERT INTO video_calls (company_id, profile_id, agent_id, room_id, status, call_start_time, call_end_time,
                               created_at)
      SELECT ${company}, bench.first_id + n % bench.total,
             CASE WHEN s IN (0, 2) THEN NULL ELSE agents.ids[1 + n % array_length(agents.ids, 1)] END,
             'bench-' || n, s,
             CASE WHEN s IN (0, 2) THEN NULL ELSE t + interval '30 seconds' END,
             CASE WHEN s IN (0, 1, 2) THEN NULL ELSE t + interval '30 seconds' + interval '1 second' * (120 + n % 780) END,
             t
        FROM generate_series(1, ${volume.calls}) AS n, agents, bench,
             LATERAL (SELECT n % 10 AS s, now() - ${span} * random() AS t) AS c`);
    await db.execute(sql`VACUUM ANALYZE`);
  } finally {
    await database.close();
  }
}

export interface StatsServer {
  base: string;
  token: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** The server on a free port over that data folder, signed in as admin@acme.test. */
export async function startStatsServer(env: NodeJS.ProcessEnv): Promise<StatsServer> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = run(['server/main.ts'], { ...env, PORT: String(port), LOGIN_LIMIT_PER_ADDRESS: '1000' });
  const stopServer = () => stop(child);
  try {
    await waitForServer(base, child);
    const login = await fetch(`${base}/api/v1/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin@acme.test', password: 'Admin@2026' }),
    });
    const { access } = (await login.json()) as { access: string };
    return { base, token: access, child, stop: stopServer };
  } catch (error) {
    await stopServer();
    throw error;
  }
}

export interface Timing {
  name: string;
  runs: number;
  median: number;
  p90: number;
  min: number;
  max: number;
}

/** `runs` sequential GETs (after `warmup` unmeasured ones): milliseconds until the whole body is read. */
export async function timeGet(
  name: string,
  url: string,
  token: string,
  runs = RUNS,
  warmup = WARMUP,
): Promise<Timing> {
  const once = async () => {
    const started = performance.now();
    const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
    return performance.now() - started;
  };
  for (let i = 0; i < warmup; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await once());
  times.sort((a, b) => a - b);
  const round = (ms: number) => Number(ms.toFixed(1));
  return {
    name,
    runs,
    median: round(percentile(times, 50)),
    p90: round(percentile(times, 90)),
    min: round(times[0] ?? Number.NaN),
    max: round(times[times.length - 1] ?? Number.NaN),
  };
}

/** The report and dashboard queries for the last 6 months (their default range), as the studio sends them. */
export async function timeStatsQueries(server: StatsServer): Promise<Timing[]> {
  const { start, end } = lastMonths(dayOf(new Date()));
  const range = `start_date=${start}&end_date=${end}`;
  return [
    await timeGet(
      `GET /videocall/report (${start} … ${end})`,
      `${server.base}/api/v2/videocall/report?${range}`,
      server.token,
    ),
    await timeGet('GET /bitool (default: last 6 months)', `${server.base}/api/v2/bitool`, server.token),
    await timeGet(`GET /bitool?${range}`, `${server.base}/api/v2/bitool?${range}`, server.token),
  ];
}

/**
 * INSTANT STATS: the event-to-screen delay of instant stats with the seeded agents
 * (`bench-agent-1..N@acme.test`, User@2026) Online with sockets and BENCH_WAITING (200) waiting customers,
 * against the running server. "Screen" is a supervisor's socket (admin@acme.test, socket.io-client): the
 * delay runs from the triggering action to the first `stats.update` that reflects it, in this process's
 * clock. Events, one at a time: a customer joins (from `socket.connect()`, the call already created, until
 * `waiting.count` is one more), first while the queue fills to BENCH_WAITING, then BENCH_INSTANT_EVENTS (40)
 * more; then BENCH_INSTANT_EVENTS agent status changes (from sending POST /videocall/agent_status with the
 * agent's token, Online ↔ Break, until the board shows the new status).
 */
export async function instantStats(server: StatsServer): Promise<Record<string, unknown>[]> {
  const waiting = Number(process.env.BENCH_WAITING ?? 200);
  const events = Number(process.env.BENCH_INSTANT_EVENTS ?? 40);
  const { base, token } = server;
  const sockets: ClientSocket[] = [];
  /** Resolves with the arrival time of the first later `stats.update` that `shows` accepts. */
  const waiters = new Set<{ shows: (stats: InstantStats) => boolean; resolve: (at: number) => void }>();
  const pushed = (shows: (stats: InstantStats) => boolean) =>
    new Promise<number>((resolve, reject) => {
      const waiter = { shows, resolve };
      waiters.add(waiter);
      setTimeout(() => {
        if (waiters.delete(waiter)) reject(new Error('no stats.update showed the event within 30 s'));
      }, 30_000).unref();
    });
  let latest: InstantStats | null = null;
  try {
    const { token: supervisorToken } = await api<{ token: string }>(
      base,
      token,
      'POST',
      '/api/v2/user/socket_token',
      { studio: true },
    );
    const supervisor = socketOf(base, { token: supervisorToken }, (socket) =>
      socket.on('stats.update', (stats) => {
        const at = performance.now();
        latest = stats;
        for (const waiter of waiters)
          if (waiter.shows(stats)) {
            waiters.delete(waiter);
            waiter.resolve(at);
          }
      }),
    );
    sockets.push(supervisor);
    await connected(supervisor);

    const emails = Array.from({ length: AGENTS }, (_, i) => `bench-agent-${i + 1}@acme.test`);
    const agents = await pool(emails, 4, async (email) => {
      const agent = await onlineAgent(base, email, BENCH_AGENT_PASSWORD);
      sockets.push(agent.socket);
      return agent;
    });
    const ids = new Set(agents.map((a) => a.id));
    const online = (stats: InstantStats) =>
      stats.agents.filter((a) => ids.has(a.id) && a.status === 'Online').length === agents.length;
    if (!latest || !online(latest)) await pushed(online);

    const profiles = await profileIds(base, token, waiting + events);
    const join = async (profile: number) => {
      const call = await customerCall(base, token, profile);
      const socket = socketOf(base, { customer: call.token, call_id: call.callId });
      sockets.push(socket);
      const before = (latest as InstantStats | null)?.waiting.count ?? 0;
      const shown = pushed((stats) => stats.waiting.count > before);
      const started = performance.now();
      await connected(socket);
      return (await shown) - started;
    };
    const filling: number[] = [];
    for (const profile of profiles.slice(0, waiting)) filling.push(await join(profile));
    const joins: number[] = [];
    for (const profile of profiles.slice(waiting)) joins.push(await join(profile));

    const changes: number[] = [];
    for (let k = 0; k < events; k++) {
      const agent = agents[k % agents.length] as (typeof agents)[number];
      const now = latest as InstantStats | null;
      const status = now?.agents.find((a) => a.id === agent.id)?.status === 'Online' ? 'Break' : 'Online';
      const shown = pushed((stats) => stats.agents.find((a) => a.id === agent.id)?.status === status);
      const started = performance.now();
      await api(base, agent.token, 'POST', '/api/v2/videocall/agent_status', { status });
      changes.push((await shown) - started);
    }

    const label = 'event → supervisor socket gets the stats.update showing it (ms)';
    console.log(
      `\nInstant stats: ${agents.length} agents Online with sockets, ${waiting} waiting customers (then ` +
        `${waiting + events}); "screen" = the supervisor's socket.io-client receiving the push, not a browser ` +
        `(load average ${loadavg()[0]?.toFixed(2)})`,
    );
    return [
      { [label]: `customer joins while the queue fills 0 → ${waiting}`, ...spread(filling) },
      { [label]: `customer joins with ${waiting}+ waiting`, ...spread(joins) },
      { [label]: `agent status change (POST agent_status, Online ↔ Break)`, ...spread(changes) },
    ];
  } finally {
    for (const socket of sockets) socket.disconnect();
  }
}

async function main() {
  const volume: StatsVolume = { profiles: PROFILES, calls: CALLS, agents: AGENTS };
  console.log(
    `Seeding ${volume.profiles} profiles (with documents and AML screenings), ${volume.calls} calls and ` +
      `${volume.agents} agents into a fresh PGlite ...`,
  );
  const seedStarted = Date.now();
  const { dataDir, env } = await seedStatsDatabase(volume);
  console.log(`Seeded in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s (${dataDir})`);
  let server: StatsServer | undefined;
  try {
    server = await startStatsServer(env);
    const loadBefore = loadavg()[0]?.toFixed(2);
    const timings = await timeStatsQueries(server);
    console.log(
      `\nStatistics queries through HTTP, ${RUNS} sequential runs after ${WARMUP} warm-ups (ms; target: ` +
        `median < 200; load average before: ${loadBefore}, after: ${loadavg()[0]?.toFixed(2)})`,
    );
    console.table(timings);
    const instant = await instantStats(server);
    if (instant.length > 0) console.table(instant);
    else console.log('Instant stats: not measured yet (see instantStats in bench/stats.ts).');
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
