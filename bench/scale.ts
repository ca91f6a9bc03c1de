/**
 * `npm run bench:scale`: the same work against one server process and against two, each time
 * behind nginx on PostgreSQL, Redis and s3rver (scripts/cluster.ts, the distributed test's deployment), printed
 * side by side:
 *
 * 1. the API read mix of bench/api.ts (autocannon, BENCH_CONNECTIONS connections for BENCH_SECONDS seconds per
 *    endpoint after a short warm-up): requests per second and p95;
 * 2. the answer race of bench/calls.ts (BENCH_LOAD_CUSTOMERS customers, BENCH_LOAD_AGENTS agents, sockets only,
 *    spread over the processes by nginx's round robin): ring p95 (a customer's socket connecting → the first
 *    agent hearing call.incoming), answer acknowledgement p95, time to answer every call, double answers
 *    (must be 0).
 *
 * 3. (two processes only) a rolling restart under live calls (bench/rolling.ts, what the distributed test asserts
 *    on): each process in turn gets SIGTERM, exits, starts again and is awaited ready while calls talk, customers
 *    wait, a recording uploads and API requests come through nginx; printed: failed requests (count, %), the
 *    longest pause of a talking call's signalling, sockets' reconnect times, and what must be nothing (calls
 *    ended, places lost, uploads or webhooks lost or doubled).
 *
 * Both deployments are seeded alike (demo data with BENCH_SCALE_PROFILES profiles for Acme Bank, plus the
 * bench agents) before their servers start. One machine runs everything (clients, nginx, PostgreSQL, Redis,
 * both servers): the figures compare the two set-ups here, they are not a capacity claim. Env as bench/api.ts
 * and bench/calls.ts, plus BENCH_SCALE_PORT (4620: nginx; the rest above it) and BENCH_SCALE_PROFILES (2000).
 */
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { type RunningCluster, startCluster } from '../scripts/cluster';
import { buildStudioIfStale } from '../scripts/studioBuild';
import { measure, type Row } from './api';
import { closeRaceSockets, loadRace, login, profileIds, type RaceFigures } from './calls';
import { type RollingFigures, rollingRestart } from './rolling';

const BASE_PORT = Number(process.env.BENCH_SCALE_PORT ?? 4620);
const PROFILES = Number(process.env.BENCH_SCALE_PROFILES ?? 2_000);
const AGENTS = Number(process.env.BENCH_LOAD_AGENTS ?? 50);
const CUSTOMERS = Number(process.env.BENCH_LOAD_CUSTOMERS ?? 200);
const ADMIN = { email: 'admin@acme.test', password: 'Admin@2026' };
const ROLLING_AGENTS = 3;

interface Figures {
  api: Row[];
  race: RaceFigures;
  rolling?: RollingFigures;
}

async function prepare({ databaseUrl }: { databaseUrl: string }): Promise<void> {
  execFileSync(process.execPath, ['--import', 'tsx', 'server/db/seed.ts', '--profiles', String(PROFILES)], {
    stdio: 'ignore',
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      JWT_SECRET: 'cluster-secret-that-is-long-enough-0123456789',
    },
  });
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query(
    `INSERT INTO users (company_id, email, first_name, last_name, password_hash, role)
     SELECT u.company_id, 'bench-agent-' || n || '@acme.test', 'Agent', 'No. ' || n, u.password_hash, 'User'
       FROM generate_series(1, $1::int) AS n,
            (SELECT company_id, password_hash FROM users WHERE email = 'agent@acme.test' LIMIT 1) AS u`,
    [AGENTS],
  );
  await db.query(
    `INSERT INTO users (company_id, email, first_name, last_name, password_hash, role)
     SELECT u.company_id, 'bench-roll-' || n || '@acme.test', 'Rolling', 'No. ' || n, u.password_hash, 'User'
       FROM generate_series(1, $1::int) AS n,
            (SELECT company_id, password_hash FROM users WHERE email = 'agent@acme.test' LIMIT 1) AS u`,
    [ROLLING_AGENTS],
  );
  await db.end();
}

