/**
 * The reviewers' desk: cases (a profile needing a decision) in queues per company, assignment, SLA,
 * Next case, four-eyes decisions and reason codes. Server: `server/domain/review/*`, `server/routes/review.ts`.
 */
import { z } from 'zod';
import {
  idSchema,
  idText,
  isoDateTime,
  keysetPageSchema,
  keysetPagingQuery,
  lineText,
  multilineText,
  profileStatusSchema,
  riskLevelSchema,
} from './common';

/** What made a case: a profile set to Pending Review, a finished video call, an AML hit, an uploaded document. */
export const REVIEW_CASE_KINDS = [
  'pending_review',
  'video_identification',
  'aml_hit',
  'document_review',
] as const;
export type ReviewCaseKind = (typeof REVIEW_CASE_KINDS)[number];

/**
 * open: waiting for a reviewer's decision; awaiting_second_review: a maker's approval waits for a checker;
 * awaiting_customer, snoozed: the SLA clock stands still; escalated: in a senior queue; decided: closed.
 */
export const REVIEW_CASE_STATES = [
  'open',
  'awaiting_second_review',
  'awaiting_customer',
  'snoozed',
  'escalated',
  'decided',
] as const;
export type ReviewCaseState = (typeof REVIEW_CASE_STATES)[number];

export const REVIEW_DECISIONS = ['approve', 'reject', 'resubmit', 'escalate', 'abort'] as const;
export type ReviewDecision = (typeof REVIEW_DECISIONS)[number];
/** Decisions that carry reason codes (Admins edit their lists). */
export const REASON_DECISIONS = ['reject', 'resubmit', 'escalate', 'abort'] as const;
export type ReasonDecision = (typeof REASON_DECISIONS)[number];

/** Saved views of the case list. */
export const REVIEW_VIEWS = ['mine', 'unassigned', 'overdue', 'escalated', 'awaiting_second_review'] as const;

/** The company's four-eyes rules: when an approval needs a second reviewer. */
export const FOUR_EYES_RULES = [
  'approve_high_risk',
  'approve_after_failed_step',
  'override_aml_hit',
  'every_approval',
] as const;
export type FourEyesRule = (typeof FOUR_EYES_RULES)[number];

export const REVIEW_LIMITS = {
  /** A note of a decision, an escalation or a return: trimmed, at most this many characters. */
  noteMax: 1000,
  /** An escalation and a return need a note of at least this many characters (as reject reasons). */
  noteMin: 10,
  codeMax: 40,
  labelMax: 200,
  /** Reason codes per company. */
  codesMax: 100,
  /** Snooze at most this many days ahead. */
  snoozeDaysMax: 365,
  queueSlaHoursMax: 8760,
  capacityMax: 1000,
} as const;

export const REVIEW_DETAILS = {
  notAssignee: 'Only the assignee of the case or an Admin may do this',
  caseDecided: 'The case is already decided',
  awaitingSecond: 'The case is awaiting a second review',
  notAwaitingSecond: 'The case is not awaiting a second review',
  makerCannotCheck: 'The maker of a decision cannot review it a second time',
  takenByOther: 'The case is assigned to someone else',
  notEligible: 'This user cannot review cases of this queue',
  reasonRequired: 'A reason code is required for this decision',
  unknownReason: 'Unknown reason code for this decision',
  noteRequired: 'This reason code needs a note',
  noteTooShort: `The note must be at least ${REVIEW_LIMITS.noteMin} characters`,
  alreadySenior: 'The case is already in a senior queue',
  noSeniorQueue: 'The company has no senior queue',
  snoozeInPast: 'Snooze until a time in the future',
  snoozeTooFar: `Snooze at most ${REVIEW_LIMITS.snoozeDaysMax} days ahead`,
  notWaiting: 'The case is not waiting',
  noCase: 'No case is waiting in your queues',
  duplicateCode: 'Each reason code appears once per decision',
  unknownQueue: 'Unknown review queue',
  decisionWaits: 'A decision on this profile awaits a second review: confirm or return it on the review desk',
  changeWaits: 'The change waits for a second review',
  cannotWait:
    'This change needs a second review, and only Approved, Rejected or Pending Upload can wait for one: choose one of them',
  notConfirmed: 'This decision needs the confirmation of a second reviewer',
} as const;

