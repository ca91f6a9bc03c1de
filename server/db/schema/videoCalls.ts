/** Video calls and the questions asked and answered in them. */
import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, interval, pgTable, text, unique } from 'drizzle-orm/pg-core';
import { createdAt, id, ts } from './columns';
import { companies, users } from './companies';
import { profiles } from './profiles';

export const videoCalls = pgTable(
  'video_calls',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    agentId: integer().references(() => users.id, { onDelete: 'set null' }),
    roomId: text().notNull(),
    status: integer().notNull().default(0),
    callStartTime: ts(),
    callEndTime: ts(),
    recordingKey: text(),
    recordingSize: bigint({ mode: 'number' }),
    /**
     * Why the call was closed when its agent did not set the status: a CALL_END_REASONS code
     * (contract/constants.ts); null for a status the agent set.
     */
    endReason: text(),
    /** Who set the final status: the agent, an admin (close or correction); null when the server closed it. */
    statusSetBy: integer(),
    /**
     * The reason id given with the final status: one of the company's decision reasons for COMPLETE,
     * of its abort reasons otherwise; required on a guided call. Not the Admin correction's free text.
     */
    outcomeReason: text(),
    /** SHA-256 (hex) of the stored recording (written once, checked again when served). */
    recordingSha256: text(),
    /** SHA-256 (hex) of the join-link token the customer created the call with (one call per link at a time). */
    joinLink: text(),
    /**
     * The customer's consent on the join page: when, from which address, in which language, and the
     * text they agreed to as it read then. Null: no consent was given (the company's procedure asks none).
     */
    consentAt: ts(),
    consentIp: text(),
    consentLanguage: text(),
    consentText: text(),
    /** The step of the guided procedure the agent shows the customer now (null: none yet). */
    currentStep: text(),
    /** When the retention job deleted the call's evidence; the row itself stays. */
    evidenceDeletedAt: ts(),
    createdAt: createdAt(),
  },
  (t) => [
    // The calls list, newest first, by keyset (docs/decisions/0164-keyset-lists.md): each ends in the id that breaks ties.
    index('video_calls_profile').on(t.profileId, t.createdAt, t.id),
    index('video_calls_join_link').on(t.joinLink, t.status),
    index('video_calls_recording_key').on(t.recordingKey),
    index('video_calls_company_status').on(t.companyId, t.status, t.createdAt, t.id),
    // The call report and the dashboard: a company's calls created in a range.
    index('video_calls_company_created').on(t.companyId, t.createdAt, t.id),
    // Instant statistics: the calls a company's agents answered today.
    index('video_calls_company_started').on(t.companyId, t.callStartTime),
    // The evidence retention job: calls whose recording is still kept, by the time they ended.
    index('video_calls_retention')
      .on(t.companyId, sql`coalesce(${t.callEndTime}, ${t.createdAt})`)
      .where(sql`${t.recordingKey} IS NOT NULL AND ${t.evidenceDeletedAt} IS NULL`),
  ],
);

/**
 * The call figures of a company per UTC day (of created_at), agent (null: nobody took the call) and status
 * (docs/decisions/0167-call-rollups.md): what the call report and the dashboard read. Written only by the triggers of migration
 * 0035 on video_calls, in the transaction that writes the calls; rows at zero calls are deleted.
 */
export const callRollups = pgTable(
  'call_rollups',
  {
    companyId: integer().notNull(),
    day: date().notNull(),
    agentId: integer(),
    status: integer().notNull(),
    calls: integer().notNull().default(0),
    /** calls with a start time */
    answered: integer().notNull().default(0),
    /** calls that end at or after their start */
    handled: integer().notNull().default(0),
    /** the sum of end − start of the handled calls */
    handling: interval().notNull().default('0'),
  },
  (t) => [unique('call_rollups_key').on(t.companyId, t.day, t.agentId, t.status).nullsNotDistinct()],
);

export const videoCallQuestions = pgTable('video_call_questions', {
  id: id(),
  companyId: integer()
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  sortOrder: integer().notNull(),
  textEn: text().notNull(),
  textTr: text().notNull(),
});

export const videoCallAnswers = pgTable(
  'video_call_answers',
  {
    id: id(),
    callId: integer()
      .notNull()
      .references(() => videoCalls.id, { onDelete: 'cascade' }),
    questionId: integer().references(() => videoCallQuestions.id, { onDelete: 'set null' }),
    value: text(),
    note: text(),
    authorId: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('video_call_answers_call').on(t.callId)],
);
