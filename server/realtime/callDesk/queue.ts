import type { QueuedCall } from '#contract/socket';
import { averageHandlingSeconds, waitingCalls, waitingOrder } from '../../domain/videocalls/queue';
import { createPacer } from '../pacer';
import { expectedWaitSeconds } from '../queueEstimate';
import { customerRoom } from '../rooms';
import type { DeskContext } from './context';
import { agentsOf } from './persistence';

/**
 * The least time between two announcements of a company's queue: a burst of joins, answers and
 * departures costs one pass over the waiting customers a second, not one per change.
 */
export const POSITIONS_EVERY_MS = 1_000;

/** The agents in a call: this process's own, or (distributed) every process's. */
type Engaged = Pick<ReadonlySet<number>, 'has'>;

export interface CallQueue {
  /** The waiting calls whose customer is connected, oldest first. */
  queue(companyId: number): Promise<QueuedCall[]>;
  /** Whether the call's customer is connected to this process. */
  isPresent(callId: number): boolean;
  /** The customer's socket joined: true when the call was already queued (a customer coming back). */
  arrived(companyId: number, callId: number): Promise<boolean>;
  /** The call left the queue (missed, closed, or its customer gone). */
  left(companyId: number, callId: number): Promise<void>;
  /** Runs `run` after `ms` (the customer's grace, an unattached call's wait), replacing the call's timer. */
  later(callId: number, ms: number, run: () => Promise<void>): void;
  /** Calls off the call's timer: its customer is back, or the call is closed. */
  cancel(callId: number): void;
  /**
   * Tells the company's waiting customers whose place or expected wait changed what they are now: at once
   * (the next tick), or, within POSITIONS_EVERY_MS of the last announcement, once that time is up.
   */
  reposition(companyId: number): void;
  close(): void;
}

/**
 * The waiting customers of every company: which customers are connected to their waiting call, the timers that
 * decide whether a customer who left is gone, and each waiting customer's place and expected wait.
 */
export function createCallQueue(
  ctx: DeskContext,
  engagedAgents: (companyId: number) => Promise<Engaged> | Engaged,
): CallQueue {
  const { db, shared } = ctx;
  /** Calls whose customer socket is connected: call id → company id. */
  const present = new Map<number, number>();
  /** Calls waiting for their customer to (re)connect. */
  const timers = new Map<number, NodeJS.Timeout>();
  /** When each company's waiting customers are told their place. */
  const positions = createPacer(POSITIONS_EVERY_MS);
  /**
   * What each waiting customer was last told (call id → place and wait), so an unchanged one hears nothing.
   * One process only: with several, another process may have told the customer something else since.
   */
  const told = new Map<number, string>();

  async function queue(companyId: number): Promise<QueuedCall[]> {
    if (shared) {
      const [calls, here] = await Promise.all([waitingCalls(db, companyId), shared.of(companyId)]);
      return calls.filter((call) => here.has(call.call_id));
    }
    return (await waitingCalls(db, companyId)).filter((call) => present.has(call.call_id));
  }

  /** The ids of the waiting calls whose customer is connected, oldest first. */
  async function order(companyId: number): Promise<number[]> {
    if (shared) {
      const [ids, here] = await Promise.all([waitingOrder(db, companyId), shared.of(companyId)]);
      return ids.filter((id) => here.has(id));
    }
    return (await waitingOrder(db, companyId)).filter((id) => present.has(id));
  }

  /** Tells every waiting customer of the company its place and expected wait. */
  async function announcePositions(companyId: number): Promise<void> {
    const waiting = await order(companyId);
    if (waiting.length === 0) return;
    const [handling, online, engaged] = await Promise.all([
      averageHandlingSeconds(db, companyId),
      agentsOf(db, companyId),
      engagedAgents(companyId),
    ]);
    const free = online.filter((u) => u.status === 'Online' && !engaged.has(u.id)).length;
    const onDuty = online.filter((u) => u.status === 'Online' || engaged.has(u.id)).length;
    waiting.forEach((callId, index) => {
      const position = index + 1;
      const expected = expectedWaitSeconds({ position, free, onDuty, handlingSeconds: handling });
      const now = `${position} ${expected}`;
      if (!shared && told.get(callId) === now) return;
      told.set(callId, now);
      ctx
        .hub()
        .to(customerRoom(callId))
        .emit('queue.position', { call_id: callId, position, expected_wait_s: expected });
    });
  }

  return {
    queue,

    isPresent: (callId) => present.has(callId),

    async arrived(companyId, callId) {
      // Distributed: a customer back from a process that died keeps the place it had (and is not announced).
      const returning = shared ? !(await shared.add(companyId, callId)) : present.has(callId);
      present.set(callId, companyId);
      // A new socket (a reload, a reconnection) has heard nothing yet.
      told.delete(callId);
      return returning;
    },

    async left(companyId, callId) {
      present.delete(callId);
      told.delete(callId);
      ctx.traces.forget(callId);
      if (shared) await shared.remove(companyId, callId);
    },

    later(callId, ms, run) {
      if (ctx.isClosed()) return;
      clearTimeout(timers.get(callId));
      timers.set(
        callId,
        setTimeout(() => {
          timers.delete(callId);
          run().catch(ctx.onError);
        }, ms),
      );
    },

    cancel(callId) {
      clearTimeout(timers.get(callId));
      timers.delete(callId);
    },

    reposition(companyId) {
      if (ctx.isClosed()) return;
      positions.request(companyId, () => announcePositions(companyId).catch(ctx.onError));
    },

    close() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      positions.close();
    },
  };
}
