import type { Changes } from '../db/changes';
import { createKeptReads } from './keptReads';

/**
 * The reads of the dashboard and the call report, which sum a company's rollups (docs/decisions/0167-call-rollups.md, docs/decisions/0170-dashboard-rollups.md):
 * - always, the same read asked for while it runs is answered by that run (fifty screens asking at once cost
 *   one query, each answer as fresh as a read that started when the first did);
 * - while following the database's changes (docs/decisions/0173-reports-kept-until-they-change.md), an answer is also kept until the company's figures
 *   change: a read is keyed by the company's version taken before it starts, so a write that commits while it
 *   runs makes it stale for the next caller.
 * A failure is shared with those waiting for it, then forgotten.
 */
export interface ReportReads {
  read<T>(companyId: number, key: string, read: () => Promise<T>): Promise<T>;
  /** Keeps answers from now on, until `stop`, forgetting them as `changes` tells. */
  follow(changes: Changes): Promise<void>;
  stop(): Promise<void>;
}

/** At most this many answers are kept (the oldest goes first): a company's ranges, times the companies. */
export const MAX_KEPT_REPORTS = 500;

export function createReportReads(maxKept = MAX_KEPT_REPORTS): ReportReads {
  const kept = createKeptReads(maxKept);
  return {
    // Frozen: the same answer goes to every caller (and is written once, frozenAnswersSerializerCompiler).
    read: (companyId, key, read) =>
      kept.read(companyId, `${companyId}|${key}`, () => read().then((answer) => Object.freeze(answer))),
    follow: kept.follow,
    stop: kept.stop,
  };
}