/** A four-eyes answer's detail with the rules that caught the change: `… (four-eyes: approve_high_risk)`. */
export const withRules = (detail: string, rules: readonly FourEyesRule[]) =>
  rules.length > 0 ? `${detail} (four-eyes: ${rules.join(', ')})` : detail;

const note = multilineText.trim().max(REVIEW_LIMITS.noteMax);
/** A note that must say something (escalation, return). */
const longNote = note.min(REVIEW_LIMITS.noteMin, REVIEW_DETAILS.noteTooShort);
const reasonCode = lineText
  .trim()
  .min(1)
  .max(REVIEW_LIMITS.codeMax)
  .regex(/^[a-z0-9_]+$/, 'A reason code has lower-case letters, digits and underscores');

// ---------------------------------------------------------------- reads

export const reviewQueueSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  sla_hours: z.number().int(),
  senior: z.boolean(),
  auto_assign: z.boolean(),
  /** Open cases (not decided) of the queue, and those past their due time among them. */
  open: z.number().int(),
  overdue: z.number().int(),
  /** Cases whose maker's decision waits for a checker (four-eyes). */
  awaiting_second_review: z.number().int(),
});
export type ReviewQueue = z.infer<typeof reviewQueueSchema>;

/** PUT /review/queues/{id} (Admins): the SLA in hours and whether new cases are auto-assigned. */
export const queueBodySchema = z.strictObject({
  sla_hours: z.number().int().min(1).max(REVIEW_LIMITS.queueSlaHoursMax).optional(),
  auto_assign: z.boolean().optional(),
});
export type QueueBody = z.infer<typeof queueBodySchema>;

export const reviewCaseSchema = z.object({
  id: z.number().int(),
  profile: z.number().int(),
  profile_name: z.string(),
  profile_status: profileStatusSchema,
  risk_level: riskLevelSchema,
  kind: z.enum(REVIEW_CASE_KINDS),
  queue: z.number().int(),
  queue_name: z.string(),
  state: z.enum(REVIEW_CASE_STATES),
  assignee: z.number().int().nullable(),
  assignee_name: z.string().nullable(),
  /** When the SLA runs out; moved on by the time the clock stood still (awaiting customer, snoozed). */
  due_at: isoDateTime,
  overdue: z.boolean(),
  snoozed_until: isoDateTime.nullable(),
  decision: z.enum(REVIEW_DECISIONS).nullable(),
  reason_code: z.string().nullable(),
  created_at: isoDateTime,
  updated_at: isoDateTime,
  decided_at: isoDateTime.nullable(),
});
export type ReviewCase = z.infer<typeof reviewCaseSchema>;

export const REVIEW_EVENT_KINDS = [
  'opened',
  'assigned',
  'unassigned',
  'decision_pending',
  'confirmed',
  'returned',
  'decided',
  'escalated',
  'awaiting_customer',
  'snoozed',
  'resumed',
  'reopened',
  'moved',
] as const;
export type ReviewEventKind = (typeof REVIEW_EVENT_KINDS)[number];

export const reviewEventSchema = z.object({
  id: z.number().int(),
  kind: z.enum(REVIEW_EVENT_KINDS),
  actor: z.number().int().nullable(),
  data: z.record(z.string(), z.unknown()),
  created_at: isoDateTime,
});
export type ReviewEvent = z.infer<typeof reviewEventSchema>;

export const pendingDecisionSchema = z.object({
  id: z.number().int(),
  /** The maker's user id (null when that user was deleted). */
  maker: z.number().int().nullable(),
  decision: z.enum(REVIEW_DECISIONS),
  reason_code: z.string().nullable(),
  note: z.string().nullable(),
  created_at: isoDateTime,
  /** Which rules asked for the second review. */
  rules: z.array(z.enum(FOUR_EYES_RULES)),
});

export const reviewCaseDetailSchema = reviewCaseSchema.extend({
  pending: pendingDecisionSchema.nullable(),
  timeline: z.array(reviewEventSchema),
});
export type ReviewCaseDetail = z.infer<typeof reviewCaseDetailSchema>;

export const reviewCasePageSchema = keysetPageSchema(reviewCaseSchema);

