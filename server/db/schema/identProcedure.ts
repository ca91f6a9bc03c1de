/** The identification procedure of each company and the step results of its calls. */
import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { IdentProcedureFields } from '#contract/identProcedure';
import { createdAt, id } from './columns';
import { companies, users } from './companies';
import { videoCalls } from './videoCalls';

/** One row per company that saved a procedure; a company without one follows DEFAULT_IDENT_PROCEDURE. */
export const identProcedures = pgTable('ident_procedures', {
  companyId: integer()
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  /** The procedure as the contract writes it (steps, consent text, abort and decision reasons). */
  procedure: jsonb().$type<Omit<IdentProcedureFields, 'guided'>>().notNull(),
  /** Agents are guided through the steps; a passing status needs every mandatory step passed. */
  guided: boolean().notNull().default(false),
  /** Bumped by every save (If-Match); the default template is version 0. */
  version: integer().notNull().default(1),
  updatedAt: timestamp({ withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedBy: integer().references(() => users.id, { onDelete: 'set null' }),
});

/** The result of one step of a call, written once by the call's agent (evidence: never updated). */
export const videoCallSteps = pgTable(
  'video_call_steps',
  {
    id: id(),
    callId: integer()
      .notNull()
      .references(() => videoCalls.id, { onDelete: 'cascade' }),
    kind: text().notNull(),
    /** passed, failed or skipped. */
    result: text().notNull(),
    details: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    /** Milliseconds into the call's recording. */
    offsetMs: integer().notNull(),
    createdAt: createdAt(),
    createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('video_call_steps_call').on(t.callId, t.offsetMs)],
);

/**
 * A screenshot of the customer's video taken by the agent for a step of a call: the image in
 * storage with the SHA-256 it was stored with. The retention job clears `storageKey` and `size` when it
 * deletes the call's evidence (the hash stays); a call deleted takes its rows with it.
 */
export const videoCallScreenshots = pgTable(
  'video_call_screenshots',
  {
    id: id(),
    callId: integer()
      .notNull()
      .references(() => videoCalls.id, { onDelete: 'cascade' }),
    /** The step it was taken for (SCREENSHOT_STEPS). */
    kind: text().notNull(),
    storageKey: text().unique(),
    contentType: text().notNull(),
    size: integer(),
    sha256: text().notNull(),
    createdAt: createdAt(),
    createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('video_call_screenshots_call').on(t.callId, t.id)],
);
