/**
 * `npm run bench:queue`, also the queue section of `npm run bench:volume`: thousands of
 * customers waiting on one server process, sockets only (socket.io-client, no browser).
 *
 * Seeds the demo data with enough Acme Bank profiles for the largest queue and BENCH_QUEUE_AGENTS (50) agents
 * `bench-agent-<n>@acme.test` into a fresh PGlite, starts `server/main.ts` (one process) and signs the agents in,
 * Online, one socket each. Then for each size of BENCH_QUEUE_SIZES (200,1000,5000), twice: the company ringing
 * every free agent (`ring_all`), then offering each call to one agent at a time (`one_at_a_time`, 120 s offers):
 *
 *   fill   the customers join, 10 at a time, while the agents only listen. A join is what a customer's page does:
 *          a join link (POST /profile/url, staff), the call (POST /videocall, the link's token) and its socket
 *          connected. Timed per customer; the first and the last tenth of the joins apart, so a join's cost as
 *          the queue grows shows. Join → ring: the socket's connect starting → the first agent socket hearing
 *          `call.incoming` for it (ring_all: every join rings; one_at_a_time: only the calls offered while
 *          agents are free: the first offers'). Memory: the server's resident set
 *          (/proc/<pid>/status VmRSS) after the fill minus before it, per waiting customer.
 *   race   every free agent asks for the oldest call it heard of (`call.answer`); a winner hangs up after
 *          20–50 ms, sets status 3 (PUT /videocall/{id}) and asks again, until every call is answered. Answer
 *          attempts per call = answers sent ÷ calls; the acknowledgement's p50/p95; calls answered twice
 *          (must be 0).
 *
 * Env: BENCH_QUEUE_SIZES (200,1000,5000), BENCH_QUEUE_AGENTS (50). Nothing is asserted. The targets: from
 * 200 to 5,000 waiting the time per join grows by less than 2×, join → ring p95 under 300 ms at 5,000; one at a
 * time, join → ring p95 under 150 ms at 2,000 (docs/decisions/0227-events-not-polls.md,
 * docs/decisions/0232-routing-counts-in-memory.md).
 *
 * `npm run bench:queue` runs both routings against the server of BENCH_BASELINE_REV (bench/baseline.ts; default:
 * the revision whose routing counted the last hour's calls in the database on every pass) and then against the
 * working tree's, and prints them in one table with the machine's load. Both servers run the same sequence:
 * ringing everyone first answers 2,000 calls, so one at a time then chooses among agents with a full last hour.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { machineLoad, runIn, type ServerTree, serverTrees } from './baseline';
import {
  addAgents,
  api,
  type ClientSocket,
  connected,
  customerCall,
  loadAverage,
  login,
  type OnlineAgent,
  onlineAgent,
  pool,
  profileIds,
  type Spread,
  socketOf,
  spread,
} from './calls';
import { benchServerEnv, finished, freePort, stop, waitForServer } from './support';

/**
 * The last revision whose routing passes counted each agent's calls of the last hour in the database (the
 * "before").
 */
const BEFORE_REV = 'afa9ec8';

const SIZES = (process.env.BENCH_QUEUE_SIZES ?? '200,1000,5000').split(',').map(Number);
const AGENTS = Number(process.env.BENCH_QUEUE_AGENTS ?? 50);
const JOINING_AT_ONCE = 10;
const ADMIN = { email: 'admin@acme.test', password: 'Admin@2026' };
const AGENT_PASSWORD = 'User@2026';

type Routing = 'ring_all' | 'one_at_a_time';

export interface QueueFigures {
  /** Which server: `before (<rev>)` or `after (working tree)`. */
  server: string;
  /** The machine's load average (1, 5, 15 minutes) as the run started. */
  load: string;
  size: number;
  routing: Routing;
  /** One customer's join (link, call, socket connected), ms. */
  join: Spread;
  /** Median join of the first and of the last tenth of the fill, ms. */
  joinFirstTenth: number;
  joinLastTenth: number;
  /** The fill's wall time ÷ customers, ms (10 joining at a time). */
  fillPerJoin: number;
  ring: Spread;
  memoryPerCustomerKb: number;
  answerAck: Spread;
  attemptsPerCall: number;
  answeredTwice: number;
  raceSeconds: number;
}

interface Agent extends OnlineAgent {
  heard: Set<number>;
  busy: boolean;
  asking: boolean;
}

/** The resident set of a process, in kB (Linux). */
function residentKb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.replace(/\D+/g, '') ?? Number.NaN);
}

const median = (values: number[]) => spread(values).median;

