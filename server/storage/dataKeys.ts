/** Where the wrapped data keys of encrypted files are kept: a table, so rotation is an UPDATE, not a rewrite. */
import { and, asc, count, eq, gt, ne, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import { storageDataKeys } from '../db/schema';
import type { KeyProvider, WrappedKey } from './keyProvider';

export interface DataKeyEntry extends WrappedKey {
  storageKey: string;
  fileId: string;
}

export interface DataKeyStore {
  save(entry: DataKeyEntry): Promise<void>;
  find(storageKey: string, fileId: string): Promise<WrappedKey | null>;
  /** Forgets the data keys of every file under `storageKey` (the file itself goes after). */
  forget(storageKey: string, fileId?: string): Promise<void>;
  /** Up to `limit` entries wrapped by another key than `keyId`, after `after` in key order. */
  wrappedByOthers(
    keyId: string,
    limit: number,
    after?: { storageKey: string; fileId: string },
  ): Promise<DataKeyEntry[]>;
  /** Replaces an entry's wrapped key if it is still wrapped by `previousKeyId`; answers whether it did. */
  rewrap(entry: DataKeyEntry, previousKeyId: string): Promise<boolean>;
  /** How many data keys each key-encryption key wraps. */
  countByKek(): Promise<Map<string, number>>;
}

export function databaseDataKeys(db: Db): DataKeyStore {
  const t = storageDataKeys;
  const named = (storageKey: string, fileId: string) =>
    and(eq(t.storageKey, storageKey), eq(t.fileId, fileId));
  const entryOf = (row: typeof t.$inferSelect): DataKeyEntry => ({
    storageKey: row.storageKey,
    fileId: row.fileId,
    keyId: row.kekId,
    wrapped: Buffer.from(row.wrappedKey, 'base64'),
  });
  return {
    async save({ storageKey, fileId, keyId, wrapped }) {
      await db.insert(t).values({ storageKey, fileId, kekId: keyId, wrappedKey: wrapped.toString('base64') });
    },
    async find(storageKey, fileId) {
      const [row] = await db.select().from(t).where(named(storageKey, fileId));
      return row ? entryOf(row) : null;
    },
    async forget(storageKey, fileId) {
      await db
        .delete(t)
        .where(fileId === undefined ? eq(t.storageKey, storageKey) : named(storageKey, fileId));
    },
    async wrappedByOthers(keyId, limit, after) {
      const rows = await db
        .select()
        .from(t)
        .where(
          and(
            ne(t.kekId, keyId),
            after
              ? or(
                  gt(t.storageKey, after.storageKey),
                  and(eq(t.storageKey, after.storageKey), gt(t.fileId, after.fileId)),
                )
              : undefined,
          ),
        )
        .orderBy(asc(t.storageKey), asc(t.fileId))
        .limit(limit);
      return rows.map(entryOf);
    },
    async rewrap(entry, previousKeyId) {
      const updated = await db
        .update(t)
        .set({ kekId: entry.keyId, wrappedKey: entry.wrapped.toString('base64'), rewrappedAt: new Date() })
        .where(and(named(entry.storageKey, entry.fileId), eq(t.kekId, previousKeyId)))
        .returning({ fileId: t.fileId });
      return updated.length > 0;
    },
    async countByKek() {
      const rows = await db.select({ kekId: t.kekId, files: count() }).from(t).groupBy(t.kekId);
      return new Map(rows.map((row) => [row.kekId, row.files]));
    },
  };
}

/** The same in this process's memory: for the unit tests and the benchmark. */
export function memoryDataKeys(): DataKeyStore {
  const entries = new Map<string, DataKeyEntry>();
  const id = (storageKey: string, fileId: string) => `${storageKey}\n${fileId}`;
  return {
    async save(entry) {
      entries.set(id(entry.storageKey, entry.fileId), { ...entry });
    },
    async find(storageKey, fileId) {
      return entries.get(id(storageKey, fileId)) ?? null;
    },
    async forget(storageKey, fileId) {
      for (const [name, entry] of entries)
        if (entry.storageKey === storageKey && (fileId === undefined || entry.fileId === fileId))
          entries.delete(name);
    },
    async wrappedByOthers(keyId, limit, after) {
      return [...entries.values()]
        .filter((entry) => entry.keyId !== keyId)
        .sort((a, b) => id(a.storageKey, a.fileId).localeCompare(id(b.storageKey, b.fileId)))
        .filter((entry) => !after || id(entry.storageKey, entry.fileId) > id(after.storageKey, after.fileId))
        .slice(0, limit);
    },
    async rewrap(entry, previousKeyId) {
      const kept = entries.get(id(entry.storageKey, entry.fileId));
      if (!kept || kept.keyId !== previousKeyId) return false;
      entries.set(id(entry.storageKey, entry.fileId), { ...entry });
      return true;
    },
    async countByKek() {
      const counts = new Map<string, number>();
      for (const { keyId } of entries.values()) counts.set(keyId, (counts.get(keyId) ?? 0) + 1);
      return counts;
    },
  };
}

/**
 * Wraps every data key that another key wraps with `keys`' current one; the files are not touched. Keys it
 * cannot unwrap (a KEK no longer configured) are counted and left as they are, for a second run with that
 * KEK back in the list.
 */
export async function rewrapDataKeys(
  store: DataKeyStore,
  keys: KeyProvider,
  options: { batch?: number; progress?: (done: number) => void } = {},
): Promise<{ rewrapped: number; unreadable: Map<string, number> }> {
  const batch = options.batch ?? 500;
  const unreadable = new Map<string, number>();
  let rewrapped = 0;
  let after: { storageKey: string; fileId: string } | undefined;
  for (;;) {
    const entries = await store.wrappedByOthers(keys.currentKeyId, batch, after);
    if (entries.length === 0) break;
    for (const entry of entries) {
      after = { storageKey: entry.storageKey, fileId: entry.fileId };
      if (!keys.knows(entry.keyId)) {
        unreadable.set(entry.keyId, (unreadable.get(entry.keyId) ?? 0) + 1);
        continue;
      }
      const dataKey = await keys.unwrap(entry);
      const wrapped = await keys.wrap(dataKey);
      if (await store.rewrap({ ...entry, ...wrapped }, entry.keyId)) rewrapped += 1;
    }
    options.progress?.(rewrapped);
  }
  return { rewrapped, unreadable };
}
