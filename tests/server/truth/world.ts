/**
 * The world of the realtime truth test: the real server (restartable on the same database and port), studio
 * tabs made of the studio's own socket layer, machines and wiring (`connectRealtime`, `agentAvailability`,
 * `callDesk`, `wireDesk`), and customers holding the join page's socket. `mismatches` compares what every
 * connected tab holds with what the server holds.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { io as ioClient, type Socket } from 'socket.io-client';
import { type ActorRefFrom, createActor, fromCallback, fromPromise } from 'xstate';
import { CALL_STATUS_TALKING, CALL_STATUS_WAITING } from '#contract/constants';
import {
  type ClientToServerEvents,
  CUSTOMER_NOT_CONNECTED,
  type InstantStats,
  type QueuedCall,
  type ServerToClientEvents,
} from '#contract/socket';
import { buildApp } from '../../../server/app';
import { hashPassword } from '../../../server/auth/passwords';
import type { ServerConfig } from '../../../server/config';
import type { Database } from '../../../server/db/client';
import { companies, profiles, users, videoCalls } from '../../../server/db/schema';
import { createInstantStats } from '../../../server/realtime/instantStats';
import { agentAvailabilityMachine } from '../../../src/machines/agentAvailability.machine';
import {
  callMachine,
  type HeldCall,
  type SessionCommand,
  type SessionReport,
} from '../../../src/machines/call.machine';
import { callDeskMachine } from '../../../src/machines/callDesk.machine';
import { connectRealtime, type Realtime } from '../../../src/services/socket';
import { wireDesk } from '../../../src/ui/app/realtime/wireDesk';
import { openTestDatabase } from '../helpers';
import { testConfig } from '../testConfig';

export const COMPANY = 1;
export const PASSWORD = 'Truth@2026';
export const ADMIN = { email: 'admin@acme.test', password: 'Admin@2026' };
const HOST = '127.0.0.1';

/** The server's `detail` in an error body, if it has one. */
function detailOf(text: string): string | null {
  try {
    const body: unknown = JSON.parse(text);
    return typeof body === 'object' && body !== null && 'detail' in body ? String(body.detail) : null;
  } catch {
    return null;
  }
}

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface Agent {
  id: number;
  email: string;
  password: string;
}

/** One studio tab of an agent (or of the admin, who supervises and takes calls too). */
export interface Tab {
  id: number;
  agent: Agent;
  realtime: Realtime;
  availability: ActorRefFrom<typeof agentAvailabilityMachine>;
  desk: ActorRefFrom<typeof callDeskMachine>;
  socket: () => ClientSocket | null;
  /** Refusals and failures the tab showed (the call machine's notices). */
  notices: string[];
  close(): void;
  closed: boolean;
}

export interface Customer {
  id: number;
  profile: number;
  callId: number;
  socket: ClientSocket;
  /** The customer closed the page (hung up and left). */
  left: boolean;
  /** The server told the customer the call is over. */
  ended: boolean;
  answered: boolean;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `probe` finds nothing wrong; throws the last findings after `ms`. */
export async function eventually(probe: () => Promise<string[]>, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  let last: string[] = [];
  for (;;) {
    last = await probe();
    if (last.length === 0) return;
    if (Date.now() > until) throw new Error(`${what} not within ${ms} ms:\n  ${last.join('\n  ')}`);
    await sleep(10);
  }
}

export class World {
  app!: FastifyInstance;
  port = 0;
  tabs: Tab[] = [];
  customers: Customer[] = [];
  agents: Agent[] = [];
  profileIds: number[] = [];
  /** Successful answers, call id → tab ids (must never hold two). */
  answers = new Map<number, number[]>();
  /** The company routes calls one agent at a time: only the agent offered a call rings. */
  oneAtATime = false;
  private adminToken = '';
  private nextId = 1;

  private constructor(
    readonly config: ServerConfig,
    readonly database: Database,
    private readonly dataDir: string,
  ) {}

