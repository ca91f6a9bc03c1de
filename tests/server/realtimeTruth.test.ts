/**
 * The realtime truth test: random sequences of what agents, an admin and customers do — sign-ins in
 * a studio tab or from an API client, status changes by the agent and by the admin, customers joining,
 * dropping and leaving, answer races, hang-ups with the wrap-up, socket drops and reconnects, server restarts —
 * against the real server, through the studio's own socket layer and machines. After every step, every
 * connected tab must show what the server holds (availability, the call it is in, the queue, the ringing call,
 * the instant stats and the agent board) within 1 s, no call may be answered twice, and no customer who is
 * still there may be lost. fast-check shrinks a failing sequence and prints it.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { waitFor } from 'xstate';
import { AGENT_STATUSES, CALL_STATUS_DISCONNECTED } from '#contract/constants';
import { CUSTOMER_NOT_CONNECTED } from '#contract/socket';
import { type Agent, eventually, type Tab, World } from './truth/world';

/** Sequences per CI run (TRUTH_RUNS raises it for a longer local search). */
const RUNS = Number(process.env.TRUTH_RUNS ?? 300);
const AGENTS = 3;
/**
 * How long every screen may take to show what the server holds. Generous: a passing step waits only as long as
 * it takes; on a loaded 2-core CI machine (other test workers, a build) a step took over 1 s to settle.
 */
const CONVERGE_MS = 5_000;
/**
 * How long the tabs and customers may take to be back after a restart: every socket's handshake waits on the new
 * process's first queries at once (took over 5 s on a 2-core machine under a load of 24).
 */
const RECONNECT_MS = 15_000;
/**
 * Replays a counterexample fast-check printed: TRUTH_SEED, TRUTH_PATH and TRUTH_REPLAY (its seed, path and the
 * replayPath in the comment after the steps).
 */
const replay = process.env.TRUTH_SEED
  ? { seed: Number(process.env.TRUTH_SEED), path: process.env.TRUTH_PATH, endOnFailure: true }
  : {};
/**
 * The refusals of an answer race (one-at-a-time: the offer moved on while the agent clicked; a customer who
 * dropped and is within their grace period).
 */
const ALLOWED_REFUSALS = new Set([
  'Call Already Answered',
  CUSTOMER_NOT_CONNECTED,
  'You are already in a call',
  'This call is offered to another agent',
]);
/** One-at-a-time sequences per run, and the offer (short, so offers lapse within a sequence). */
const ONE_AT_A_TIME_RUNS = Math.max(1, Math.round(RUNS / 5));
const OFFER_SECONDS = 2;

type Model = { world: World };
type Command = fc.AsyncCommand<Model, World>;

const pick = <T>(items: T[], index: number): T | undefined =>
  items.length === 0 ? undefined : items[index % items.length];

function callOf(tab: Tab) {
  const snapshot = tab.desk.getSnapshot().context.call?.getSnapshot();
  return snapshot?.status === 'active' ? snapshot : undefined;
}
const isRinging = (tab: Tab) => callOf(tab)?.hasTag('ringing') === true;
const inOwnCall = (tab: Tab) => {
  const call = callOf(tab);
  return call !== undefined && !call.hasTag('ringing');
};

/** What every step is checked against. */
async function truthHolds(world: World) {
  await eventually(
    async () => [
      ...(await world.mismatches()),
      ...(await world.lostOrDoubled()),
      ...(await world.idleWhileOffered()),
    ],
    CONVERGE_MS,
    'every screen showing what the server holds',
  );
}

/** How many steps of each kind ran (printed at the end, so a reader sees what the sequences exercised). */
const tally = new Map<string, number>();

abstract class Step implements Command {
  check(_: Readonly<Model>) {
    return true;
  }
  abstract act(world: World): Promise<void>;
  async run(_: Model, world: World) {
    tally.set(this.constructor.name, (tally.get(this.constructor.name) ?? 0) + 1);
    await this.act(world);
    await truthHolds(world);
  }
  abstract toString(): string;
}

