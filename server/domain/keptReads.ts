import type { Change, Changes } from '../db/changes';

/**
 * Reads whose answers are kept until the database says what they were read from changed
 * (docs/decisions/0173-reports-kept-until-they-change.md, docs/decisions/0179-principals-kept-until-they-change.md): an answer is keyed by the version of its id (a company, a user) taken before its read starts, so a change
 * told while it runs makes it stale for the next caller. While not following the changes, an answer lives only
 * as long as its read runs (asked for meanwhile, the same read answers); so too while the changes may go untold
 * (the changes are blind: PostgreSQL's listening connection is down, docs/decisions/0180-postgresql-tells-what-changed.md), and once they are heard again
 * everything counts as changed. At most `maxKept` answers are kept (the oldest goes first); a failure answers those
 * waiting for it, then is forgotten.
 */
export interface KeptReads {
  read<T>(id: number, key: string, read: () => Promise<T>): Promise<T>;
  /** Whether answers are kept (the changes are followed, and heard). */
  following(): boolean;
  /** Keeps answers from now on, until `stop`, forgetting them as `changes` tells. */
  follow(changes: Changes): Promise<void>;
  stop(): Promise<void>;
}

export function createKeptReads(maxKept: number): KeptReads {
  const kept = new Map<string, { version: string; value: Promise<unknown> }>();
  const versions = new Map<number, number>();
  let everything = 0;
  let stopListening: (() => Promise<void>) | null = null;
  let blind = false;
  const following = () => stopListening !== null && !blind;
  const versionOf = (id: number) => (following() ? `${everything}.${versions.get(id) ?? 0}` : 'running');
  const changed = (change: Change) => {
    if (change === null) everything += 1;
    else versions.set(change, (versions.get(change) ?? 0) + 1);
  };
  const blindness = (isBlind: boolean) => {
    blind = isBlind;
    // Kept answers may be stale after what went untold; answers read meanwhile are 'running' and stay so.
    everything += 1;
    kept.clear();
  };
  return {
    read<T>(id: number, key: string, read: () => Promise<T>): Promise<T> {
      const version = versionOf(id);
      const known = kept.get(key);
      if (known && known.version === version) return known.value as Promise<T>;
      const value = read();
      kept.delete(key);
      kept.set(key, { version, value });
      const oldest = kept.keys().next().value;
      if (kept.size > maxKept && oldest !== undefined) kept.delete(oldest);
      // Not following: nothing outlives its run. A failure: forgotten once it has answered those waiting.
      const forget = () => {
        if (kept.get(key)?.value === value) kept.delete(key);
      };
      value.then(() => {
        if (!following()) forget();
      }, forget);
      return value;
    },
    following,
    async follow(changes) {
      if (stopListening) return;
      kept.clear();
      stopListening = await changes.listen(changed, blindness);
    },
    async stop() {
      const stop = stopListening;
      stopListening = null;
      blind = false;
      kept.clear();
      await stop?.();
    },
  };
}