async function run(servers: number): Promise<Figures> {
  const started = Date.now();
  console.log(`\n=== ${servers} server process${servers > 1 ? 'es' : ''} behind nginx ===`);
  let cluster: RunningCluster | undefined;
  try {
    cluster = await startCluster({
      basePort: BASE_PORT,
      servers,
      prepare,
      // The rolling restart's webhook receiver listens on loopback.
      env: { WEBHOOK_ALLOW_PRIVATE: '1' },
      log: (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${line}`),
    });
    const base = cluster.url;
    const token = await login(base, ADMIN.email, ADMIN.password);
    const targets: [string, string][] = [
      ['GET /profile?limit=20', `${base}/api/v2/profile?limit=20`],
      ['GET /profile/6', `${base}/api/v2/profile/6`],
      ['GET /profile/6/documents', `${base}/api/v2/profile/6/documents`],
    ];
    for (const [name, url] of targets) await measure(name, url, token, undefined, 2);
    const api: Row[] = [];
    for (const [name, url] of targets) {
      console.log(`${name} ...`);
      api.push(await measure(name, url, token, undefined));
    }
    const profiles = await profileIds(base, token, CUSTOMERS);
    const race = await loadRace(base, token, profiles);
    closeRaceSockets();
    if (servers < 2) return { api, race };
    console.log('rolling restart under live calls ...');
    const running = cluster;
    const names = running.servers.map((s) => s.name);
    const spare = (await profileIds(base, token, CUSTOMERS + 10)).slice(CUSTOMERS);
    const rolling = await rollingRestart({
      base,
      admin: ADMIN,
      agents: Array.from({ length: ROLLING_AGENTS }, (_, i) => ({
        email: `bench-roll-${i + 1}@acme.test`,
        password: 'User@2026',
      })),
      processes: names,
      profiles: spare,
      talking: 2,
      waiting: 4,
      restart: async (name, stopping) => {
        await running.restartServer(names.indexOf(name), stopping);
      },
      log: (line) => console.log(`  ${line}`),
    });
    return { api, race, rolling };
  } finally {
    closeRaceSockets();
    await cluster?.stop();
  }
}

async function main() {
  if (!process.argv.includes('--no-build')) buildStudioIfStale();
  const one = await run(1);
  const two = await run(2);
  console.log(
    `\nSide by side (one machine, ${PROFILES} profiles; API: autocannon per endpoint; race: ${CUSTOMERS} customers, ${AGENTS} agents)`,
  );
  const rows: Record<string, { '1 process': string | number; '2 processes': string | number }> = {};
  for (const [i, row] of one.api.entries()) {
    const other = two.api[i] as Row;
    rows[`${row.endpoint}: requests/s`] = { '1 process': row.rps, '2 processes': other.rps };
    rows[`${row.endpoint}: p95 ms`] = { '1 process': row.p95, '2 processes': other.p95 };
    rows[`${row.endpoint}: errors`] = { '1 process': row.errors, '2 processes': other.errors };
  }
  const race = (f: (r: RaceFigures) => string | number) => ({
    '1 process': f(one.race),
    '2 processes': f(two.race),
  });
  rows['race: calls answered'] = race((r) => `${r.answered} / ${r.customers}`);
  rows['race: double answers (must be 0)'] = race((r) => r.answeredTwice);
  rows['race: customers told answered twice (must be 0)'] = race((r) => r.customersToldTwice);
  rows['race: ring median / p95 ms'] = race((r) => `${r.ring.median} / ${r.ring.p95}`);
  rows['race: answer ack median / p95 ms'] = race((r) => `${r.answerAck.median} / ${r.answerAck.p95}`);
  rows['race: all waiting → all answered (s)'] = race((r) => r.raceSeconds.toFixed(2));
  rows['race: problems'] = race((r) => r.problems);
  console.table(rows);
  const rolling = two.rolling;
  if (rolling) {
    const talkingEnded = rolling.callsAfter.filter(
      (c) => rolling.talkingCalls.includes(c.id) && c.call_end_time !== null,
    ).length;
    console.log('\nRolling restart of both processes (what a user saw)');
    console.table({
      'failed requests': `${rolling.requests.failed} / ${rolling.requests.total} (${(
        (100 * rolling.requests.failed) / Math.max(1, rolling.requests.total)
      ).toFixed(2)} %)`,
      "longest pause of a talking call's signalling (ms)": rolling.longestSignalGapMs,
      'socket reconnect median / max (ms)': `${rolling.reconnect.median} / ${rolling.reconnect.max} (${rolling.reconnect.count} reconnects)`,
      'sockets that never came back (must be 0)': rolling.notReconnected,
      'talking calls ended (must be 0)': `${talkingEnded} of ${rolling.talkingCalls.length}`,
      'call ends heard by a party (must be 0)': rolling.endsHeard.length,
      'queue order kept': rolling.queueAfter.join() === rolling.queueBefore.join() ? 'yes' : 'NO',
      'upload across the restart': `${rolling.upload.status}, SHA-256 ${rolling.upload.downloadedSha256 === rolling.upload.storedSha256 ? 'matches' : 'DIFFERS'}`,
      'webhooks created / missing / doubled': `${rolling.webhooks.created} / ${rolling.webhooks.missing} / ${rolling.webhooks.duplicates}`,
    });
    for (const failure of rolling.requests.failures.slice(0, 10)) console.log(`  failed: ${failure}`);
  }
  if (one.race.answeredTwice + two.race.answeredTwice > 0) {
    console.error('A call was answered twice.');
    process.exitCode = 1;
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