class OpenTab extends Step {
  constructor(
    readonly agent: number,
    readonly goOnline: boolean,
  ) {
    super();
  }
  override check({ world }: Readonly<Model>) {
    return world.openTabs().filter((t) => t.agent === world.agents[this.agent]).length < 2;
  }
  async act(world: World) {
    const tab = await world.openTab(world.agents[this.agent] as Agent);
    // What the agent sees before acting: the studio connected and showing the server's status.
    await eventually(
      async () =>
        World.isConnected(tab) && tab.availability.getSnapshot().matches('known') ? [] : ['opening'],
      10_000,
      'the studio opening',
    );
    if (!this.goOnline) return;
    tab.availability.send({ type: 'STATUS.SET', status: 'Online' });
    await waitFor(tab.availability, (s) => !s.hasTag('busy'), { timeout: 5_000 });
  }
  toString() {
    return `agent ${this.agent} signs in and opens the studio${this.goOnline ? ', then goes Online' : ''}`;
  }
}

class ApiSignIn extends Step {
  constructor(readonly agent: number) {
    super();
  }
  async act(world: World) {
    await world.signIn(world.agents[this.agent] as Agent);
  }
  toString() {
    return `agent ${this.agent} signs in again from an API client`;
  }
}

class CloseTab extends Step {
  constructor(readonly tab: number) {
    super();
  }
  override check({ world }: Readonly<Model>) {
    return world.openTabs().length > 0;
  }
  async act(world: World) {
    pick(world.openTabs(), this.tab)?.close();
  }
  toString() {
    return `open tab #${this.tab} is closed`;
  }
}

class SetOwnStatus extends Step {
  constructor(
    readonly tab: number,
    readonly status: (typeof AGENT_STATUSES)[number],
  ) {
    super();
  }
  override check({ world }: Readonly<Model>) {
    return world.openTabs().some(World.isConnected);
  }
  async act(world: World) {
    const tab = pick(world.openTabs().filter(World.isConnected), this.tab);
    if (!tab) return;
    await waitFor(tab.availability, (s) => s.matches('known'), { timeout: 5_000 });
    tab.availability.send({ type: 'STATUS.SET', status: this.status });
    await waitFor(tab.availability, (s) => !s.hasTag('busy'), { timeout: 5_000 });
  }
  toString() {
    return `connected tab #${this.tab} sets its status to ${this.status}`;
  }
}

class AdminSets extends Step {
  constructor(
    readonly agent: number,
    readonly status: (typeof AGENT_STATUSES)[number],
  ) {
    super();
  }
  async act(world: World) {
    await world.adminSets(world.agents[this.agent] as Agent, this.status);
  }
  toString() {
    return `the admin sets agent ${this.agent} to ${this.status} on the board`;
  }
}

class CustomerJoins extends Step {
  constructor(readonly profile: number) {
    super();
  }
  override check({ world }: Readonly<Model>) {
    return world.customers.filter((c) => !c.left).length < 6;
  }
  async act(world: World) {
    await world.customerJoins(pick(world.profileIds, this.profile) as number);
  }
  toString() {
    return `a customer of profile #${this.profile} joins the queue`;
  }
}

class CustomerLeaves extends Step {
  constructor(readonly customer: number) {
    super();
  }
  override check({ world }: Readonly<Model>) {
    return world.customers.some((c) => !c.left);
  }
  async act(world: World) {
    const customer = pick(
      world.customers.filter((c) => !c.left),
      this.customer,
    );
    if (customer) world.customerLeaves(customer);
  }
  toString() {
    return `customer #${this.customer} hangs up and leaves`;
  }
}

class CustomerDrops extends Step {
  constructor(readonly customer: number) {
    super();
  }
  override check({ world }: Readonly<Model>) {
    return world.customers.some((c) => !c.left && c.socket.connected);
  }
  async act(world: World) {
    const customer = pick(
      world.customers.filter((c) => !c.left && c.socket.connected),
      this.customer,
    );
    customer?.socket.io.engine.close();
  }
  toString() {
    return `customer #${this.customer}'s connection drops (it reconnects)`;
  }
}