export const reviewCaseListQuery = z.strictObject({
  ...keysetPagingQuery,
  queue: idText.optional(),
  assignee: idText.optional(),
  /** The cases of one profile (the profile screen's case panel). */
  profile: idText.optional(),
  view: z.enum(REVIEW_VIEWS).optional(),
  /** Cases due before this moment (ISO date-time with an offset). */
  due_before: z.iso.datetime({ offset: true, error: 'Expected an ISO 8601 date-time' }).optional(),
  /** Soonest due first (`due_at`, the default) or latest due first (`-due_at`). */
  ordering: z.enum(['due_at', '-due_at']).optional(),
  /** Decided cases are left out unless `state` asks for them. */
  state: z.enum(REVIEW_CASE_STATES).optional(),
});
export type ReviewCaseListQuery = z.infer<typeof reviewCaseListQuery>;

// ---------------------------------------------------------------- writes

/** POST /review/cases/{id}/assign: `{ user }`, or `{}` to take the case yourself. */
export const assignBodySchema = z.strictObject({ user: idSchema.optional() });
export type AssignBody = z.infer<typeof assignBodySchema>;

export const decisionBodySchema = z.strictObject({
  decision: z.enum(REVIEW_DECISIONS),
  reason_code: reasonCode.nullable().optional(),
  note: note.nullable().optional(),
});
export type DecisionBody = z.infer<typeof decisionBodySchema>;

export const decisionAnswerSchema = z.object({
  /** True: the decision waits for another reviewer (four-eyes); the profile is unchanged until then. */
  second_review_required: z.boolean(),
  rules: z.array(z.enum(FOUR_EYES_RULES)),
  case: reviewCaseSchema,
});
export type DecisionAnswer = z.infer<typeof decisionAnswerSchema>;

export const confirmBodySchema = z.strictObject({ note: note.nullable().optional() });
export const returnBodySchema = z.strictObject({ note: longNote });
export const snoozeBodySchema = z.strictObject({
  until: z.iso.datetime({ offset: true, error: 'Expected an ISO 8601 date-time' }),
  note: note.nullable().optional(),
});
/** POST /review/cases/{id}/move: to another queue of the company. */
export const moveBodySchema = z.strictObject({ queue: idSchema });
export const awaitCustomerBodySchema = z.strictObject({ note: note.nullable().optional() });

export const rulesSchema = z.object({
  approve_high_risk: z.boolean(),
  approve_after_failed_step: z.boolean(),
  override_aml_hit: z.boolean(),
  every_approval: z.boolean(),
});
export type FourEyesRules = z.infer<typeof rulesSchema>;
export const rulesBodySchema = z.strictObject(rulesSchema.shape);

export const reasonCodeSchema = z.object({
  decision: z.enum(REASON_DECISIONS),
  code: z.string(),
  label_en: z.string(),
  label_tr: z.string(),
  /** The reason code needs a note. */
  note_required: z.boolean(),
});
export type ReasonCode = z.infer<typeof reasonCodeSchema>;

const label = lineText.trim().min(1).max(REVIEW_LIMITS.labelMax);
/** PUT /review/reason_codes: the whole list, replacing the stored one. */
export const reasonCodesBodySchema = z.strictObject({
  codes: z
    .array(
      z.strictObject({
        decision: z.enum(REASON_DECISIONS),
        code: reasonCode,
        label_en: label,
        label_tr: label,
        note_required: z.boolean().default(false),
      }),
    )
    .max(REVIEW_LIMITS.codesMax)
    .refine(
      (codes) => new Set(codes.map((c) => `${c.decision}/${c.code}`)).size === codes.length,
      REVIEW_DETAILS.duplicateCode,
    ),
});
export const reasonCodesSchema = z.object({ codes: z.array(reasonCodeSchema) });

export const reviewerSchema = z.object({
  user: z.number().int(),
  name: z.string(),
  capacity: z.number().int(),
  away: z.boolean(),
  /** Cases assigned to the reviewer and not decided. */
  load: z.number().int(),
  second_review: z.boolean(),
});
export type Reviewer = z.infer<typeof reviewerSchema>;
export const reviewerBodySchema = z.strictObject({
  capacity: z.number().int().min(0).max(REVIEW_LIMITS.capacityMax).optional(),
  away: z.boolean().optional(),
});
