/** Customer profiles with their notes, logs and transactions. */
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { PROFILE_STATUSES, RISK_LEVELS } from '#contract/constants';
import { createdAt, id, ts } from './columns';
import { companies, users } from './companies';

/**
 * The customers list's sort keys that are expressions (docs/decisions/0164-keyset-lists.md): never null, so one row comparison
 * `(key, id) > (…)` seeks a page, and indexed as written here (migration 0033), so the planner matches
 * the ORDER BY to the index. A profile without a status change sorts as if changed at infinity (last
 * ascending, first descending: where PostgreSQL put the nulls), one without a name as the empty name.
 */
export const profileSortKey = {
  lastStatusDate: (column: AnyColumn): SQL => sql`coalesce(${column}, 'infinity'::timestamptz)`,
  name: (column: AnyColumn): SQL => sql`coalesce(${column}, '')`,
  /** Position in a list of values, so statuses and risk levels sort in the order of docs/product/states.md. */
  position: (values: readonly string[], column: AnyColumn): SQL => {
    const list = values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',');
    return sql`coalesce(array_position(ARRAY[${sql.raw(list)}]::text[], ${column}), 0)`;
  },
};

export const profiles = pgTable(
  'profiles',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    idCardNumber: text().notNull(),
    name: text(),
    gender: text(),
    email: text(),
    phone: text(),
    /** Folded name, e-mail and ID number and the phone's digits, one a line: what a search looks in (0034). */
    searchText: text().generatedAlwaysAs(sql`profile_search_text(name, email, id_card_number, phone)`),
    nationality: text(),
    dateOfBirth: date({ mode: 'string' }),
    addressProvince: text(),
    addressCity: text(),
    addressStreet: text(),
    status: text().notNull().default('Created'),
    riskLevel: text().notNull().default('Unknown'),
    rejectReason: text(),
    /** Government-check data (extra data, GET /profile/{id}/nvi). */
    extraData: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    source: text().notNull().default('studio'),
    qualityCheck: jsonb().$type<Record<string, unknown>>(),
    aliases: jsonb().$type<string[]>().notNull().default([]),
    riskScores: jsonb().$type<{ phone: number | null; email: number | null; ip: number | null }>(),
    summary: text(),
    /** Bumped by every write: GET answers it as `version` and `ETag`, writes send it as If-Match. */
    version: integer().notNull().default(1),
    createdAt: createdAt(),
    updatedAt: createdAt(),
    lastStatusDate: ts(),
    /** A legal hold: the evidence of this profile's calls outlives the company's retention. */
    legalHold: boolean().notNull().default(false),
    legalHoldReason: text(),
    legalHoldBy: integer(),
    legalHoldAt: ts(),
  },
  (t) => [
    // Ascending on purpose: a backward scan serves `ORDER BY created_at DESC, id DESC` (NULLS FIRST). Migration
    // 0039 adds INCLUDE (search_text), which drizzle's builder cannot say: a search's ids come from the index alone.
    index('profiles_company_created').on(t.companyId, t.createdAt, t.id),
    // The list's filters with its default ordering, and every ordering it offers (migration 0033). Migration 0040
    // adds INCLUDE to the orderings' expression indexes (each its column; by name search_text too): a page's ids
    // come from the index alone.
    index('profiles_company_status_created').on(t.companyId, t.status, t.createdAt, t.id),
    index('profiles_company_risk_created').on(t.companyId, t.riskLevel, t.createdAt, t.id),
    index('profiles_company_source_created').on(t.companyId, t.source, t.createdAt, t.id),
    index('profiles_company_updated').on(t.companyId, t.updatedAt, t.id),
    index('profiles_company_id').on(t.companyId, t.id),
    index('profiles_company_status_changed_key').on(
      t.companyId,
      profileSortKey.lastStatusDate(t.lastStatusDate),
      t.id,
    ),
    index('profiles_company_name_key').on(t.companyId, profileSortKey.name(t.name), t.id),
    index('profiles_company_status_key').on(
      t.companyId,
      profileSortKey.position(PROFILE_STATUSES, t.status),
      t.id,
    ),
    index('profiles_company_risk_key').on(
      t.companyId,
      profileSortKey.position(RISK_LEVELS, t.riskLevel),
      t.id,
    ),
    // The dashboard (GET /bitool): approvals and rejections by their last status change.
    index('profiles_company_status_date').on(t.companyId, t.lastStatusDate),
    // The list's search (migration 0034, docs/decisions/0165-profile-search-by-index.md, server/domain/profileSearch.ts): substrings by trigrams,
    // 1–2 character name prefixes, exact ID numbers.
    index('profiles_search_trgm').using('gin', sql`${t.searchText} gin_trgm_ops`).with({ fastupdate: false }),
    index('profiles_company_search_prefix').on(
      t.companyId,
      sql`(left(${t.searchText}, 64)) text_pattern_ops`,
    ),
    index('profiles_company_id_card').on(t.companyId, t.idCardNumber),
  ],
);

export const notes = pgTable(
  'notes',
  {
    id: id(),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    authorId: integer().references(() => users.id, { onDelete: 'set null' }),
    /** note | agent (POST /profile/{id}/agent_note) */
    kind: text().notNull().default('note'),
    note: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('notes_profile').on(t.profileId, t.createdAt)],
);

export const profileLogs = pgTable(
  'profile_logs',
  {
    id: id(),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    actorId: integer().references(() => users.id, { onDelete: 'set null' }),
    /** An event code of contract/logEvents.ts (PROFILE_LOG_EVENTS); `data` holds its parameters. */
    action: text().notNull(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('profile_logs_profile').on(t.profileId, t.id)],
);

/** Payments and transfers of a customer (the Transactions tab; company service `transactions`). */
export const transactions = pgTable(
  'transactions',
  {
    id: id(),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    occurredAt: ts().notNull(),
    /** deposit | withdrawal | transfer_in | transfer_out | card_payment */
    kind: text().notNull(),
    /** In minor units (cents, kuruş). */
    amountMinor: integer().notNull(),
    currency: text().notNull(),
    counterparty: text(),
    /** completed | pending | declined */
    status: text().notNull(),
    flagReason: text(),
  },
  (t) => [index('transactions_profile').on(t.profileId, t.occurredAt)],
);