class AnswerRace extends Step {
  constructor(readonly who: number) {
    super();
  }
  override check({ world }: Readonly<Model>) {
    return world.openTabs().some(isRinging);
  }
  async act(world: World) {
    const ringing = world.openTabs().filter(isRinging);
    // A non-empty subset of the ringing tabs answers at the same moment.
    const racing = ringing.filter((_, i) => (this.who >> i) & 1);
    const answering = racing.length > 0 ? racing : ringing.slice(0, 1);
    const before = new Map(answering.map((tab) => [tab, tab.notices.length]));
    for (const tab of answering) tab.desk.getSnapshot().context.call?.send({ type: 'ANSWER' });
    for (const tab of answering) {
      const call = tab.desk.getSnapshot().context.call;
      if (call)
        await waitFor(call, (s) => s.status !== 'active' || !s.matches('answering'), { timeout: 5_000 });
      const live = callOf(tab);
      if (live?.hasTag('live')) {
        const callId = live.context.call.call_id;
        world.answers.set(callId, [...(world.answers.get(callId) ?? []), tab.id]);
      }
      for (const notice of tab.notices.slice(before.get(tab)))
        if (!ALLOWED_REFUSALS.has(notice)) throw new Error(`tab ${tab.id} was refused: "${notice}"`);
    }
  }
  toString() {
    return `ringing tabs (mask ${this.who}) answer at once`;
  }
}

class FinishCall extends Step {
  constructor(readonly tab: number) {
    super();
  }
  override check({ world }: Readonly<Model>) {
    return world.openTabs().some(inOwnCall);
  }
  async act(world: World) {
    const tab = pick(world.openTabs().filter(inOwnCall), this.tab);
    const call = tab?.desk.getSnapshot().context.call;
    if (!call) return;
    if (call.getSnapshot().hasTag('live')) call.send({ type: 'HANG_UP' });
    await waitFor(call, (s) => s.status !== 'active' || s.matches('ending'), { timeout: 5_000 });
    call.send({ type: 'STATUS.PICK', status: 3 });
    call.send({ type: 'STATUS.SAVE' });
    await waitFor(call, (s) => s.status !== 'active', { timeout: 5_000 });
  }
  toString() {
    return `in-call tab #${this.tab} hangs up and saves COMPLETE`;
  }
}

/** An admin closes a call its agent is in; the tab ends it (no status to pick), the agent is free. */
class AdminClosesCall extends Step {
  constructor(readonly tab: number) {
    super();
  }
  override check({ world }: Readonly<Model>) {
    return world.openTabs().some(inOwnCall);
  }
  async act(world: World) {
    const tab = pick(world.openTabs().filter(inOwnCall), this.tab);
    const call = tab?.desk.getSnapshot().context.call;
    if (!call) return;
    await world.adminCloses(call.getSnapshot().context.call.call_id);
    if (tab && World.isConnected(tab))
      await waitFor(call, (s) => s.status !== 'active' || s.matches('ending'), { timeout: 5_000 });
  }
  toString() {
    return `the admin closes the call of in-call tab #${this.tab}`;
  }
}

class DropSocket extends Step {
  constructor(readonly tab: number) {
    super();
  }
  override check({ world }: Readonly<Model>) {
    return world.openTabs().some(World.isConnected);
  }
  async act(world: World) {
    pick(world.openTabs().filter(World.isConnected), this.tab)?.socket()?.io.engine.close();
  }
  toString() {
    return `connected tab #${this.tab}'s connection drops (it reconnects)`;
  }
}