/** One fill and one race at `size` waiting customers under `routing`. */
async function queueRun(
  base: string,
  server: ChildProcess,
  adminToken: string,
  agents: Agent[],
  profiles: number[],
  routing: Routing,
  label: string,
): Promise<QueueFigures> {
  const load = loadAverage();
  await api(base, adminToken, 'PUT', '/api/v2/call_routing', { call_routing: routing, offer_seconds: 120 });
  const size = profiles.length;
  const connectingAt = new Map<number, number>();
  const ringAt = new Map<number, number>();
  const wins = new Map<number, number>();
  const acks: number[] = [];
  let attempts = 0;
  let racing = false;
  let talking = 0;
  let everyCallAnswered: () => void = () => undefined;
  const answeredAll = new Promise<void>((resolve) => {
    everyCallAnswered = resolve;
  });
  let quiet: () => void = () => undefined;

  const tryAnswer = async (agent: Agent): Promise<void> => {
    while (racing && !agent.busy && !agent.asking) {
      const [callId] = agent.heard;
      if (callId === undefined) return;
      agent.asking = true;
      attempts++;
      const started = performance.now();
      const reply = await agent.socket.timeout(60_000).emitWithAck('call.answer', { call_id: callId });
      acks.push(performance.now() - started);
      agent.asking = false;
      agent.heard.delete(callId);
      if (!reply.ok) continue;
      wins.set(callId, (wins.get(callId) ?? 0) + 1);
      if (wins.size === size) everyCallAnswered();
      agent.busy = true;
      talking++;
      setTimeout(() => void talk(agent, callId), 20 + Math.random() * 30);
    }
  };
  const talk = async (agent: Agent, callId: number) => {
    await agent.socket.timeout(60_000).emitWithAck('call.hangup', { call_id: callId });
    await api(base, agent.token, 'PUT', `/api/v2/videocall/${callId}`, { status: 3 });
    agent.busy = false;
    talking--;
    if (talking === 0 && wins.size === size) quiet();
    void tryAnswer(agent);
  };
  for (const agent of agents) {
    agent.heard.clear();
    agent.socket.off('call.incoming').off('call.taken').off('call.cancelled').off('call.offer');
    agent.socket.on('call.incoming', (call) => {
      // Join → ring is the fill's: in the race, one at a time offers calls that waited for a free agent.
      if (!racing && !ringAt.has(call.call_id)) ringAt.set(call.call_id, performance.now());
      agent.heard.add(call.call_id);
      void tryAnswer(agent);
    });
    agent.socket.on('call.taken', (event) => agent.heard.delete(event.call_id));
    agent.socket.on('call.cancelled', (event) => agent.heard.delete(event.call_id));
    // One at a time: an offer that went to another agent is not this agent's to answer any more.
    agent.socket.on('call.offer', (call) => {
      if (call.offer?.agent_id !== agent.id) agent.heard.delete(call.call_id);
    });
  }

  const residentBefore = residentKb(server.pid as number);
  const joins: number[] = [];
  const customers: ClientSocket[] = [];
  const fillStarted = performance.now();
  await pool(profiles, JOINING_AT_ONCE, async (profile, index) => {
    const started = performance.now();
    const call = await customerCall(base, adminToken, profile);
    const socket = socketOf(base, { customer: call.token, call_id: call.callId }, (s) => {
      s.on('call.ended', () => s.disconnect());
    });
    customers.push(socket);
    connectingAt.set(call.callId, performance.now());
    await connected(socket);
    joins[index] = performance.now() - started;
  });
  const fillMs = performance.now() - fillStarted;
  // The rings and announcements of the last joins land first.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const residentAfter = residentKb(server.pid as number);

  const raceStarted = performance.now();
  racing = true;
  for (const agent of agents) void tryAnswer(agent);
  await answeredAll;
  const raceSeconds = (performance.now() - raceStarted) / 1000;
  await new Promise<void>((resolve) => {
    quiet = resolve;
    if (talking === 0) resolve();
  });
  racing = false;
  for (const socket of customers) socket.disconnect();

  const tenth = Math.max(1, Math.floor(size / 10));
  const rings = [...connectingAt].flatMap(([id, at]) => {
    const heardAt = ringAt.get(id);
    return heardAt === undefined ? [] : [heardAt - at];
  });
  return {
    server: label,
    load,
    size,
    routing,
    join: spread(joins),
    joinFirstTenth: median(joins.slice(0, tenth)),
    joinLastTenth: median(joins.slice(-tenth)),
    fillPerJoin: Math.round((fillMs / size) * 10) / 10,
    ring: spread(rings),
    memoryPerCustomerKb: Math.round(((residentAfter - residentBefore) / size) * 10) / 10,
    answerAck: spread(acks),
    attemptsPerCall: Math.round((attempts / size) * 10) / 10,
    answeredTwice: [...wins.values()].filter((n) => n > 1).length,
    raceSeconds: Math.round(raceSeconds * 10) / 10,
  };
}

