import type { Change, Changes } from '../db/changes';

/**
 * Reads whose answers are kept until the database says what they were read from changed (records 0173 and
 * 0179): an answer is keyed by the version of its id (a company, a user) taken before its read starts, so a change
 * told while it runs makes it stale for the next caller. While not following the changes, an answer lives only
 * as long as its read runs (asked for meanwhile, the same read answers). At most `maxKept` answers are kept (the
 * oldest goes first); a failure answers those waiting for it, then is forgotten.
 */
export interface KeptReads {
  read<T>(id: number, key: string, read: () => Promise<T>): Promise<T>;
  /** Whether answers are kept (the changes are followed). */
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
  const versionOf = (id: number) => (stopListening ? `${everything}.${versions.get(id) ?? 0}` : 'running');
  const changed = (change: Change) => {
    if (change === null) everything += 1;
    else versions.set(change, (versions.get(change) ?? 0) + 1);
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
        if (!stopListening) forget();
      }, forget);
      return value;
    },
    following: () => stopListening !== null,
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
