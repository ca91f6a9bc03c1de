import type { AgentStatus } from '#contract/common';
import { agentStatusOf, setAgentStatus, userRoom } from '../rooms';
import type { DeskContext } from './context';
import type { CallOffers } from './offers';
import type { CallQueue } from './queue';
import type { CallRouter } from './routing';

export interface AgentAvailability {
  /** The one write of an agent's availability: persisted, then told to every screen and to the stats. */
  change(companyId: number, userId: number, status: AgentStatus): Promise<void>;
  hasSocket(userId: number): Promise<boolean>;
  /** An agent's socket is back: a pending Offline is called off. */
  cancelOffline(userId: number): void;
  /** After the grace period, an agent with no socket left goes Offline. */
  offlineLater(companyId: number, userId: number): void;
  /** Whether the agent's Offline is pending. */
  offlinePending(userId: number): boolean;
  close(): void;
}

/**
 * Agents' availability: its writes, and the timers that turn an agent with no socket into Offline. An agent gone
 * for good first has their calls closed (`closeCallsOf`, the desk's).
 */
export function createAgentAvailability(
  ctx: DeskContext,
  parts: {
    queue: CallQueue;
    offers: CallOffers;
    router: CallRouter;
    agentGraceMs: number;
    closeCallsOf: (companyId: number, userId: number) => Promise<void>;
  },
): AgentAvailability {
  /** Agents with no socket, waiting for their grace period to end. */
  const offlineTimers = new Map<number, NodeJS.Timeout>();

  async function hasSocket(userId: number): Promise<boolean> {
    return (await ctx.hub().in(userRoom(userId)).fetchSockets()).length > 0;
  }

  async function change(companyId: number, userId: number, status: AgentStatus): Promise<void> {
    const since = await setAgentStatus(ctx.db, userId, status);
    // Made available with no socket (an admin on the board, say): unreachable agents go Offline after the grace.
    if (status !== 'Offline' && !offlineTimers.has(userId) && !(await hasSocket(userId)))
      offlineLater(companyId, userId);
    await parts.offers.publishAgent(companyId, userId);
    ctx.emitDesk({ kind: 'agent', companyId, userId, status, since: since.toISOString() });
    parts.queue.reposition(companyId);
    // One-at-a-time routing: an agent who came offers a call to them; one who went passes theirs on.
    parts.router.settle(companyId);
  }

  function offlineLater(companyId: number, userId: number) {
    if (ctx.isClosed()) return;
    clearTimeout(offlineTimers.get(userId));
    offlineTimers.set(
      userId,
      setTimeout(() => {
        offlineTimers.delete(userId);
        (async () => {
          if (await hasSocket(userId)) return;
          // An agent gone for good cannot go on talking, nor set the status of a call they hung up: the server
          // closes it (DISCONNECTED) and the customer, if still there, hears the call is over.
          await parts.closeCallsOf(companyId, userId);
          if ((await agentStatusOf(ctx.db, userId)) === 'Offline') return;
          await change(companyId, userId, 'Offline');
        })().catch(ctx.onError);
      }, parts.agentGraceMs),
    );
  }

  return {
    change,
    hasSocket,
    cancelOffline(userId) {
      clearTimeout(offlineTimers.get(userId));
      offlineTimers.delete(userId);
    },
    offlineLater,
    offlinePending: (userId) => offlineTimers.has(userId),
    close() {
      for (const timer of offlineTimers.values()) clearTimeout(timer);
      offlineTimers.clear();
    },
  };
}
