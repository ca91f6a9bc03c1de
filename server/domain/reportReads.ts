import type { Change, Changes } from '../db/changes';

/**
 * The reads of the dashboard and the call report (issue 31), which sum a company's rollups (records 0167, 0170):
 * - always, the same read asked for while it runs is answered by that run (fifty screens asking at once cost
 *   one query, each answer as fresh as a read that started when the first did);
 * - while following the database's changes (record 0173), an answer is also kept until the company's figures
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

interface Kept {
  version: string;
  value: Promise<unknown>;
}

/** At most this many answers are kept (the oldest goes first): a company's ranges, times the companies. */
export const MAX_KEPT_REPORTS = 500;

export function createReportReads(maxKept = MAX_KEPT_REPORTS): ReportReads {
  const kept = new Map<string, Kept>();
  const versions = new Map<number, number>();
  let everyCompany = 0;
  let stopListening: (() => Promise<void>) | null = null;
  const versionOf = (companyId: number) => `${everyCompany}.${versions.get(companyId) ?? 0}`;
  const changed = (change: Change) => {
    if (change === null) everyCompany += 1;
    else versions.set(change, (versions.get(change) ?? 0) + 1);
  };
  return {
    read<T>(companyId: number, key: string, read: () => Promise<T>): Promise<T> {
      const id = `${companyId}|${key}`;
      const version = stopListening ? versionOf(companyId) : 'running';
      const known = kept.get(id);
      if (known && known.version === version) return known.value as Promise<T>;
      // Frozen: the same answer goes to every caller (and is written once, frozenAnswersSerializerCompiler).
      const value = read().then((answer) => Object.freeze(answer) as T);
      kept.delete(id);
      kept.set(id, { version, value });
      const oldest = kept.keys().next().value;
      if (kept.size > maxKept && oldest !== undefined) kept.delete(oldest);
      // Not following: nothing outlives its run. A failure: forgotten once it has answered those waiting.
      const forget = () => {
        if (kept.get(id)?.value === value) kept.delete(id);
      };
      value.then(() => {
        if (!stopListening) forget();
      }, forget);
      return value;
    },
    async follow(changes) {
      if (stopListening) return;
      kept.clear();
      stopListening = await changes.listen(changed);
    },
    async stop() {
      const stop = stopListening;
      stopListening = null;
      kept.clear();
      await stop?.();
    },
  };
}
