/**
 * `npm run bench:webhooks`: the webhook delivery engine against a receiver on loopback.
 *
 *   throughput  1,000 events queued in the database while no worker runs (server stopped), then the server
 *               starts: deliveries per second from the first arrival to the last (all 1,000 must arrive,
 *               each once; this is also the restart case: nothing queued is lost).
 *   delay       BENCH_WEBHOOK_ACTIONS (200) real actions (POST /profile, a few at a time): the time from
 *               sending the request to the receiver getting its `profile.created` delivery; median and p95.
 *
 * The server is a child process on PGlite in a temporary folder, with WEBHOOK_ALLOW_PRIVATE=1 (the
 * receiver is on loopback). The receiver answers 200 at once. Nothing is asserted: figures only.
 *
 * BENCH_WEBHOOKS_POSTGRES=1: on PostgreSQL instead, a throw-away server from Debian's postgresql package
 * (tests/server/throwawayPostgres.ts), one fresh database per server tree, stopped and removed afterwards.
 *
 * Before and after in one run (bench/baseline.ts): the same driver against the server of BENCH_BASELINE_REV
 * (default: the revision whose worker polled and sent one delivery per statement group) and against the
 * working tree's, each with the machine's load beside its figures; BENCH_ROUNDS=N measures both N times in turns,
 * the order swapped each round, a row each.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase } from '../server/db/client';
import { enqueueWebhookEvent } from '../server/domain/webhooks';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../tests/server/throwawayPostgres';
import { inTurns, machineLoad, runIn, type ServerTree, serverTrees } from './baseline';
import { cpuSeconds, freePort, percentile, postgresCpuSeconds, stop, waitForServer } from './support';

/** The last revision whose worker polled (the "before" of docs/decisions/0227-events-not-polls.md). */
const BEFORE_REV = '97b46bc';

const QUEUED = Number(process.env.BENCH_WEBHOOK_QUEUED ?? 1_000);
const ACTIONS = Number(process.env.BENCH_WEBHOOK_ACTIONS ?? 200);
const CONCURRENCY = 4;
const ON_POSTGRES = process.env.BENCH_WEBHOOKS_POSTGRES === '1';
/** BENCH_ROUNDS: with a baseline, measure both sides this many times in turns, the order swapped each round (1). */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));

const arrivals = new Map<string, number>();
const byProfile = new Map<number, number>();
let duplicates = 0;
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = performance.now();
    const id = String(req.headers['webhook-id']);
    if (arrivals.has(id)) duplicates++;
    else arrivals.set(id, at);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      type: string;
      data: { profile_id?: number };
    };
    if (body.type === 'profile.created' && body.data.profile_id) byProfile.set(body.data.profile_id, at);
    res.writeHead(200).end('ok');
  });
});

interface Figures {
  label: string;
  delivered: string;
  throughput: string;
  fromStart: string;
  action: string;
  answer: string;
  afterAnswer: string;
  /** Server CPU ms an action (with PostgreSQL's processes on PostgreSQL), until its delivery was in. */
  cpu: string;
  load: string;
}