class Restart extends Step {
  async act(world: World) {
    await world.restart();
    // The tabs and customers reconnect by themselves; the check starts once they are back.
    await eventually(
      async () => [
        ...world
          .openTabs()
          .filter((tab) => !World.isConnected(tab))
          .map(
            (tab) =>
              `tab ${tab.id} not back (socket connected ${tab.socket()?.connected}, active ${tab.socket()?.active}, ` +
              `machine connected ${tab.availability.getSnapshot().context.connected})`,
          ),
        ...world.customers
          .filter((c) => !c.left && !c.ended && !c.socket.connected)
          .map((c) => `customer of call ${c.callId} not back (active ${c.socket.active})`),
      ],
      RECONNECT_MS,
      'reconnecting after the restart',
    );
  }
  toString() {
    return 'the server restarts';
  }
}

const agent = fc.nat({ max: AGENTS });
const index = fc.nat({ max: 7 });
const status = fc.constantFrom(...AGENT_STATUSES);
/** Online is what makes calls ring: chosen more often than the others. */
const statusMostlyOnline = fc.oneof(fc.constant('Online' as const), status);

/** fc.commands draws each entry alike: the likelier steps are listed more than once. */
const times = <T>(n: number, arbitrary: fc.Arbitrary<T>) => Array.from({ length: n }, () => arbitrary);
const commands = [
  ...times(
    2,
    fc.tuple(agent, fc.boolean()).map(([a, online]) => new OpenTab(a, online)),
  ),
  agent.map((a) => new ApiSignIn(a)),
  index.map((i) => new CloseTab(i)),
  ...times(
    2,
    fc.tuple(index, statusMostlyOnline).map(([i, s]) => new SetOwnStatus(i, s)),
  ),
  fc.tuple(agent, status).map(([a, s]) => new AdminSets(a, s)),
  ...times(
    3,
    index.map((i) => new CustomerJoins(i)),
  ),
  index.map((i) => new CustomerLeaves(i)),
  index.map((i) => new CustomerDrops(i)),
  ...times(
    4,
    fc.nat({ max: 15 }).map((m) => new AnswerRace(m)),
  ),
  ...times(
    3,
    index.map((i) => new FinishCall(i)),
  ),
  index.map((i) => new AdminClosesCall(i)),
  index.map((i) => new DropSocket(i)),
  fc.constant(new Restart()),
];

/**
 * Worlds run side by side, each a server and a database of its own, the runs shared between them: a sequence
 * spends most of its time waiting (grace periods, reconnections, convergence), and two overlap those waits.
 * A replayed counterexample (TRUTH_SEED) runs in one.
 */
const WORLDS = replay.seed === undefined ? Number(process.env.TRUTH_WORLDS ?? 2) : 1;
let worlds: World[] = [];
/** The first world: the named sequences run in it. */
let world: World;

beforeAll(async () => {
  worlds = await Promise.all(
    Array.from({ length: WORLDS }, () =>
      World.create(
        {
          joinLinkTtlSeconds: 3600,
          customerGraceMs: 100,
          talkingCustomerGraceMs: 100,
          agentGraceMs: 200,
          unattachedCallMs: 1_500,
          maxRecordingBytes: 1024,
          // Every step is checked against the stats the screens show: at the server's 250 ms a step waited for
          // the paced push (about 150 ms of each) when the step before it was closer than that.
          statsEveryMs: 20,
        },
        AGENTS,
      ),
    ),
  );
  world = worlds[0] as World;
  // A fresh database is migrated and seeded: slow on a loaded machine.
}, 180_000);
afterAll(async () => {
  console.info(`truth test steps run: ${JSON.stringify(Object.fromEntries(tally))}`);
  await Promise.all(worlds.map((w) => w.close()));
});

/** This world's share of `runs`. */
const shareOf = (runs: number, index: number) => Math.floor(runs / WORLDS) + (index < runs % WORLDS ? 1 : 0);

/**
 * `runs` random sequences over the worlds: some agents are at their desks, Online, when a sequence starts (so
 * calls ring from the first step); at its end everyone leaves, and the server must settle (no call left
 * waiting, every agent Offline and free).
 */
