import { HOUR_MS } from '#contract/time';
import type { DbOrTx } from '../../db/client';
import { answeredSince } from '../../domain/callRouting';

export interface AnsweredLastHour {
  /** How many calls each agent answered in the hour before `now`. */
  counts(companyId: number, agentIds: readonly number[], now: number): Promise<Map<number, number>>;
  /** An agent answered a call on this process. */
  answered(agentId: number, callId: number, at: number): void;
}

/**
 * The calls each agent answered in the last hour, for one-at-a-time routing's "fewest calls" rule. Counting
 * them in the database on every routing pass scanned every call of the company's last hour (thousands on a busy
 * desk) each time an agent came free; here each agent's calls are read once, on the first pass that asks, and
 * the answers of this process are added as they happen (one process only: the setting is refused distributed).
 * Calls older than an hour are dropped as the window moves.
 */
export function createAnsweredLastHour(db: DbOrTx): AnsweredLastHour {
  /** agent → call id → when it started (ms). Keyed by call, so an answer also read from the database counts once. */
  const calls = new Map<number, Map<number, number>>();
  /** Agents whose last hour was read from the database. */
  const loaded = new Set<number>();

  const callsOf = (agentId: number) => {
    let own = calls.get(agentId);
    if (!own) {
      own = new Map();
      calls.set(agentId, own);
    }
    return own;
  };

  const dropOlder = (own: Map<number, number>, since: number) => {
    for (const [callId, at] of own) if (at < since) own.delete(callId);
  };

  return {
    async counts(companyId, agentIds, now) {
      const since = now - HOUR_MS;
      const unread = agentIds.filter((id) => !loaded.has(id));
      if (unread.length > 0) {
        const rows = await answeredSince(db, companyId, unread, new Date(since));
        for (const row of rows) callsOf(row.agentId).set(row.callId, row.startedAt);
        for (const id of unread) loaded.add(id);
      }
      const counts = new Map<number, number>();
      for (const id of agentIds) {
        const own = calls.get(id);
        if (own) dropOlder(own, since);
        counts.set(id, own?.size ?? 0);
      }
      return counts;
    },

    answered(agentId, callId, at) {
      const own = callsOf(agentId);
      own.set(callId, at);
      dropOlder(own, at - HOUR_MS);
    },
  };
}
