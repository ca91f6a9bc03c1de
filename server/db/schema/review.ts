/** The reviewers' desk: queues, cases and their timeline, reviewers, four-eyes rules, reason codes. */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, ts } from './columns';
import { companies, users } from './companies';
import { profiles } from './profiles';

/** A company's queues (default Identity, AML and the senior Escalations), made on first use. */
export const reviewQueues = pgTable(
  'review_queues',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    slaHours: integer().notNull(),
    /** Escalations land in a senior queue; only reviewers with second_review (and Admins) work it. */
    senior: boolean().notNull().default(false),
    /** New cases go at once to the least-loaded eligible reviewer (capacity and away respected). */
    autoAssign: boolean().notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('review_queues_company_name').on(t.companyId, t.name)],
);

/** A profile needing a decision. One case per profile and kind is open (not decided) at a time. */
export const reviewCases = pgTable(
  'review_cases',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    kind: text().notNull(),
    queueId: integer()
      .notNull()
      .references(() => reviewQueues.id),
    state: text().notNull().default('open'),
    assigneeId: integer().references(() => users.id, { onDelete: 'set null' }),
    assignedAt: ts(),
    dueAt: ts().notNull(),
    /** When the SLA clock stopped (awaiting customer, snoozed); null while it runs. */
    pausedAt: ts(),
    snoozedUntil: ts(),
    decision: text(),
    reasonCode: text(),
    createdAt: createdAt(),
    updatedAt: createdAt(),
    decidedAt: ts(),
  },
  (t) => [
    uniqueIndex('review_cases_one_open').on(t.profileId, t.kind).where(sql`${t.state} <> 'decided'`),
    index('review_cases_queue_due').on(t.companyId, t.queueId, t.dueAt).where(sql`${t.state} <> 'decided'`),
    // The desk's list of open cases, by due time (docs/decisions/0164-keyset-lists.md).
    index('review_cases_company_due').on(t.companyId, t.dueAt, t.id).where(sql`${t.state} <> 'decided'`),
    index('review_cases_assignee').on(t.assigneeId).where(sql`${t.state} <> 'decided'`),
    index('review_cases_snoozed').on(t.snoozedUntil).where(sql`${t.state} = 'snoozed'`),
  ],
);

/** What happened to a case, in order: the timeline screens, metrics and webhooks read. */
export const reviewCaseEvents = pgTable(
  'review_case_events',
  {
    id: id(),
    caseId: integer()
      .notNull()
      .references(() => reviewCases.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    actorId: integer().references(() => users.id, { onDelete: 'set null' }),
    kind: text().notNull(),
    data: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index('review_case_events_case').on(t.caseId, t.id)],
);

/** A reviewer's capacity (auto-assignment stops there) and away status; a user without a row has the defaults. */
export const reviewerSettings = pgTable('reviewer_settings', {
  userId: integer()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  capacity: integer().notNull().default(10),
  away: boolean().notNull().default(false),
  updatedAt: createdAt(),
});

/** A company's four-eyes rules; its row is made with the default queues and reason codes on first use. */
export const reviewRules = pgTable('review_rules', {
  companyId: integer()
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  approveHighRisk: boolean().notNull().default(false),
  approveAfterFailedStep: boolean().notNull().default(false),
  overrideAmlHit: boolean().notNull().default(false),
  everyApproval: boolean().notNull().default(false),
  updatedAt: createdAt(),
  updatedBy: integer().references(() => users.id, { onDelete: 'set null' }),
});

/** Reason codes per decision: a decision with codes needs one; a code may also need a note. */
export const reviewReasonCodes = pgTable(
  'review_reason_codes',
  {
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    decision: text().notNull(),
    code: text().notNull(),
    labelEn: text().notNull(),
    labelTr: text().notNull(),
    noteRequired: boolean().notNull().default(false),
    sortOrder: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.decision, t.code] })],
);

/** A maker's decision waiting for a checker (four-eyes); confirmed or returned once. */
export const reviewPendingDecisions = pgTable(
  'review_pending_decisions',
  {
    id: id(),
    caseId: integer()
      .notNull()
      .references(() => reviewCases.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    makerId: integer().references(() => users.id, { onDelete: 'set null' }),
    decision: text().notNull(),
    reasonCode: text(),
    note: text(),
    /** The rules that asked for the second review. */
    rules: jsonb().$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
    /** confirmed | returned; null while waiting. */
    outcome: text(),
    resolvedBy: integer().references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: ts(),
    resolveNote: text(),
  },
  (t) => [uniqueIndex('review_pending_one_per_case').on(t.caseId).where(sql`${t.outcome} IS NULL`)],
);
