import { eq } from 'drizzle-orm';
import type { Server } from 'socket.io';
import type { AgentStatus } from '../../src/contract/common';
import { CALL_STATUS_TALKING, CALL_STATUS_WAITING } from '../../src/contract/constants';
import type {
  AnsweredCall,
  ClientToServerEvents,
  QueuedCall,
  ServerToClientEvents,
  SocketData,
} from '../../src/contract/socket';
import type { DbOrTx } from '../db/client';
import { profiles, users, videoCalls } from '../db/schema';
import { fullName } from '../domain/format';
import {
  answerCall,
  averageHandlingSeconds,
  hangUpCall,
  missCall,
  toQueuedCall,
  waitingCalls,
} from '../domain/videocalls';
import { agentStatusOf, companyRoom, customerRoom, setAgentStatus, userRoom } from './rooms';

type HubServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export const CALL_ALREADY_ANSWERED = 'Call Already Answered';
export const MUST_BE_ONLINE = 'Set your status to Online to answer';
export const ALREADY_IN_CALL = 'You are already in a call';

type Result<T extends object = object> = ({ ok: true } & T) | { ok: false; detail: string };

/** What the desk tells the world about; the instant stats listen here. */
export type DeskEvent =
  | { kind: 'queued'; companyId: number; callId: number; since: string }
  | { kind: 'answered'; companyId: number; callId: number; agentId: number }
  | { kind: 'missed'; companyId: number; callId: number }
  | { kind: 'ended'; companyId: number; callId: number; agentId: number | null; seconds: number | null }
  | { kind: 'agent'; companyId: number; userId: number; status: AgentStatus };

/**
 * The live call queue of every company: which customers are connected to their waiting call, which agent is
 * in which call, and the timers that turn a customer who left into a MISSED call. The database holds the
 * calls; this holds presence, which only a running process can know.
 */
export interface CallDesk {
  bind(io: HubServer): void;
  /**
   * A customer's socket connected for its call: `join` puts it in the call's rooms before agents hear of the
   * call. Null when the call is over or not the profile's.
   */
  customerConnected(
    companyId: number,
    profileId: number,
    callId: number,
    join: (roomId: string) => Promise<void>,
  ): Promise<QueuedCall | null>;
  customerDisconnected(companyId: number, callId: number): void;
  /** A call was created by POST /videocall; it is MISSED if its customer never connects. */
  created(companyId: number, callId: number): void;
  /** The waiting calls whose customer is connected, oldest first. */
  queue(companyId: number): Promise<QueuedCall[]>;
  answer(companyId: number, agentId: number, callId: number): Promise<Result<{ call: AnsweredCall }>>;
  hangUp(companyId: number, by: { agentId: number } | { callId: number }, callId: number): Promise<Result>;
  setAgentStatus(companyId: number, userId: number, status: AgentStatus): Promise<void>;
  /** The agent set the call's final status (PUT /videocall/{id}): the call is over even if nobody hung up. */
  finished(companyId: number, callId: number): Promise<void>;
  /** The call an agent is in, if any. */
  callOf(agentId: number): number | undefined;
  onEvent(listener: (event: DeskEvent) => void): void;
  close(): void;
}

