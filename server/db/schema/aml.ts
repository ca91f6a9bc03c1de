/** AML screening results and their history. */
import { boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id, ts } from './columns';
import { users } from './companies';
import { profiles } from './profiles';

export const amlResults = pgTable('aml_results', {
  id: id(),
  profileId: integer()
    .notNull()
    .unique()
    .references(() => profiles.id, { onDelete: 'cascade' }),
  lists: jsonb().$type<string[]>().notNull().default([]),
  score: integer().notNull().default(0),
  records: jsonb().$type<Record<string, unknown>[]>().notNull().default([]),
  approved: boolean(),
  approvedBy: integer().references(() => users.id, { onDelete: 'set null' }),
  approvedAt: ts(),
  updatedAt: createdAt(),
});

export const amlHistory = pgTable(
  'aml_history',
  {
    id: id(),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    provider: text().notNull(),
    /** clear | hit | error */
    status: text().notNull(),
    scannedDatabase: text().notNull(),
    matches: integer().notNull().default(0),
    records: jsonb().$type<Record<string, unknown>[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [
    index('aml_history_profile').on(t.profileId, t.createdAt),
    // The dashboard (GET /bitool): screenings in a range (joined to the company's profiles).
    index('aml_history_created').on(t.createdAt, t.profileId),
  ],
);
