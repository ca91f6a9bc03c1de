/** Keys the server keeps for itself (the evidence signing key), sealed with the server's secret box. */
import { pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

export const serverKeys = pgTable('server_keys', {
  /** What the key is for, e.g. `evidence_signing_key`. */
  name: text().primaryKey(),
  /** The key, sealed with server/auth/secrets.ts (AES-256-GCM under the server secret). */
  sealed: text().notNull(),
  createdAt: createdAt(),
});