export function createCallDesk(deps: {
  db: DbOrTx;
  customerGraceMs: number;
  unattachedCallMs: number;
  onError: (error: unknown) => void;
}): CallDesk {
  let io: HubServer | null = null;
  /** Calls whose customer socket is connected: call id → company id. */
  const present = new Map<number, number>();
  /** Calls waiting for their customer to (re)connect. */
  const timers = new Map<number, NodeJS.Timeout>();
  /** agent id → call id */
  const busy = new Map<number, number>();
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

  function later(callId: number, ms: number, run: () => Promise<void>) {
    clearTimeout(timers.get(callId));
    timers.set(
      callId,
      setTimeout(() => {
        timers.delete(callId);
        run().catch(deps.onError);
      }, ms),
    );
  }

  async function queue(companyId: number): Promise<QueuedCall[]> {
    return (await waitingCalls(deps.db, companyId)).filter((call) => present.has(call.call_id));
  }

  /** Tells every waiting customer of the company its place and expected wait. */
  async function announcePositions(companyId: number): Promise<void> {
    const waiting = await queue(companyId);
    if (waiting.length === 0) return;
    const [handling, online] = await Promise.all([
      averageHandlingSeconds(deps.db, companyId),
      deps.db
        .select({ id: users.id, status: users.agentStatus })
        .from(users)
        .where(eq(users.companyId, companyId)),
    ]);
    const free = Math.max(1, online.filter((u) => u.status === 'Online' && !busy.has(u.id)).length);
    waiting.forEach((call, index) => {
      const position = index + 1;
      hub()
        .to(customerRoom(call.call_id))
        .emit('queue.position', {
          call_id: call.call_id,
          position,
          expected_wait_s: Math.ceil(position / free) * handling,
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
    present.delete(callId);
    if (await missCall(deps.db, callId)) {
      hub().to(companyRoom(companyId)).emit('call.cancelled', { call_id: callId, reason: 'customer_left' });
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
    let held = false;
    taken.delete(callId);
    for (const [agent, call] of busy) {
      if (call !== callId) continue;
      busy.delete(agent);
      held = true;
    }
    const [call] = await deps.db.select().from(videoCalls).where(eq(videoCalls.id, callId));
    if (held && call) {
      const seconds =
        call.callStartTime && call.callEndTime
          ? (call.callEndTime.getTime() - call.callStartTime.getTime()) / 1000
          : null;
      emitDesk({ kind: 'ended', companyId, callId, agentId: call.agentId, seconds });
      reposition(companyId);
    }
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

    async customerConnected(companyId, profileId, callId, join) {
      const [row] = await deps.db
        .select({ call: videoCalls, name: profiles.name })
        .from(videoCalls)
        .innerJoin(profiles, eq(profiles.id, videoCalls.profileId))
        .where(eq(videoCalls.id, callId));
      if (!row || row.call.companyId !== companyId || row.call.profileId !== profileId) return null;
      if (row.call.status !== CALL_STATUS_WAITING && row.call.status !== CALL_STATUS_TALKING) return null;
      await join(row.call.roomId);
      clearTimeout(timers.get(callId));
      timers.delete(callId);
      const returning = present.has(callId);
      present.set(callId, companyId);
      const queued = toQueuedCall(row.call, row.name);
      if (row.call.status === CALL_STATUS_WAITING && !returning) {
        hub().to(companyRoom(companyId)).emit('call.incoming', queued);
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
      if (busy.has(agentId)) return { ok: false, detail: ALREADY_IN_CALL };
      if (taken.has(callId) || !present.has(callId)) return { ok: false, detail: CALL_ALREADY_ANSWERED };
      if ((await agentStatusOf(deps.db, agentId)) !== 'Online') return { ok: false, detail: MUST_BE_ONLINE };
      // Claimed before the await below, so one agent's two clicks cannot take two calls.
      busy.set(agentId, callId);
      let call: AnsweredCall | null = null;
      try {
        // The database decides among answers that race each other.
        call = await answerCall(deps.db, companyId, callId, agentId);
      } finally {
        if (!call) busy.delete(agentId);
      }
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
      hub().to(companyRoom(companyId)).emit('call.taken', { call_id: callId, agent_id: agentId });
      emitDesk({ kind: 'answered', companyId, callId, agentId });
      reposition(companyId);
      return { ok: true, call };
    },

    async hangUp(companyId, by, callId) {
      if ('agentId' in by && busy.get(by.agentId) !== callId) return { ok: false, detail: 'Not your call' };
      if ('callId' in by && by.callId !== callId) return { ok: false, detail: 'Not your call' };
      await endCall(companyId, callId, 'agentId' in by ? 'agent' : 'customer');
      return { ok: true };
    },

    async setAgentStatus(companyId, userId, status) {
      await setAgentStatus(deps.db, userId, status);
      hub().to(companyRoom(companyId)).emit('agent.status', { user_id: userId, status });
      emitDesk({ kind: 'agent', companyId, userId, status });
      reposition(companyId);
    },

    async finished(companyId, callId) {
      await release(companyId, callId);
    },

    callOf: (agentId) => busy.get(agentId),

    onEvent(listener) {
      listeners.push(listener);
    },

    close() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      taken.clear();
    },
  };
}
