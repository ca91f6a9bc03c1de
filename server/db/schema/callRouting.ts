/** One-at-a-time routing: every offer of a waiting call to one agent, and why that agent. */
import { boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id, ts } from './columns';
import { companies, users } from './companies';
import { videoCalls } from './videoCalls';

export const callOffers = pgTable(
  'call_offers',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    callId: integer()
      .notNull()
      .references(() => videoCalls.id, { onDelete: 'cascade' }),
    agentId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The customer's language (the join page's), null when the call does not say. */
    language: text(),
    /** False: no free agent spoke the language, so every free agent was a candidate. */
    languageMatched: boolean().notNull(),
    /** How many free agents were candidates, and the fewest calls in the last hour among them. */
    candidates: integer().notNull(),
    fewestCalls: integer().notNull(),
    expiresAt: ts().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('call_offers_call').on(t.callId, t.createdAt)],
);
