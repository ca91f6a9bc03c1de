import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
import type { Server } from 'socket.io';
import type { AgentStatus } from '#contract/common';
import {
  CALL_STATUS_DISCONNECTED,
  CALL_STATUS_TALKING,
  CALL_STATUS_WAITING,
  type CallEndReason,
} from '#contract/constants';
import type {
  AgentState,
  AnsweredCall,
  ClientToServerEvents,
  QueuedCall,
  ServerToClientEvents,
  SocketData,
} from '#contract/socket';
import type { DbOrTx } from '../db/client';
import { profiles, users, videoCalls } from '../db/schema';
import { fullName } from '../domain/format';
import {
  answerCall,
  answerCallAlone,
  averageHandlingSeconds,
  closeCall,
  hangUpCall,
  missCall,
  toQueuedCall,
  waitingCalls,
} from '../domain/videocalls';
import { expectedWaitSeconds } from './queueEstimate';
import {
  agentStatusOf,
  agentsRoom,
  callRoom,
  companyRoom,
  customerRoom,
  setAgentStatus,
  userRoom,
} from './rooms';
import type { SharedDesk } from './shared';

type HubServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export const CALL_ALREADY_ANSWERED = 'Call Already Answered';
export const MUST_BE_ONLINE = 'Set your status to Online to answer';
export const ALREADY_IN_CALL = 'You are already in a call';

type Result<T extends object = object> = ({ ok: true } & T) | { ok: false; detail: string };

/** What the desk tells the world about; the instant stats listen here. */
export type DeskEvent =
  | { kind: 'queued'; companyId: number; callId: number; since: string }
  | { kind: 'answered'; companyId: number; callId: number; agentId: number; since: string }
  | { kind: 'missed'; companyId: number; callId: number }
  /** A waiting call closed by an admin (not missed: it leaves the queue only). */
  | { kind: 'closed'; companyId: number; callId: number }
  | {
      kind: 'ended';
      companyId: number;
      callId: number;
      agentId: number | null;
      seconds: number | null;
      /** When the agent became free (their "time in state" restarts), if known. */
      since: string | null;
    }
  | { kind: 'agent'; companyId: number; userId: number; status: AgentStatus; since: string };

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
 */