  static async create(calls: ServerConfig['calls'], agentCount: number): Promise<World> {
    const dataDir = mkdtempSync(join(tmpdir(), 'idv-truth-'));
    // The test apps' configuration: every customer comes from one address, so its calls-per-address limit is
    // off (at the default 30 calls an hour a world that had not restarted for 30 joins was refused with a 429).
    const config: ServerConfig = {
      ...testConfig(dataDir),
      loginRateLimit: { perAccount: 1_000_000, perAddress: 1_000_000, timeWindowMs: 60_000 },
      calls,
    };
    // A copy of the run's seeded template, as the test apps start on (a fresh one when run without it).
    const database = await openTestDatabase(dataDir, config, {});
    const world = new World(config, database, dataDir);
    await world.start();
    const passwordHash = await hashPassword(PASSWORD, config.argon2);
    const made = await database.db
      .insert(users)
      .values(
        Array.from({ length: agentCount }, (_, i) => ({
          companyId: COMPANY,
          email: `truth${i}@acme.test`,
          firstName: 'Truth',
          lastName: `Agent ${i}`,
          passwordHash,
          role: 'User',
        })),
      )
      .returning({ id: users.id, email: users.email });
    const [admin] = await database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, ADMIN.email));
    world.agents = [
      ...made.map((row) => ({ id: row.id, email: row.email, password: PASSWORD })),
      { id: admin?.id ?? 0, email: ADMIN.email, password: ADMIN.password },
    ];
    world.profileIds = (
      await database.db
        .select({ id: profiles.id })
        .from(profiles)
        .where(eq(profiles.companyId, COMPANY))
        .limit(40)
    ).map((row) => row.id);
    return world;
  }

  get url() {
    return `http://${HOST}:${this.port}`;
  }

  private async start() {
    this.app = await buildApp(this.config, { database: this.database });
    await this.app.listen({ port: this.port, host: HOST });
    this.port = (this.app.server.address() as AddressInfo).port;
  }

  /** Stops the server and starts a new one on the same database and port, as a process restart would. */
  async restart() {
    await this.app.close();
    await this.start();
  }

  async http<T>(method: string, path: string, token: string | null, body?: unknown): Promise<T> {
    const send = () =>
      fetch(`${this.url}${path}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    // A kept-alive connection to the process before a restart fails once; the request never reached it.
    const response = await send().catch(send);
    const text = await response.text();
    if (!response.ok) {
      // Shaped like the studio's ApiError: its machines read the server's `detail` (e.g. "The call is already
      // closed" after a restart closed it).
      const error = new Error(`${method} ${path}: ${response.status} ${text}`);
      throw Object.assign(error, { status: response.status, detail: detailOf(text) });
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** A sign-in of the login host (a studio tab's, or any API client's). */
  async signIn(agent: Agent): Promise<string> {
    const reply = await this.http<{ access: string }>('POST', '/api/v1/login/', null, {
      username: agent.email,
      password: agent.password,
    });
    return reply.access;
  }

  private async admin(): Promise<string> {
    if (!this.adminToken) this.adminToken = await this.signIn(this.agents.at(-1) as Agent);
    return this.adminToken;
  }

  /** An admin on the agent board sets another agent's availability (refused while the agent is in a call). */
  async adminSets(agent: Agent, status: string) {
    await this.http('POST', '/api/v2/videocall/agent_status', await this.admin(), {
      status,
      user: agent.id,
    }).catch((error: Error) => {
      if (!error.message.includes('409')) throw error;
    });
  }

  /** An admin closes a talking call: its agent's tab must end it, the agent be free again. */
  async adminCloses(callId: number) {
    await this.http('POST', `/api/v2/videocall/${callId}/close`, await this.admin(), {
      status: 8,
      reason: 'Closed by the truth test',
    }).catch((error: Error) => {
      // Closed or ended meanwhile.
      if (!error.message.includes('409')) throw error;
    });
  }

  /** Signs in and opens the studio: the socket layer, the machines and their wiring, as the shell does. */
  async openTab(agent: Agent): Promise<Tab> {
    const access = await this.signIn(agent);
    let socket: ClientSocket | null = null;
    const realtime = connectRealtime({
      server: this.url,
      socketToken: async () =>
        (await this.http<{ token: string }>('POST', '/api/v2/user/socket_token', access, { studio: true }))
          .token,
      connect: ((uri: string, options: object) => {
        socket = ioClient(uri, { ...options, reconnectionDelay: 50, reconnectionDelayMax: 250 });
        return socket;
      }) as unknown as typeof ioClient,
      retryBaseMs: 50,
    });
    const notices: string[] = [];
    const session = fromCallback<SessionCommand, { call: QueuedCall; room: string }>(
      ({ sendBack, receive }) => {
        // No camera here: the recording is "closed" at once when the call stops.
        receive((command) => {
          if (command.type === 'SESSION.STOP')
            sendBack({ type: 'RECORDING.READY', kept: false } as SessionReport);
        });
        return () => undefined;
      },
    );
    const call = callMachine.provide({
      actors: {
        answer: fromPromise(({ input }) => realtime.answer(input.callId)),
        session,
        saveStatus: fromPromise(({ input }) =>
          this.http('PUT', `/api/v2/videocall/${input.callId}`, access, { status: input.status }),
        ),
        checkCall: fromPromise(({ input }) =>
          this.http<HeldCall>('GET', `/api/v2/videocall/${input.callId}`, access),
        ),
      },
      actions: {
        hangUp: (_, callId) => void realtime.hangUp(callId).catch(() => undefined),
        notifyTaken: () => notices.push('Call Already Answered'),
        notifyCustomerAway: () => notices.push(CUSTOMER_NOT_CONNECTED),
        notifyFailed: (_, detail) => notices.push(detail ?? 'failed'),
      },
    });
    const availability = createActor(
      agentAvailabilityMachine.provide({
        actors: {
          setStatus: fromPromise(({ input }) =>
            this.http<{ status: never }>('POST', '/api/v2/videocall/agent_status', access, {
              status: input.status,
            }),
          ),
        },
        actions: { notifyFailed: (_, error) => notices.push(String(error)) },
      }),
    );
    const desk = createActor(callDeskMachine.provide({ actors: { call } }), { input: { agentId: agent.id } });
    const stop = wireDesk({ realtime, availability, desk }, agent.id, () => undefined);
    const tab: Tab = {
      id: this.nextId++,
      agent,
      realtime,
      availability,
      desk,
      socket: () => socket,
      notices,
      closed: false,
      close() {
        if (tab.closed) return;
        tab.closed = true;
        stop();
      },
    };
    this.tabs.push(tab);
    return tab;
  }

  /** A customer opens the join link: the call is created and the page's socket connects (it reconnects). */
  async customerJoins(profile: number): Promise<Customer> {
    const { token } = await this.http<{ token: string }>('POST', '/api/v2/profile/url', await this.admin(), {
      profile,
    });
    const call = await this.http<{ id: number }>('POST', '/api/v2/videocall', token, { profile, status: 0 });
    const socket: ClientSocket = ioClient(this.url, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: { customer: token, call_id: call.id },
      reconnectionDelay: 50,
      reconnectionDelayMax: 250,
    });
    const customer: Customer = {
      id: this.nextId++,
      profile,
      callId: call.id,
      socket,
      left: false,
      ended: false,
      answered: false,
    };
    socket.on('call.ended', () => {
      customer.ended = true;
    });
    socket.on('call.answered', () => {
      customer.answered = true;
    });
    this.customers.push(customer);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return customer;
  }

  /** The customer hangs up and closes the page. */
  customerLeaves(customer: Customer) {
    customer.left = true;
    customer.socket.emit('call.hangup', { call_id: customer.callId }, () => undefined);
    setTimeout(() => customer.socket.disconnect(), 20);
  }

  openTabs() {
    return this.tabs.filter((tab) => !tab.closed);
  }

  /** A tab whose socket is up and which knows it. */
  static isConnected(tab: Tab) {
    return (
      !tab.closed && tab.socket()?.connected === true && tab.availability.getSnapshot().context.connected
    );
  }

  /** The company's call routing, as an Admin would set it (the offer may be shorter than the API allows). */
  async setRouting(oneAtATime: boolean, offerSeconds = 15) {
    await this.app.ctx.db
      .update(companies)
      .set({ callRouting: oneAtATime ? 'one_at_a_time' : 'ring_all', offerSeconds })
      .where(eq(companies.id, COMPANY));
    this.oneAtATime = oneAtATime;
  }

  /** A call's row as the server stored it. */
  async call(callId: number) {
    const [row] = await this.app.ctx.db.select().from(videoCalls).where(eq(videoCalls.id, callId));
    return row;
  }

  /** Where each connected tab differs from the server (empty when every screen shows the truth). */
  async mismatches(): Promise<string[]> {
    const { ctx } = this.app;
    const found: string[] = [];
    const waiting = await ctx.calls.queue(COMPANY);
    const queue = waiting.map((call) => call.call_id);
    const statuses = new Map(
      (
        await ctx.db
          .select({ id: users.id, status: users.agentStatus })
          .from(users)
          .where(
            inArray(
              users.id,
              this.agents.map((a) => a.id),
            ),
          )
      ).map((row) => [row.id, row.status]),
    );
    const connected = this.openTabs().filter(World.isConnected);
    for (const tab of connected) {
      if (!World.isConnected(tab)) continue;
      const who = `tab ${tab.id} (${tab.agent.email})`;
      const { status, callId } = tab.availability.getSnapshot().context;
      const serverStatus = statuses.get(tab.agent.id);
      const serverCall = ctx.calls.callOf(tab.agent.id) ?? null;
      if (status !== serverStatus) found.push(`${who} shows ${status}, the server holds ${serverStatus}`);
      if (callId !== serverCall)
        found.push(`${who} thinks it is in call ${callId}, the server says ${serverCall}`);
      const desk = tab.desk.getSnapshot().context;
      const shownQueue = desk.queue.map((call) => call.call_id);
      if (shownQueue.join() !== queue.join()) found.push(`${who} queue [${shownQueue}], server [${queue}]`);
      const current = desk.call?.getSnapshot();
      const active = current?.status === 'active';
      const ringing = active && current.hasTag('ringing') ? current.context.call.call_id : null;
      // Offered: a waiting call rings a tab whose agent the server holds Online and free, unless the tab is
      // busy with its own call (answering, or the wrap-up after a hang-up).
      const offered = serverStatus === 'Online' && serverCall === null && !(active && ringing === null);
      if (this.oneAtATime) {
        found.push(...offerMismatches(who, tab.agent.id, waiting, ringing, offered));
        continue;
      }
      if (!offered && ringing !== null)
        found.push(`${who} rings call ${ringing} but the server does not offer it calls`);
      if (offered && ringing === null && queue.length > 0)
        found.push(`${who} rings nothing while calls [${queue}] wait for it`);
      if (ringing !== null && !queue.includes(ringing))
        found.push(`${who} rings call ${ringing}, which is not waiting`);
    }
    if (found.length > 0 || connected.length === 0) return found;
    // The instant stats and the agent board, against a rebuild from the database (the dearest probe: last).
    const truth = JSON.stringify(await freshStats(this));
    for (const tab of connected) {
      const stats = tab.realtime.latestStats();
      const shown = JSON.stringify(stats && comparable(stats));
      if (shown !== truth) found.push(`tab ${tab.id} stats ${shown}\n    server ${truth}`);
    }
    return found;
  }

  /**
   * One-at-a-time routing: no waiting call is offered to nobody while an agent the server holds free, with a
   * connected tab, holds no offer (someone free must be offered it).
   */
  async idleWhileOffered(): Promise<string[]> {
    if (!this.oneAtATime) return [];
    const { ctx } = this.app;
    const waiting = await ctx.calls.queue(COMPANY);
    const unoffered = waiting.filter((call) => call.offer === null).map((call) => call.call_id);
    if (unoffered.length === 0) return [];
    const holding = new Set(waiting.flatMap((call) => (call.offer ? [call.offer.agent_id] : [])));
    const found: string[] = [];
    for (const agent of this.agents) {
      const tabs = this.openTabs().filter((tab) => tab.agent === agent && World.isConnected(tab));
      if (tabs.length === 0 || holding.has(agent.id) || ctx.calls.callOf(agent.id) !== undefined) continue;
      const [row] = await ctx.db
        .select({ status: users.agentStatus })
        .from(users)
        .where(eq(users.id, agent.id));
      if (row?.status === 'Online')
        found.push(`calls [${unoffered}] are offered to nobody while ${agent.email} is free`);
    }
    return found;
  }

  /** No call answered twice; no customer who is still there lost (their call waits in the queue or talks). */
  async lostOrDoubled(): Promise<string[]> {
    const found: string[] = [];
    for (const [callId, tabs] of this.answers)
      if (tabs.length > 1) found.push(`call ${callId} answered by tabs ${tabs.join(', ')}`);
    const present = this.customers.filter((c) => !c.left && !c.ended && c.socket.connected);
    if (present.length === 0) return found;
    const rows = await this.app.ctx.db
      .select({ id: videoCalls.id, status: videoCalls.status, end: videoCalls.callEndTime })
      .from(videoCalls)
      .where(
        inArray(
          videoCalls.id,
          present.map((c) => c.callId),
        ),
      );
    const queue = new Set((await this.app.ctx.calls.queue(COMPANY)).map((call) => call.call_id));
    for (const customer of present) {
      const row = rows.find((r) => r.id === customer.callId);
      const waiting = row?.status === CALL_STATUS_WAITING;
      if (waiting && !queue.has(customer.callId))
        found.push(`customer of call ${customer.callId} waits but is not in the queue`);
      if (!waiting && !(row?.status === 1 && row.end === null))
        found.push(`customer of call ${customer.callId} is still there but the call is ${row?.status}`);
    }
    return found;
  }

  /** Everybody leaves; the server settles (customers gone, agents Offline) before the next sequence. */
  async clear() {
    for (const tab of this.tabs) tab.close();
    for (const customer of this.customers) customer.socket.disconnect();
    this.tabs = [];
    this.customers = [];
    this.answers.clear();
    const { ctx } = this.app;
    await eventually(
      async () => {
        const open = await ctx.db
          .select({ id: videoCalls.id })
          .from(videoCalls)
          .where(and(eq(videoCalls.companyId, COMPANY), eq(videoCalls.status, CALL_STATUS_WAITING)));
        // With its agent and customer gone past their grace periods, no call is left talking (nor
        // hung up without a status).
        const talking = await ctx.db
          .select({ id: videoCalls.id })
          .from(videoCalls)
          .where(and(eq(videoCalls.companyId, COMPANY), eq(videoCalls.status, CALL_STATUS_TALKING)));
        const available = await ctx.db
          .select({ id: users.id, status: users.agentStatus })
          .from(users)
          .where(eq(users.companyId, COMPANY));
        return [
          ...open.map((call) => `call ${call.id} still waiting`),
          ...talking.map((call) => `call ${call.id} left talking`),
          ...available.filter((u) => u.status !== 'Offline').map((u) => `user ${u.id} still ${u.status}`),
          ...this.agents.filter((a) => ctx.calls.callOf(a.id) !== undefined).map((a) => `agent ${a.id} busy`),
        ];
      },
      this.config.calls.unattachedCallMs + 3_000,
      'the server settling after everyone left',
    );
  }

  async close() {
    await this.clear().catch(() => undefined);
    await this.app.close();
    await this.database.close();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/** The stats as a screen compares them (the snapshot's own time left out). */
function comparable(stats: InstantStats) {
  const { at: _at, ...rest } = stats;
  return rest;
}

/** The instant stats rebuilt from the database and the desk's presence, as a fresh process would. */
async function freshStats(world: World) {
  const { ctx } = world.app;
  const store = createInstantStats({
    db: ctx.db,
    waiting: (companyId) => ctx.calls.queue(companyId),
    push: () => undefined,
    onError: () => undefined,
  });
  return comparable(await store.current(COMPANY, world.agents[0]?.id ?? 0));
}

/**
 * One-at-a-time routing's truth for one tab: it rings only the call the server offers its agent, and it rings
 * that call when its agent is free to take it.
 */
function offerMismatches(
  who: string,
  agentId: number,
  waiting: QueuedCall[],
  ringing: number | null,
  free: boolean,
): string[] {
  const mine = waiting.filter((call) => call.offer?.agent_id === agentId).map((call) => call.call_id);
  const found: string[] = [];
  if (mine.length > 1) found.push(`${who}'s agent is offered calls [${mine}] at once`);
  if (ringing !== null && !mine.includes(ringing))
    found.push(`${who} rings call ${ringing}, which the server does not offer its agent (offered [${mine}])`);
  if (free && ringing === null && mine.length > 0)
    found.push(`${who} rings nothing while call ${mine[0]} is offered to its agent`);
  return found;
}
