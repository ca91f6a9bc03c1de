/** The wrapped data keys of encrypted stored files (docs/decisions/0214-files-encrypted-at-rest.md). */
import { index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, ts } from './columns';

/**
 * One file's data key, wrapped by a key-encryption key. Named by the storage key and the random file id in the
 * file's header, so a file written again under the same key never meets the other's data key. Deleting the row
 * makes the file unreadable wherever a copy of it lies (an old object version, a backup of the bucket).
 */
export const storageDataKeys = pgTable(
  'storage_data_keys',
  {
    storageKey: text().notNull(),
    fileId: text().notNull(),
    /** The key-encryption key that wrapped it (a local key's id, or a KMS key's). */
    kekId: text().notNull(),
    /** base64. */
    wrappedKey: text().notNull(),
    createdAt: createdAt(),
    /** When `npm run storage:rotate-key` last wrapped it again. */
    rewrappedAt: ts(),
  },
  (t) => [
    primaryKey({ columns: [t.storageKey, t.fileId] }),
    index('storage_data_keys_kek').on(t.kekId, t.storageKey, t.fileId),
  ],
);
