import type { Context } from '@opentelemetry/api';
import type { AgentStatus } from '#contract/common';
import type { CallEndReason } from '#contract/constants';
import { CALL_STATUS_DISCONNECTED, CALL_STATUS_TALKING, CALL_STATUS_WAITING } from '#contract/constants';
import type { AgentState, AnsweredCall, QueuedCall } from '#contract/socket';
import type { DbOrTx } from '../db/client';
import { type CallClose, closeCall, hangUpCall, missCall } from '../domain/videocalls/lifecycle';
import { toQueuedCall } from '../domain/videocalls/queue';
import { callAttributes, inSpan } from '../telemetry/spans';
import { createAgentAvailability } from './callDesk/availability';
import type { DeskContext, DeskEvent, HubServer, Result } from './callDesk/context';
import { createCallOffers } from './callDesk/offers';
import {
  availableAgents,
  callById,
  callWithName,
  openCalls,
  openRoomOf,
  talkingCallsOfAgent,
  talksInRoom,
} from './callDesk/persistence';
import { createCallQueue } from './callDesk/queue';
import { createCallRouter } from './callDesk/routing';
import { type CallTraces, createCallTraces } from './callDesk/traces';
import { agentStatusOf, agentsRoom, callRoom, customerRoom, userRoom } from './rooms';
import type { SharedDesk } from './shared';

export type { DeskEvent } from './callDesk/context';

/**
 * The live call queue of every company: which customers are connected to their waiting call, which agent is
 * in which call, and the timers that turn a customer who left into a MISSED call and an agent who left into
 * Offline. The database holds the calls and the availability; this holds presence, which only a running
 * process can know.
 *
 * It is the one path for every change of an agent's availability and of a call's state (the status menu, an
 * admin on the board, a sign-in, a socket lost past its grace period, an answer, a hang-up, a restart): each
 * persists the change and broadcasts it (`agent.status`, `call.*`, and the instant stats), so no screen keeps
 * an old value (docs/events.md).
 *
 * This file wires the desk's parts (server/realtime/callDesk/): the queue of waiting customers (queue.ts), the
 * offers of calls to agents and the answers that race for them (offers.ts), agents' availability
 * (availability.ts) and the desk's database reads (persistence.ts). What crosses them (a customer gone, a call
 * closed or hung up, a restart) is here.
 */
export interface CallDesk {
  bind(io: HubServer): void;
  /**
   * After a (re)start: calls an earlier process left waiting or talking wait for their customer to come back
   * (their place kept), and agents it left available wait for a socket, each for its grace period. The periods
   * start once the desk is bound to its socket server: nobody can come back before, and a start slower than a
   * grace period must not judge an agent or a customer gone (nor fail to, with no server to ask).
   */
  restore(): Promise<void>;
  /**
   * A customer's socket connected for its call: `join` puts it in the call's rooms before agents hear of the
   * call, and says whether the socket is still connected. Null when the call is over or not the profile's.
   */
  customerConnected(
    companyId: number,
    profileId: number,
    callId: number,
    join: (roomId: string) => Promise<boolean>,
  ): Promise<QueuedCall | null>;
  customerDisconnected(companyId: number, callId: number): void;
  /** A call was created by POST /videocall; it is MISSED if its customer never connects. */
  created(companyId: number, callId: number): void;
  /** The waiting calls whose customer is connected, oldest first. */
  queue(companyId: number): Promise<QueuedCall[]>;
  answer(companyId: number, agentId: number, callId: number): Promise<Result<{ call: AnsweredCall }>>;
  /** The trace a waiting call's answer continues (its ring's); undefined when it was not traced. */
  traceOf(callId: number): Promise<Context | undefined>;
  hangUp(companyId: number, by: { agentId: number } | { callId: number }, callId: number): Promise<Result>;
  setAgentStatus(companyId: number, userId: number, status: AgentStatus): Promise<void>;
  /** An agent's availability and call as the server holds them. */
  agentState(userId: number): Promise<AgentState>;
  /** A staff socket connected: the agent is reachable again (a pending Offline is called off). */
  agentConnected(userId: number): void;
  /** A staff socket that may take calls joined its company's agents: one-at-a-time offers may go to it now. */
  agentReachable(companyId: number): void;
  /** A staff socket went away: with no socket back within the grace period, the agent goes Offline. */
  agentDisconnected(companyId: number, userId: number): void;
  /**
   * A new sign-in of the user (studio or API client). An agent live elsewhere (a socket connected) keeps
   * their availability; otherwise the new session starts Offline (docs/product/states.md).
   */
  sessionStarted(companyId: number, userId: number): Promise<void>;
  /** The agent set the call's final status (PUT /videocall/{id}): the call is over even if nobody hung up. */
  finished(companyId: number, callId: number): Promise<void>;
  /**
   * Closes an open call (waiting or talking) with a status its agent did not set: an admin's close,
   * or the server's own when the parties are gone. False when the call was no longer open.
   */
  closeCall(companyId: number, callId: number, close: CallClose): Promise<boolean>;
  /** Whether a staff user may join the call room `room`: the agent of the call talking in it. */
  mayJoin(companyId: number, userId: number, room: string): Promise<boolean>;
  /** The room of an open (waiting or talking) call of the company; null once it is over. */
  roomOf(companyId: number, callId: number): Promise<string | null>;
  /** The talking call the agent is in (any process), if any. */
  inCall(userId: number): Promise<number | undefined>;
  /** The call an agent is in, if any. */
  callOf(agentId: number): number | undefined;
  onEvent(listener: (event: DeskEvent) => void): void;
  /** Distributed mode: takes over the waiting calls and agents of processes that died (run on a timer). */
  adoptOrphans(): Promise<void>;
  close(): void;
}