/** Prints the figures of every run as one table. */
export function printQueueFigures(figures: QueueFigures[]): void {
  const ms = (s: Spread) => `${s.median} / ${s.p95}`;
  console.table(
    Object.fromEntries(
      figures.map((f) => [
        `${f.size} waiting, ${f.routing}, ${f.server}`,
        {
          'join p50 / p95 ms': ms(f.join),
          'join first → last tenth ms': `${f.joinFirstTenth} → ${f.joinLastTenth}`,
          'fill ms per join': f.fillPerJoin,
          'join → ring p50 / p95 ms': `${ms(f.ring)} (${f.ring.n})`,
          'memory kB per waiting': f.memoryPerCustomerKb,
          'answer ack p50 / p95 ms': ms(f.answerAck),
          'answers per call': f.attemptsPerCall,
          'answered twice': f.answeredTwice,
          'race s': f.raceSeconds,
          'load at start': f.load,
        },
      ]),
    ),
  );
}

/**
 * The whole queue section: its own server and data, every size under both routings. Returns the figures (and
 * prints them); the server and data are gone afterwards.
 */
export async function queueSection(
  sizes: number[] = SIZES,
  agentCount = AGENTS,
  tree: ServerTree = { label: 'working tree', dir: process.cwd(), remove: () => undefined },
  routings: readonly Routing[] = ['ring_all', 'one_at_a_time'],
  print = true,
): Promise<QueueFigures[]> {
  const largest = Math.max(...sizes);
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-bench-queue-'));
  let server: ChildProcess | undefined;
  const agents: Agent[] = [];
  try {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = benchServerEnv(dataDir, port);
    console.log(`Queue: seeding ${largest} profiles and ${agentCount} agents ...`);
    const seeded = await finished(
      runIn(tree, ['server/db/seed.ts', '--profiles', String(largest + 10)], env),
    );
    if (seeded !== 0) throw new Error(`seed failed (${seeded})`);
    await addAgents(dataDir, agentCount);
    server = runIn(tree, ['server/main.ts'], env);
    await waitForServer(base, server);
    const adminToken = await login(base, ADMIN.email, ADMIN.password);
    const profiles = await profileIds(base, adminToken, largest);
    await pool(
      Array.from({ length: agentCount }, (_, i) => `bench-agent-${i + 1}@acme.test`),
      4,
      async (email) => {
        agents.push({
          ...(await onlineAgent(base, email, AGENT_PASSWORD)),
          heard: new Set(),
          busy: false,
          asking: false,
        });
      },
    );
    const figures: QueueFigures[] = [];
    for (const size of sizes) {
      for (const routing of routings) {
        console.log(
          `Queue, ${tree.label}: ${size} customers, ${routing} (load average ${loadAverage()}) ...`,
        );
        figures.push(
          await queueRun(base, server, adminToken, agents, profiles.slice(0, size), routing, tree.label),
        );
      }
    }
    if (print) {
      console.log(
        `\nQueue on one process (${agentCount} agents Online, customers joining ${JOINING_AT_ONCE} at a time, sockets only; ` +
          `load average now ${loadAverage()})`,
      );
      printQueueFigures(figures);
    }
    return figures;
  } finally {
    for (const agent of agents) agent.socket.disconnect();
    await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Before and after: both routings on the earlier revision's server, then on the working tree's. The same
 * sequence on both, so one at a time meets the same database (the calls ringing everyone answered) in each.
 */
async function beforeAndAfter(): Promise<void> {
  const trees = serverTrees(BEFORE_REV);
  const figures: QueueFigures[] = [];
  try {
    for (const tree of trees)
      figures.push(...(await queueSection(SIZES, AGENTS, tree, ['ring_all', 'one_at_a_time'], false)));
  } finally {
    for (const tree of trees) tree.remove();
  }
  console.log(
    `\nQueue on one process (${AGENTS} agents Online, customers joining ${JOINING_AT_ONCE} at a time, sockets only; ` +
      `${machineLoad()} at the end; the machine is shared with other work, so its load varies between the runs)`,
  );
  printQueueFigures(figures.sort((a, b) => a.size - b.size || a.routing.localeCompare(b.routing)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  beforeAndAfter()
    .then(() => process.exit(0))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