async function main() {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const trees = serverTrees(BEFORE_REV);
  const figures: Figures[] = [];
  const postgres = ON_POSTGRES ? await startThrowawayPostgres() : undefined;
  try {
    for (const {
      side: [n, tree],
      round,
    } of inTurns([...trees.entries()], ROUNDS)) {
      const label = ROUNDS > 1 ? `${tree.label}, round ${round}` : tree.label;
      console.log(`Webhooks, ${label}: ${machineLoad()} ...`);
      const databaseUrl = postgres && (await freshDatabase(postgres, `bench_${n}_${round}`));
      figures.push({ ...(await measure(tree, receiverUrl, databaseUrl)), label });
    }
  } finally {
    postgres?.stop();
    for (const tree of trees) tree.remove();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
  console.log(
    `\nWebhooks on ${ON_POSTGRES ? 'PostgreSQL' : 'PGlite'}: ${QUEUED} queued events, then ${ACTIONS} actions ${CONCURRENCY} at a time (${machineLoad()}; ` +
      'the machine is shared with other work, so its load varies between the runs)',
  );
  console.table(
    Object.fromEntries(
      figures.map((f) => [
        f.label,
        {
          'queued delivered (dup.)': f.delivered,
          'deliveries/s': f.throughput,
          'last arrival from start ms': f.fromStart,
          'action → receiver p50 / p95 / max ms': f.action,
          'action answered p50 / p95 ms': f.answer,
          'answer → receiver p50 / p95 ms': f.afterAnswer,
          'server CPU ms an action': f.cpu,
          'load at start': f.load,
        },
      ]),
    ),
  );
}

/**
 * The server whose worker is measured; with BENCH_CPU_PROF=<folder> it writes a CPU profile there when it stops
 * (`--cpu-prof` is not allowed in NODE_OPTIONS, so the arguments are given here).
 */
function withWorker(tree: ServerTree, env: NodeJS.ProcessEnv): ChildProcess {
  const folder = process.env.BENCH_CPU_PROF;
  if (!folder) return runIn(tree, ['server/main.ts'], env);
  return spawn(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-dir=${folder}`, '--import', 'tsx', 'server/main.ts'],
    {
      cwd: tree.dir,
      env: { ...process.env, ...env },
      stdio: ['ignore', process.env.BENCH_SERVER_LOG === '1' ? 'inherit' : 'ignore', 'inherit'],
    },
  );
}

/** An empty database of its own on the throw-away server: the URL a server tree seeds and runs on. */
async function freshDatabase(postgres: ThrowawayPostgres, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: postgres.databaseUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return postgres.databaseUrl.replace(/\/postgres$/, `/${name}`);
}

/** One run against one server tree: its own data (PGlite, or `databaseUrl`), server and receiver counts. */
async function measure(tree: ServerTree, receiverUrl: string, databaseUrl?: string): Promise<Figures> {
  arrivals.clear();
  byProfile.clear();
  duplicates = 0;
  const load = machineLoad().replace(/^load average /, '');
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-bench-webhooks-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    DATA_DIR: dataDir,
    STUDIO_DIST: join(dataDir, 'no-studio'),
    PORT: String(port),
    HOST: '127.0.0.1',
    JWT_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    LOGIN_LIMIT_PER_ACCOUNT: '1000',
    LOGIN_LIMIT_PER_ADDRESS: '1000',
    WEBHOOK_ALLOW_PRIVATE: '1',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  let server: ChildProcess | undefined;
  try {
    // 1. A seeded server without a worker: sign in, add the endpoint (every event).
    server = runIn(tree, ['server/main.ts'], { ...env, WEBHOOK_WORKER: '0' });
    await waitForServer(base, server);
    const login = (await (
      await fetch(`${base}/api/v1/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'admin@acme.test', password: 'Admin@2026' }),
      })
    ).json()) as { access: string; company_id: number };
    const auth = { authorization: `Bearer ${login.access}`, 'content-type': 'application/json' };
    const created = await fetch(`${base}/api/v2/webhook_endpoint`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ url: receiverUrl, enabled_events: [] }),
    });
    if (created.status !== 201) throw new Error(`endpoint: ${created.status} ${await created.text()}`);
    const ours = ((await created.json()) as { id: number }).id;
    // The demo endpoints point at hooks.example.com (unreachable here): off, so only ours is measured.
    const all = (await (await fetch(`${base}/api/v2/webhook_endpoint`, { headers: auth })).json()) as {
      id: number;
    }[];
    for (const { id } of all.filter((e) => e.id !== ours)) {
      await fetch(`${base}/api/v2/webhook_endpoint/${id}`, {
        method: 'PATCH',
        headers: auth,
        body: JSON.stringify({ is_active: false }),
      });
    }
    await stop(server);

    // 2. 1,000 events queued while no server runs (as the domain's write paths do).
    const database = await openDatabase({ databaseUrl, pgliteDir: join(dataDir, 'pg') });
    await database.db.transaction(async (tx) => {
      for (let i = 0; i < QUEUED; i++) {
        await enqueueWebhookEvent(tx, login.company_id, 'profile.status_changed', { profile_id: 1, n: i });
      }
    });
    await database.close();

    // 3. The server with its worker: time until every queued event has arrived.
    const started = performance.now();
    server = withWorker(tree, env);
    await waitForServer(base, server);
    const deadline = Date.now() + 300_000;
    while (arrivals.size < QUEUED && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const times = [...arrivals.values()].sort((a, b) => a - b);
    const first = times[0] ?? started;
    const last = times.at(-1) ?? started;
    const queuedArrived = arrivals.size;
    const throughput = (queuedArrived - 1) / ((last - first) / 1000);
    // 4. Delay from a real action to the receiver, and the CPU the server (and PostgreSQL) spent for the actions
    // until their deliveries were in.
    const cpuBefore = cpuSeconds(server.pid) + (databaseUrl ? postgresCpuSeconds() : 0);
    const sentAt = new Map<number, number>();
    const answeredAt = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      while (next < ACTIONS) {
        const n = next++;
        const t0 = performance.now();
        const response = await fetch(`${base}/api/v2/profile`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ id_card_number: `BENCH-WH-${n}`, name: 'Bench Webhook', gender: 'F' }),
        });
        const profile = (await response.json()) as { id: number };
        sentAt.set(profile.id, t0);
        answeredAt.set(profile.id, performance.now());
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const waitUntil = Date.now() + 60_000;
    while ([...sentAt.keys()].some((id) => !byProfile.has(id)) && Date.now() < waitUntil) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const cpuMs = (cpuSeconds(server.pid) + (databaseUrl ? postgresCpuSeconds() : 0) - cpuBefore) * 1000;
    const delays = [...sentAt.entries()]
      .filter(([id]) => byProfile.has(id))
      .map(([id, t0]) => (byProfile.get(id) as number) - t0)
      .sort((a, b) => a - b);
    // The request's own time, and what the delivery adds after its answer (a delivery may even arrive first).
    const answers = [...sentAt.entries()]
      .map(([id, t0]) => (answeredAt.get(id) as number) - t0)
      .sort((a, b) => a - b);
    const afterAnswer = [...answeredAt.entries()]
      .filter(([id]) => byProfile.has(id))
      .map(([id, t1]) => (byProfile.get(id) as number) - t1)
      .sort((a, b) => a - b);
    return {
      label: tree.label,
      delivered: `${queuedArrived} of ${QUEUED} (${duplicates})`,
      throughput: throughput.toFixed(0),
      fromStart: (last - started).toFixed(0),
      action:
        `${percentile(delays, 50).toFixed(0)} / ${percentile(delays, 95).toFixed(0)} / ` +
        `${(delays.at(-1) ?? Number.NaN).toFixed(0)} (${delays.length} of ${ACTIONS})`,
      answer: `${percentile(answers, 50).toFixed(0)} / ${percentile(answers, 95).toFixed(0)}`,
      afterAnswer: `${percentile(afterAnswer, 50).toFixed(0)} / ${percentile(afterAnswer, 95).toFixed(0)}`,
      cpu: (cpuMs / ACTIONS).toFixed(2),
      load,
    };
  } finally {
    await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
