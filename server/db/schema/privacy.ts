/** What the privacy duties keep: the chained log of reads of a person's data, and erasures of profiles. */
import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { companies, users } from './companies';
import { profiles } from './profiles';

/**
 * Every read of a person's data, append-only: each row's `hash` is the SHA-256 of the row and the `prev_hash`
 * before it (server/domain/accessLog.ts). Written only by the access log's flush, in batches.
 */
export const accessLog = pgTable(
  'access_log',
  {
    seq: bigint({ mode: 'number' }).primaryKey(),
    createdAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    companyId: integer().notNull(),
    /** The person read (null: a read of no one profile). */
    profileId: integer(),
    actorId: integer(),
    actorEmail: text(),
    ip: text(),
    kind: text().notNull(),
    objectType: text().notNull(),
    objectId: text().notNull(),
    detail: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    /** How many identical reads within this row's second it stands for (server/domain/accessLog.ts). */
    count: integer().notNull().default(1),
    prevHash: text().notNull(),
    hash: text().notNull(),
  },
  (t) => [
    index('access_log_company_profile').on(t.companyId, t.profileId, t.seq),
    index('access_log_company_seq').on(t.companyId, t.seq),
    index('access_log_created').on(t.createdAt),
  ],
);

/** Where the chain starts after pruning: the last pruned row. */
export const accessLogAnchor = pgTable('access_log_anchor', {
  id: integer().primaryKey(),
  seq: bigint({ mode: 'number' }).notNull(),
  hash: text().notNull(),
  prunedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
});

/** Something an erasure keeps until its retention ends: `since` plus the company's evidence retention. */
export interface PendingErasure {
  object: 'videocall' | 'document' | 'aml';
  id: number;
  /** ISO time the retention counts from (a call's end, a document's upload, the latest screening). */
  since: string;
}

/** Erasures of profiles: the request, and what waits for its retention to end (server/domain/erasure.ts). */
export const profileErasures = pgTable(
  'profile_erasures',
  {
    profileId: integer()
      .primaryKey()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    requestedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    requestedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
    reason: text().notNull(),
    pending: jsonb().$type<PendingErasure[]>().notNull().default([]),
    completedAt: timestamp({ withTimezone: true, mode: 'date' }),
  },
  (t) => [index('profile_erasures_open').on(t.companyId).where(sql`${t.completedAt} IS NULL`)],
);