export interface CallDesk {
  bind(io: HubServer): void;
  /**
   * After a (re)start: calls an earlier process left waiting or talking wait for their customer to come back
   * (their place kept), and agents it left available wait for a socket, each for its grace period.
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
  hangUp(companyId: number, by: { agentId: number } | { callId: number }, callId: number): Promise<Result>;
  setAgentStatus(companyId: number, userId: number, status: AgentStatus): Promise<void>;
  /** An agent's availability and call as the server holds them. */
  agentState(userId: number): Promise<AgentState>;
  /** A staff socket connected: the agent is reachable again (a pending Offline is called off). */
  agentConnected(userId: number): void;
  /** A staff socket went away: with no socket back within the grace period, the agent goes Offline. */
  agentDisconnected(companyId: number, userId: number): void;
  /**
   * A new sign-in of the user (studio or API client). An agent live elsewhere (a socket connected) keeps
   * their availability; otherwise the new session starts Offline (§4).
   */
  sessionStarted(companyId: number, userId: number): Promise<void>;
  /** The agent set the call's final status (PUT /videocall/{id}): the call is over even if nobody hung up. */
  finished(companyId: number, callId: number): Promise<void>;
  /**
   * Closes an open call (waiting or talking) with a status its agent did not set (issue 25): an admin's close,
   * or the server's own when the parties are gone. False when the call was no longer open.
   */
  closeCall(
    companyId: number,
    callId: number,
    close: { status: number; reason: CallEndReason; by: number | null; note?: string },
  ): Promise<boolean>;
  /** Whether a staff user may join the call room `room`: the agent of the call talking in it (issue 25). */
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
  /** An agent with no socket this long goes Offline. */
  agentGraceMs: number;
  unattachedCallMs: number;
  onError: (error: unknown) => void;
  /**
   * Distributed mode (REDIS_URL): presence shared with the other processes; which agent is in which call read
   * from PostgreSQL (the arbiter of answers). Unset: one process, everything in this process's memory.
   */
  shared?: SharedDesk;
}): CallDesk {
  const shared = deps.shared;
  let io: HubServer | null = null;
  /** Calls whose customer socket is connected: call id → company id. */
  const present = new Map<number, number>();
  /** Calls waiting for their customer to (re)connect. */
  const timers = new Map<number, NodeJS.Timeout>();
  /** agent id → call id */
  const busy = new Map<number, number>();
  /** Agents with no socket, waiting for their grace period to end. */
  const offlineTimers = new Map<number, NodeJS.Timeout>();
  /** Calls this process saw answered: a late answer is refused without asking the database. */
  const taken = new Set<number>();
  /** Companies whose waiting customers are told their place at the end of this tick. */
  const positionsDue = new Set<number>();
  const listeners: ((event: DeskEvent) => void)[] = [];
  const emitDesk = (event: DeskEvent) => {
    for (const listener of listeners) listener(event);
  };
  const hub = () => {
    if (!io) throw new Error('call desk is not bound to the socket server');
    return io;
  };

  /** Closed with its process: what happens afterwards (sockets closing) is for the next process to judge. */
  let closed = false;

  function later(callId: number, ms: number, run: () => Promise<void>) {
    if (closed) return;
    clearTimeout(timers.get(callId));
    timers.set(
      callId,
      setTimeout(() => {
        timers.delete(callId);
        run().catch(deps.onError);
      }, ms),
    );
  }

  /** The call an agent is in: this process's memory, or (distributed) the database. */
  async function callOfAgent(userId: number): Promise<number | undefined> {
    if (!shared) return busy.get(userId);
    const [row] = await deps.db
      .select({ id: videoCalls.id })
      .from(videoCalls)
      .where(
        and(
          eq(videoCalls.agentId, userId),
          eq(videoCalls.status, CALL_STATUS_TALKING),
          isNull(videoCalls.callEndTime),
        ),
      )
      .limit(1);
    return row?.id ?? busy.get(userId);
  }

  /** Agents of the company in a call, from the database (distributed). */
  async function busyAgents(companyId: number): Promise<Set<number>> {
    const rows = await deps.db
      .select({ agent: videoCalls.agentId })
      .from(videoCalls)
      .where(
        and(
          eq(videoCalls.companyId, companyId),
          eq(videoCalls.status, CALL_STATUS_TALKING),
          isNull(videoCalls.callEndTime),
        ),
      );
    return new Set([...rows.flatMap((r) => (r.agent === null ? [] : [r.agent])), ...busy.keys()]);
  }

  async function agentState(userId: number): Promise<AgentState> {
    return {
      user_id: userId,
      status: await agentStatusOf(deps.db, userId),
      call_id: (shared ? await callOfAgent(userId) : busy.get(userId)) ?? null,
    };
  }

  /** Tells the company an agent's availability and call as they are now. */
  async function publishAgent(companyId: number, userId: number): Promise<void> {
    hub()
      .to(companyRoom(companyId))
      .emit('agent.status', await agentState(userId));
  }

  async function hasSocket(userId: number): Promise<boolean> {
    return (await hub().in(userRoom(userId)).fetchSockets()).length > 0;
  }

  /** The one write of an agent's availability: persisted, then told to every screen and to the stats. */
  async function changeAgentStatus(companyId: number, userId: number, status: AgentStatus): Promise<void> {
    const since = await setAgentStatus(deps.db, userId, status);
    // Made available with no socket (an admin on the board, say): unreachable agents go Offline after the grace.
    if (status !== 'Offline' && !offlineTimers.has(userId) && !(await hasSocket(userId)))
      offlineLater(companyId, userId);
    await publishAgent(companyId, userId);
    emitDesk({ kind: 'agent', companyId, userId, status, since: since.toISOString() });
    reposition(companyId);
  }

  function cancelOffline(userId: number) {
    clearTimeout(offlineTimers.get(userId));
    offlineTimers.delete(userId);
  }

  /** After the grace period, an agent with no socket left goes Offline. */
  function offlineLater(companyId: number, userId: number) {
    if (closed) return;
    clearTimeout(offlineTimers.get(userId));
    offlineTimers.set(
      userId,
      setTimeout(() => {
        offlineTimers.delete(userId);
        (async () => {
          if (await hasSocket(userId)) return;
          // An agent gone for good cannot go on talking, nor set the status of a call they hung up: the server
          // closes it (DISCONNECTED) and the customer, if still there, hears the call is over (issue 25).
          await closeCallsOf(companyId, userId);
          if ((await agentStatusOf(deps.db, userId)) === 'Offline') return;
          await changeAgentStatus(companyId, userId, 'Offline');
        })().catch(deps.onError);
      }, deps.agentGraceMs),
    );
  }

  /** Closes the calls an agent gone for good left talking (or hung up without a status). */
  async function closeCallsOf(companyId: number, userId: number): Promise<void> {
    const open = await deps.db
      .select({ id: videoCalls.id, end: videoCalls.callEndTime })
      .from(videoCalls)
      .where(and(eq(videoCalls.agentId, userId), eq(videoCalls.status, CALL_STATUS_TALKING)));
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
  async function closeOpen(
    companyId: number,
    callId: number,
    close: { status: number; reason: CallEndReason; by: number | null; note?: string },
  ): Promise<boolean> {
    const closed = await closeCall(deps.db, companyId, callId, close);
    if (!closed) return false;
    clearTimeout(timers.get(callId));
    timers.delete(callId);
    if (closed.agentId === null) {
      // Closed while waiting: it leaves the queue (it is not a missed call).
      present.delete(callId);
      if (shared) await shared.remove(companyId, callId);
      hub().to(agentsRoom(companyId)).emit('call.cancelled', { call_id: callId, reason: close.reason });
      emitDesk({ kind: 'closed', companyId, callId });
      reposition(companyId);
    } else {
      await release(companyId, callId);
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

  /** When the agent became free or busy last (their board "time in state"). */
  async function sinceOf(userId: number): Promise<string | null> {
    const [row] = await deps.db
      .select({ since: users.agentStatusSince })
      .from(users)
      .where(eq(users.id, userId));
    return row?.since?.toISOString() ?? null;
  }

  async function queue(companyId: number): Promise<QueuedCall[]> {
    if (shared) {
      const [calls, here] = await Promise.all([waitingCalls(deps.db, companyId), shared.of(companyId)]);
      return calls.filter((call) => here.has(call.call_id));
    }
    return (await waitingCalls(deps.db, companyId)).filter((call) => present.has(call.call_id));
  }

  /** Tells every waiting customer of the company its place and expected wait. */
  async function announcePositions(companyId: number): Promise<void> {
    const waiting = await queue(companyId);
    if (waiting.length === 0) return;
    const [handling, online, inCall] = await Promise.all([
      averageHandlingSeconds(deps.db, companyId),
      deps.db
        .select({ id: users.id, status: users.agentStatus })
        .from(users)
        .where(eq(users.companyId, companyId)),
      shared ? busyAgents(companyId) : null,
    ]);
    const engaged = inCall ?? busy;
    const free = online.filter((u) => u.status === 'Online' && !engaged.has(u.id)).length;
    const onDuty = online.filter((u) => u.status === 'Online' || engaged.has(u.id)).length;
    waiting.forEach((call, index) => {
      const position = index + 1;
      hub()
        .to(customerRoom(call.call_id))
        .emit('queue.position', {
          call_id: call.call_id,
          position,
          expected_wait_s: expectedWaitSeconds({ position, free, onDuty, handlingSeconds: handling }),
        });
    });
  }
  /** Coalesced per tick: a burst of joins and answers tells each waiting customer once. */
  const reposition = (companyId: number) => {
    if (positionsDue.has(companyId)) return;
    positionsDue.add(companyId);
    setImmediate(() => {
      positionsDue.delete(companyId);
      announcePositions(companyId).catch(deps.onError);
    });
  };

  async function customerLeft(companyId: number, callId: number): Promise<void> {
    // A socket of the customer's that came back meanwhile (a reconnect seen before the old one's end) stays.
    if ((await hub().in(customerRoom(callId)).fetchSockets()).length > 0) return;
    // Another live process looks after it now (the customer re-joined there, and may be reconnecting).
    if (shared && (await shared.ownedElsewhere(companyId, callId))) return;
    present.delete(callId);
    if (shared) await shared.remove(companyId, callId);
    if (await missCall(deps.db, callId)) {
      hub().to(agentsRoom(companyId)).emit('call.cancelled', { call_id: callId, reason: 'customer_left' });
      emitDesk({ kind: 'missed', companyId, callId });
      reposition(companyId);
      return;
    }
    // A talking call whose customer is gone for good: the customer hung up.
    const [call] = await deps.db.select().from(videoCalls).where(eq(videoCalls.id, callId));
    if (call?.status === CALL_STATUS_TALKING) await endCall(companyId, callId, 'customer');
  }

  /** Frees the call's agent; tells the stats once, with the call's handling time. */
  async function release(
    companyId: number,
    callId: number,
  ): Promise<typeof videoCalls.$inferSelect | undefined> {
    if (shared) return releaseShared(companyId, callId);
    const freed: number[] = [];
    taken.delete(callId);
    for (const [agent, call] of busy) {
      if (call !== callId) continue;
      busy.delete(agent);
      freed.push(agent);
    }
    for (const agent of freed) await publishAgent(companyId, agent);
    const [call] = await deps.db.select().from(videoCalls).where(eq(videoCalls.id, callId));
    if (freed.length > 0 && call) {
      const seconds =
        call.callStartTime && call.callEndTime
          ? (call.callEndTime.getTime() - call.callStartTime.getTime()) / 1000
          : null;
      const since = call.agentId === null ? null : await sinceOf(call.agentId);
      emitDesk({ kind: 'ended', companyId, callId, agentId: call.agentId, seconds, since });
      reposition(companyId);
    }
    return call;
  }

  /**
   * Distributed: the call's agent may have answered on another process. Once the call is over in the
   * database, the first process to see it (a run-once mark) frees the agent and tells the stats.
   */
  async function releaseShared(
    companyId: number,
    callId: number,
  ): Promise<typeof videoCalls.$inferSelect | undefined> {
    taken.delete(callId);
    for (const [agent, call] of busy) if (call === callId) busy.delete(agent);
    const [call] = await deps.db.select().from(videoCalls).where(eq(videoCalls.id, callId));
    const over = call && (call.callEndTime !== null || call.status !== CALL_STATUS_TALKING);
    if (!call || !over || call.agentId === null || !shared) return call;
    if (!(await shared.once(`ended:${callId}`))) return call;
    await publishAgent(companyId, call.agentId);
    const seconds =
      call.callStartTime && call.callEndTime
        ? (call.callEndTime.getTime() - call.callStartTime.getTime()) / 1000
        : null;
    const since = await sinceOf(call.agentId);
    emitDesk({ kind: 'ended', companyId, callId, agentId: call.agentId, seconds, since });
    reposition(companyId);
    return call;
  }

  async function endCall(companyId: number, callId: number, by: 'agent' | 'customer'): Promise<void> {
    const ended = await hangUpCall(deps.db, callId);
    const call = await release(companyId, callId);
    if (!ended) return;
    hub().to(customerRoom(callId)).emit('call.ended', { call_id: callId, by });
    if (call?.agentId) hub().to(userRoom(call.agentId)).emit('call.ended', { call_id: callId, by });
  }

  return {
    bind(server) {
      io = server;
    },

    async restore() {
      const open = await deps.db
        .select({ id: videoCalls.id, companyId: videoCalls.companyId, agentId: videoCalls.agentId })
        .from(videoCalls)
        .where(inArray(videoCalls.status, [CALL_STATUS_WAITING, CALL_STATUS_TALKING]));
      for (const call of open) {
        // Distributed: a call another live process looks after is its business.
        if (shared && (await shared.ownedElsewhere(call.companyId, call.id))) continue;
        // A call left talking by an earlier run is closed now, with the reason (issue 25). Nobody is connected
        // yet: its customer hears it on coming back (the call is over), its agent's studio from the status
        // request (409 "The call is already closed").
        if (call.agentId !== null) {
          await closeCall(deps.db, call.companyId, call.id, {
            status: CALL_STATUS_DISCONNECTED,
            reason: 'server_restart',
            by: null,
          });
          continue;
        }
        later(call.id, deps.unattachedCallMs, () => customerLeft(call.companyId, call.id));
      }
      const available = await deps.db
        .select({ id: users.id, companyId: users.companyId })
        .from(users)
        .where(ne(users.agentStatus, 'Offline'));
      for (const agent of available) offlineLater(agent.companyId, agent.id);
    },

    async customerConnected(companyId, profileId, callId, join) {
      const [row] = await deps.db
        .select({ call: videoCalls, name: profiles.name })
        .from(videoCalls)
        .innerJoin(profiles, eq(profiles.id, videoCalls.profileId))
        .where(eq(videoCalls.id, callId));
      if (!row || row.call.companyId !== companyId || row.call.profileId !== profileId) return null;
      // Over: answered and hung up (the customer came back too late), or ended with a status.
      const open =
        row.call.status === CALL_STATUS_WAITING ||
        (row.call.status === CALL_STATUS_TALKING && row.call.callEndTime === null);
      if (!open) return null;
      const queued = toQueuedCall(row.call, row.name);
      // Gone while we looked the call up: its disconnect has set the timer that decides whether it left.
      if (!(await join(row.call.roomId))) return queued;
      clearTimeout(timers.get(callId));
      timers.delete(callId);
      // Distributed: a customer back from a process that died keeps the place it had (and is not announced).
      const returning = shared ? !(await shared.add(companyId, callId)) : present.has(callId);
      present.set(callId, companyId);
      if (row.call.status === CALL_STATUS_WAITING && !returning) {
        hub().to(agentsRoom(companyId)).emit('call.incoming', queued);
        emitDesk({ kind: 'queued', companyId, callId, since: queued.created_at });
      }
      reposition(companyId);
      return queued;
    },

    customerDisconnected(companyId, callId) {
      later(callId, deps.customerGraceMs, () => customerLeft(companyId, callId));
    },

    created(companyId, callId) {
      later(callId, deps.unattachedCallMs, () => customerLeft(companyId, callId));
    },

    queue,

    async answer(companyId, agentId, callId) {
      /** A refusal the agent's screen should not have offered: it is told the truth again. */
      const refuse = async (detail: string) => {
        hub()
          .to(userRoom(agentId))
          .emit('agent.status', await agentState(agentId));
        return { ok: false as const, detail };
      };
      if (busy.has(agentId)) return refuse(ALREADY_IN_CALL);
      if (taken.has(callId)) return { ok: false, detail: CALL_ALREADY_ANSWERED };
      if (shared ? !(await shared.has(companyId, callId)) : !present.has(callId))
        return { ok: false, detail: CALL_ALREADY_ANSWERED };
      if (shared && busy.has(agentId)) return refuse(ALREADY_IN_CALL);
      if ((await agentStatusOf(deps.db, agentId)) !== 'Online') return refuse(MUST_BE_ONLINE);
      if (shared && busy.has(agentId)) return refuse(ALREADY_IN_CALL);
      // Claimed before the await below, so one agent's two clicks cannot take two calls.
      busy.set(agentId, callId);
      let call: AnsweredCall | 'agent busy' | null = null;
      try {
        // The database decides among answers that race each other (distributed: also the same agent's
        // answers on two processes, by locking the agent's row).
        call = shared
          ? await answerCallAlone(deps.db, companyId, callId, agentId)
          : await answerCall(deps.db, companyId, callId, agentId);
      } finally {
        if (!call || call === 'agent busy' || shared) busy.delete(agentId);
      }
      if (call === 'agent busy') return refuse(ALREADY_IN_CALL);
      if (!call) return { ok: false, detail: CALL_ALREADY_ANSWERED };
      taken.add(callId);
      const [agent] = await deps.db
        .select({ first: users.firstName, last: users.lastName })
        .from(users)
        .where(eq(users.id, agentId));
      hub()
        .to(customerRoom(callId))
        .emit('call.answered', {
          call_id: callId,
          room_id: call.room_id,
          agent_name: fullName(agent?.first ?? '', agent?.last ?? ''),
        });
      hub().to(agentsRoom(companyId)).emit('call.taken', { call_id: callId, agent_id: agentId });
      await publishAgent(companyId, agentId);
      emitDesk({ kind: 'answered', companyId, callId, agentId, since: (await sinceOf(agentId)) ?? '' });
      reposition(companyId);
      return { ok: true, call };
    },

    async hangUp(companyId, by, callId) {
      const current =
        'agentId' in by ? (shared ? await callOfAgent(by.agentId) : busy.get(by.agentId)) : callId;
      if (current !== callId) return { ok: false, detail: 'Not your call' };
      if ('callId' in by && by.callId !== callId) return { ok: false, detail: 'Not your call' };
      await endCall(companyId, callId, 'agentId' in by ? 'agent' : 'customer');
      return { ok: true };
    },

    setAgentStatus: changeAgentStatus,

    agentState,

    agentConnected: cancelOffline,

    agentDisconnected(companyId, userId) {
      offlineLater(companyId, userId);
    },

    async sessionStarted(companyId, userId) {
      if (await hasSocket(userId)) return;
      cancelOffline(userId);
      if ((await agentStatusOf(deps.db, userId)) !== 'Offline')
        await changeAgentStatus(companyId, userId, 'Offline');
    },

    async finished(companyId, callId) {
      await release(companyId, callId);
      // The status can arrive before the hang-up (sent over a socket that was reconnecting): the customer
      // hears the call is over either way.
      hub().to(customerRoom(callId)).emit('call.ended', { call_id: callId, by: 'agent' });
    },

    callOf: (agentId) => busy.get(agentId),

    closeCall: closeOpen,

    async mayJoin(companyId, userId, room) {
      const [call] = await deps.db
        .select({ id: videoCalls.id })
        .from(videoCalls)
        .where(
          and(
            eq(videoCalls.companyId, companyId),
            eq(videoCalls.roomId, room),
            eq(videoCalls.agentId, userId),
            eq(videoCalls.status, CALL_STATUS_TALKING),
            isNull(videoCalls.callEndTime),
          ),
        )
        .limit(1);
      return call !== undefined;
    },

    async roomOf(companyId, callId) {
      const [call] = await deps.db
        .select({ room: videoCalls.roomId })
        .from(videoCalls)
        .where(
          and(
            eq(videoCalls.id, callId),
            eq(videoCalls.companyId, companyId),
            inArray(videoCalls.status, [CALL_STATUS_WAITING, CALL_STATUS_TALKING]),
            isNull(videoCalls.callEndTime),
          ),
        );
      return call?.room ?? null;
    },

    inCall: callOfAgent,

    onEvent(listener) {
      listeners.push(listener);
    },

    async adoptOrphans() {
      if (!shared || closed) return;
      await shared.heartbeat();
      const { calls, deadProcesses } = await shared.adoptOrphans();
      // Their customers had the grace period to re-join elsewhere; those who did are owned there by now.
      for (const call of calls)
        later(call.callId, deps.customerGraceMs, () => customerLeft(call.companyId, call.callId));
      if (deadProcesses.length === 0) return;
      // Agents whose sockets were on a dead process: Offline unless they come back within their grace.
      const available = await deps.db
        .select({ id: users.id, companyId: users.companyId })
        .from(users)
        .where(ne(users.agentStatus, 'Offline'));
      for (const agent of available)
        if (!offlineTimers.has(agent.id)) offlineLater(agent.companyId, agent.id);
    },

    close() {
      closed = true;
      for (const timer of [...timers.values(), ...offlineTimers.values()]) clearTimeout(timer);
      timers.clear();
      offlineTimers.clear();
      taken.clear();
    },
  };
}