async function randomSequences(runs: number) {
  // Every world runs to its end, so a failure in one is not reported while the other still uses the servers.
  const outcomes = await Promise.allSettled(
    worlds.map((w, index) =>
      fc.assert(
        fc.asyncProperty(
          fc.subarray([0, 1, 2, AGENTS]),
          fc.commands(commands, { maxCommands: 14, size: 'max', replayPath: process.env.TRUTH_REPLAY }),
          async (atDesks, steps) => {
            try {
              await fc.asyncModelRun(async () => {
                for (const a of atDesks) await new OpenTab(a, true).run({ world: w }, w);
                return { model: { world: w }, real: w };
              }, steps);
            } finally {
              await w.clear();
            }
          },
        ),
        { numRuns: shareOf(runs, index), ...replay },
      ),
    ),
  );
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
}

describe('realtime truth', () => {
  it(
    `every screen shows what the server holds, over ${RUNS} random sequences`,
    {
      timeout: 900_000,
    },
    () => randomSequences(RUNS),
  );
});

/**
 * The same random sequences with the company routing calls one agent at a time, with offers
 * short enough to lapse within a sequence. Besides all of the above, every tab rings only the call the server
 * offers its agent (and rings it when free), no agent is offered two calls at once, and no call is offered to
 * nobody while an agent is free.
 */
describe('realtime truth, one agent at a time', () => {
  it(`every screen shows what the server holds, over ${ONE_AT_A_TIME_RUNS} random sequences`, {
    timeout: 900_000,
  }, async () => {
    await Promise.all(worlds.map((w) => w.setRouting(true, OFFER_SECONDS)));
    try {
      await randomSequences(ONE_AT_A_TIME_RUNS);
    } finally {
      await Promise.all(worlds.map((w) => w.setRouting(false)));
    }
  });
});

/**
 * As named sequences (the random search above meets them too, but not every run): a call's
 * agent gone, both its people gone, and a restart while it talks. Each must end the call with its reason, free
 * the agent and leave every screen showing what the server holds.
 */
describe('no call left talking', () => {
  const answered = (agentIndex: number): Step[] => [
    new OpenTab(agentIndex, true),
    new CustomerJoins(0),
    new AnswerRace(1),
  ];
  const sequences: [string, Step[], string][] = [
    ["the agent's studio is gone", [...answered(0), new CloseTab(0)], 'agent_left'],
    [
      // The sign-in sets the agent Offline at once (a new session starts Offline): the pending close of the
      // call must happen then, not be called off with the grace timer.
      "the agent's studio is gone, then they sign in from an API client within the grace period",
      [...answered(0), new CloseTab(0), new ApiSignIn(0)],
      'agent_left',
    ],
    [
      'the customer leaves, then the studio is gone',
      [...answered(0), new CustomerLeaves(0), new CloseTab(0)],
      'both_left',
    ],
    [
      'the server restarts mid-call (the tab learns it on coming back)',
      [...answered(3), new Restart()],
      'server_restart',
    ],
  ];
  for (const [name, steps, reason] of sequences)
    it(`${name}: the call ends with "${reason}"`, { timeout: 60_000 }, async () => {
      const model = { world };
      try {
        for (const step of steps) {
          if (!step.check(model)) throw new Error(`cannot run "${step}" here`);
          await step.run(model, world);
        }
        const callId = world.customers[0]?.callId as number;
        await eventually(
          async () => {
            const row = await world.call(callId);
            return row?.status === CALL_STATUS_DISCONNECTED && row.endReason === reason
              ? []
              : [`call ${callId} is ${row?.status} (${row?.endReason})`];
          },
          5_000,
          `the call ending with ${reason}`,
        );
        // The agent's tab shows the call over (it is not left in a call the server closed).
        await eventually(
          async () =>
            world
              .openTabs()
              .filter(inOwnCall)
              .map((tab) => `tab ${tab.id} still in its call`),
          5_000,
          'the tab ending the call',
        );
        await truthHolds(world);
      } finally {
        await world.clear();
      }
    });
});