export function createCallDesk(deps: {
  db: DbOrTx;
  customerGraceMs: number;
  /** A talking customer with no socket this long has hung up (at least `customerGraceMs`). */
  talkingCustomerGraceMs: number;
  /** An agent with no socket this long goes Offline. */
  agentGraceMs: number;
  unattachedCallMs: number;
  onError: (error: unknown) => void;
  /**
   * Distributed mode (REDIS_URL): presence shared with the other processes; which agent is in which call read
   * from PostgreSQL (the arbiter of answers). Unset: one process, everything in this process's memory.
   */
  shared?: SharedDesk;
  /** One-at-a-time routing's random source (tests pass a seeded one); Math.random by default. */
  random?: () => number;
  /** Where waiting calls' traces are kept (distributed and traced: in Redis too); this process's memory by default. */
  traces?: CallTraces;
  /**
   * A call reached its end on this process, once per call: its agent set the status, its customer left before
   * an answer, or it was closed with a reason (the metrics count them).
   */
  onCallEnded?: (reason: CallEndReason | 'status_set' | 'missed') => void;
}): CallDesk {
  const shared = deps.shared;
  let io: HubServer | null = null;
  const listeners: ((event: DeskEvent) => void)[] = [];
  /** Closed with its process: what happens afterwards (sockets closing) is for the next process to judge. */
  let closed = false;
  const ctx: DeskContext = {
    db: deps.db,
    shared,
    hub() {
      if (!io) throw new Error('call desk is not bound to the socket server');
      return io;
    },
    emitDesk(event) {
      for (const listener of listeners) listener(event);
    },
    onError: deps.onError,
    isClosed: () => closed,
    traces: deps.traces ?? createCallTraces(),
  };
  const hub = ctx.hub;
  /** Grace periods `restore` found: they start once the desk is bound. */
  const restoredGraces: (() => void)[] = [];
  const startRestoredGraces = () => {
    if (io) for (const start of restoredGraces.splice(0)) start();
  };
  const queue = createCallQueue(ctx, (companyId) => offers.engagedAgents(companyId));
  const router = createCallRouter(ctx, (companyId) => offers.engagedAgents(companyId), deps.random);
  const offers = createCallOffers(ctx, queue, router);
  const availability = createAgentAvailability(ctx, {
    queue,
    offers,
    router,
    agentGraceMs: deps.agentGraceMs,
    closeCallsOf,
  });

  /** Closes the calls an agent gone for good left talking (or hung up without a status). */
  async function closeCallsOf(companyId: number, userId: number): Promise<void> {
    const open = await talkingCallsOfAgent(deps.db, userId);
    for (const call of open) {
      const customerThere =
        call.end === null && (await hub().in(customerRoom(call.id)).fetchSockets()).length > 0;
      await closeOpen(companyId, call.id, {
        status: CALL_STATUS_DISCONNECTED,
        reason: customerThere ? 'agent_left' : 'both_left',
        by: null,
      });
    }
  }

  /** Closes an open call, frees its agent, and tells its parties (the room is emptied: nobody signals in it). */
  async function closeOpen(companyId: number, callId: number, close: CallClose): Promise<boolean> {
    const closed = await closeCall(deps.db, companyId, callId, close);
    if (!closed) return false;
    deps.onCallEnded?.(close.reason);
    queue.cancel(callId);
    if (closed.agentId === null) {
      // Closed while waiting: it leaves the queue (it is not a missed call).
      await queue.left(companyId, callId);
      router.done(callId);
      hub().to(agentsRoom(companyId)).emit('call.cancelled', { call_id: callId, reason: close.reason });
      ctx.emitDesk({ kind: 'closed', companyId, callId });
      queue.reposition(companyId);
    } else {
      await offers.release(companyId, callId);
      hub().to(userRoom(closed.agentId)).emit('call.closed', {
        call_id: callId,
        status: close.status,
        reason: close.reason,
      });
    }
    hub().to(customerRoom(callId)).emit('call.ended', { call_id: callId, by: 'agent' });
    hub().in(callRoom(companyId, closed.roomId)).socketsLeave(callRoom(companyId, closed.roomId));
    return true;
  }

  /**
   * The customer's socket has been gone for a grace period. A waiting customer has left. A talking one is given
   * `talkingLeftMs` more first: a phone in a tunnel or between networks loses its socket while the call's media
   * reconnect, and its socket comes back only at its next attempt, seconds after the network does.
   */
  async function customerLeft(companyId: number, callId: number, talkingLeftMs = 0): Promise<void> {
    // A socket of the customer's that came back meanwhile (a reconnect seen before the old one's end) stays.
    if ((await hub().in(customerRoom(callId)).fetchSockets()).length > 0) return;
    // Another live process looks after it now (the customer re-joined there, and may be reconnecting).
    if (shared && (await shared.ownedElsewhere(companyId, callId))) return;
    if (talkingLeftMs > 0 && (await callById(deps.db, callId))?.status === CALL_STATUS_TALKING) {
      queue.later(callId, talkingLeftMs, () => customerLeft(companyId, callId));
      return;
    }
    await queue.left(companyId, callId);
    router.done(callId);
    if (await missCall(deps.db, callId)) {
      deps.onCallEnded?.('missed');
      hub().to(agentsRoom(companyId)).emit('call.cancelled', { call_id: callId, reason: 'customer_left' });
      ctx.emitDesk({ kind: 'missed', companyId, callId });
      queue.reposition(companyId);
      return;
    }
    // A talking call whose customer is gone for good: the customer hung up.
    const call = await callById(deps.db, callId);
    if (call?.status === CALL_STATUS_TALKING) await endCall(companyId, callId, 'customer');
  }

  /**
   * A call left talking by an earlier run is closed, with the reason. Nobody is connected: its customer hears
   * it on coming back (the call is over), its agent's studio from the status request (409 "The call is
   * already closed").
   */
  async function closeRestored(companyId: number, callId: number): Promise<void> {
    const closed = await closeCall(deps.db, companyId, callId, {
      status: CALL_STATUS_DISCONNECTED,
      reason: 'server_restart',
      by: null,
    });
    if (closed) deps.onCallEnded?.('server_restart');
  }

  /** A restored talking call (distributed): over only when its customer is connected to no live process. */
  async function restoredTalkLeft(companyId: number, callId: number): Promise<void> {
    if ((await hub().in(customerRoom(callId)).fetchSockets()).length > 0) return;
    if (shared && (await shared.ownedElsewhere(companyId, callId))) return;
    await queue.left(companyId, callId);
    // Its agent, if connected somewhere, hears the call is closed.
    await closeOpen(companyId, callId, {
      status: CALL_STATUS_DISCONNECTED,
      reason: 'server_restart',
      by: null,
    });
  }

  async function endCall(companyId: number, callId: number, by: 'agent' | 'customer'): Promise<void> {
    const ended = await hangUpCall(deps.db, callId);
    const call = await offers.release(companyId, callId);
    if (!ended) return;
    hub().to(customerRoom(callId)).emit('call.ended', { call_id: callId, by });
    if (call?.agentId) hub().to(userRoom(call.agentId)).emit('call.ended', { call_id: callId, by });
  }

  return {
    bind(server) {
      io = server;
      startRestoredGraces();
    },

    async restore() {
      const open = await openCalls(deps.db);
      for (const call of open) {
        // Distributed: a call another live process looks after is its business.
        if (shared && (await shared.ownedElsewhere(call.companyId, call.id))) continue;
        if (call.agentId !== null) {
          // Distributed: in a rolling restart its customer and agent are moving to another process right
          // now (their owner may not be marked yet); closing it at once would end a call that is still
          // talking. It is judged after the customer's grace period, as any dropped socket is.
          if (shared) {
            restoredGraces.push(() =>
              queue.later(call.id, deps.customerGraceMs, () => restoredTalkLeft(call.companyId, call.id)),
            );
            continue;
          }
          await closeRestored(call.companyId, call.id);
          continue;
        }
        restoredGraces.push(() =>
          queue.later(call.id, deps.unattachedCallMs, () => customerLeft(call.companyId, call.id)),
        );
      }
      const available = await availableAgents(deps.db);
      for (const agent of available)
        restoredGraces.push(() => availability.offlineLater(agent.companyId, agent.id));
      startRestoredGraces();
    },

    customerConnected(companyId, profileId, callId, join) {
      const attributes = callAttributes(companyId, callId);
      return inSpan('call_desk.customer_connected', { attributes }, async (span) => {
        const row = await callWithName(deps.db, callId);
        if (!row || row.call.companyId !== companyId || row.call.profileId !== profileId) return null;
        // Over: answered and hung up (the customer came back too late), or ended with a status.
        const open =
          row.call.status === CALL_STATUS_WAITING ||
          (row.call.status === CALL_STATUS_TALKING && row.call.callEndTime === null);
        if (!open) return null;
        const queued = toQueuedCall(row.call, row.name);
        // Gone while we looked the call up: its disconnect has set the timer that decides whether it left.
        if (!(await join(row.call.roomId))) return queued;
        queue.cancel(callId);
        const returning = await inSpan('call_desk.queue', { attributes }, () =>
          queue.arrived(companyId, callId),
        );
        span.setAttribute('idv.call.returning', returning);
        if (row.call.status === CALL_STATUS_WAITING && !returning)
          await offers.ring(companyId, queued, row.route);
        queue.reposition(companyId);
        return queued;
      });
    },

    customerDisconnected(companyId, callId) {
      queue.later(callId, deps.customerGraceMs, () =>
        customerLeft(companyId, callId, deps.talkingCustomerGraceMs - deps.customerGraceMs),
      );
    },

    created(companyId, callId) {
      queue.later(callId, deps.unattachedCallMs, () => customerLeft(companyId, callId));
    },

    async queue(companyId) {
      const calls = await queue.queue(companyId);
      return calls.map((call) => {
        const offer = router.offerOf(call.call_id);
        return offer === undefined ? call : { ...call, offer };
      });
    },

    answer: (companyId, agentId, callId) =>
      inSpan(
        'call_desk.answer',
        { attributes: { ...callAttributes(companyId, callId), 'idv.agent_id': agentId } },
        async (span) => {
          const answered = await offers.answer(companyId, agentId, callId);
          span.setAttribute('idv.answer', answered.ok ? 'taken' : answered.detail);
          if (answered.ok) ctx.traces.forget(callId);
          return answered;
        },
      ),

    traceOf: (callId) => ctx.traces.of(callId),

    async hangUp(companyId, by, callId) {
      const current =
        'agentId' in by
          ? shared
            ? await offers.callOfAgent(by.agentId)
            : offers.callOf(by.agentId)
          : callId;
      if (current !== callId) return { ok: false, detail: 'Not your call' };
      if ('callId' in by && by.callId !== callId) return { ok: false, detail: 'Not your call' };
      await endCall(companyId, callId, 'agentId' in by ? 'agent' : 'customer');
      return { ok: true };
    },

    setAgentStatus: availability.change,

    agentState: offers.agentState,

    agentConnected: availability.cancelOffline,

    agentReachable: router.settle,

    agentDisconnected(companyId, userId) {
      availability.offlineLater(companyId, userId);
      router.settle(companyId);
    },

    async sessionStarted(companyId, userId) {
      if (await availability.hasSocket(userId)) return;
      // What the grace timer would do, now: with no socket, the agent's calls end (a sign-in that only called
      // the timer off left a call talking for good) and they start Offline.
      availability.cancelOffline(userId);
      await closeCallsOf(companyId, userId);
      if ((await agentStatusOf(deps.db, userId)) !== 'Offline')
        await availability.change(companyId, userId, 'Offline');
    },

    async finished(companyId, callId) {
      deps.onCallEnded?.('status_set');
      await offers.release(companyId, callId);
      // The status can arrive before the hang-up (sent over a socket that was reconnecting): the customer
      // hears the call is over either way.
      hub().to(customerRoom(callId)).emit('call.ended', { call_id: callId, by: 'agent' });
    },

    callOf: offers.callOf,

    closeCall: closeOpen,

    mayJoin: (companyId, userId, room) => talksInRoom(deps.db, companyId, userId, room),

    roomOf: (companyId, callId) => openRoomOf(deps.db, companyId, callId),

    inCall: offers.callOfAgent,

    onEvent(listener) {
      listeners.push(listener);
    },

    async adoptOrphans() {
      if (!shared || closed) return;
      await shared.heartbeat();
      const { calls, deadProcesses } = await shared.adoptOrphans();
      // Their customers had the grace period to re-join elsewhere; those who did are owned there by now.
      for (const call of calls)
        queue.later(call.callId, deps.customerGraceMs, () => customerLeft(call.companyId, call.callId));
      if (deadProcesses.length === 0) return;
      // Agents whose sockets were on a dead process: Offline unless they come back within their grace.
      const available = await availableAgents(deps.db);
      for (const agent of available)
        if (!availability.offlinePending(agent.id)) availability.offlineLater(agent.companyId, agent.id);
    },

    close() {
      closed = true;
      queue.close();
      router.close();
      availability.close();
      offers.close();
      ctx.traces.close();
    },
  };
}
