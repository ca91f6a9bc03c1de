import { z } from 'zod';
import { QUICK_ADD_ID_PATTERN, REJECT_REASON_MIN, STATUSES_NEEDING_REASON } from './constants';

export { QUICK_ADD_ID_PATTERN, REJECT_REASON_MIN, STATUSES_NEEDING_REASON };

import { EMAIL_MESSAGE } from './auth';
import { calendarDate, idSchema, lineText, multilineText, profileStatusSchema } from './common';
import { checklistQuestionSchema, noteBodySchema, noteSchema } from './notes';
import { profileSchema } from './profiles';
import { FOUR_EYES_RULES, REVIEW_DECISIONS } from './review';

/**
 * Bodies and answers of the profile write paths. Every error is `{ detail }`; lengths are
 * counted after trimming (docs/product/validation.md#lengths).
 */

export const REJECT_REASON_MESSAGE = 'Reject reason must be at least 10 characters';
/** The text of an answer with `result: false`. */
export const STATUS_CHANGE_FAILED = 'Status change failed';
/** A profile edit requires address details. */
export const ADDRESS_MESSAGE = 'Please enter address details';
export const DUPLICATE_ID_CARD_MESSAGE = 'A profile with this id card number already exists';

/** Optional text (one line, or several with `lines`): trimmed, blank becomes null. */
const text = (max: number, lines = false) =>
  (lines ? multilineText : lineText)
    .trim()
    .max(max)
    .nullable()
    .transform((v) => (v === '' ? null : v));

/** The e-mail rule (6 to 254 characters, local part up to 64). */
const emailPattern = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/;
const emailField = lineText
  .trim()
  .min(6, EMAIL_MESSAGE)
  .max(254, EMAIL_MESSAGE)
  .regex(emailPattern, EMAIL_MESSAGE);
/** An e-mail that may be cleared (blank or null). */
const optionalEmail = lineText
  .trim()
  .max(254, EMAIL_MESSAGE)
  .nullable()
  .refine((v) => v === null || v === '' || (v.length >= 6 && emailPattern.test(v)), EMAIL_MESSAGE)
  .transform((v) => (v === '' ? null : v));

// ---------------------------------------------------------------- PATCH /profile/{id}/status

/** PATCH /api/v2/profile/{id}/status */
export const statusChangeBodySchema = z.strictObject({
  status: profileStatusSchema,
  /** Needed (≥ 10 characters after trimming) for Rejected and Blacklisted; ignored otherwise. */
  reject_reason: multilineText.max(1000).nullable().optional(),
});
export type StatusChangeBody = z.infer<typeof statusChangeBodySchema>;

/**
 * 200 in both cases: `result: true` with the new status, or `result: false` with the unchanged
 * current status and `detail: 'Status change failed'` (a transition the server does not allow).
 */
export const statusChangeResponseSchema = z.object({
  result: z.boolean(),
  status: profileStatusSchema,
  detail: z.string().optional(),
});
export type StatusChangeResponse = z.infer<typeof statusChangeResponseSchema>;

/**
 * 202: the company's four-eyes rules caught the change. It did not happen; it waits as the caller's decision on
 * the profile's review case (`awaiting_second_review`) until another reviewer with second_review confirms it
 * (the status changes then) or returns it.
 */
export const statusChangeHeldSchema = z.object({
  result: z.literal(false),
  /** The profile's status, unchanged. */
  status: profileStatusSchema,
  detail: z.string(),
  second_review: z.object({
    case: z.number().int(),
    decision: z.enum(REVIEW_DECISIONS),
    rules: z.array(z.enum(FOUR_EYES_RULES)),
  }),
});
export type StatusChangeHeld = z.infer<typeof statusChangeHeldSchema>;

/**
 * 409 of a status change four-eyes refuses: a decision on the profile already awaits a second review, or the
 * rules caught a change the desk cannot hold (a temporary approval, a blacklisting). `case` is the profile's
 * case concerned, when there is one.
 */
export const FOUR_EYES_REFUSALS = ['decision_waits', 'cannot_wait', 'not_confirmed'] as const;
export const fourEyesRefusalSchema = z.object({
  detail: z.string(),
  /** decision_waits: a decision on the profile awaits a second review; cannot_wait: the desk cannot hold this change. */
  reason: z.enum(FOUR_EYES_REFUSALS),
  rules: z.array(z.enum(FOUR_EYES_RULES)),
  case: z.number().int().nullable(),
});
export type FourEyesRefusal = z.infer<typeof fourEyesRefusalSchema>;

// ---------------------------------------------------------------- POST /profile

/** POST /api/v2/profile (quick add: `id_card_number` = `qa_…`, name and gender null). Answers 201 the profile. */
export const profileCreateBodySchema = z.strictObject({
  id_card_number: lineText.trim().min(1).max(64),
  name: text(200).optional(),
  gender: text(32).optional(),
});
export type ProfileCreateBody = z.input<typeof profileCreateBodySchema>;
export const profileCreateResponseSchema = profileSchema;

// ---------------------------------------------------------------- PATCH /profile/{id}

export const addressBodySchema = z.strictObject({
  province: text(200).optional(),
  city: text(200).optional(),
  street: text(500).optional(),
});

/**
 * PATCH /api/v2/profile/{id}: any of these fields; unknown fields are 400. Blank text is stored as null.
 * An address that differs from the stored one must have all three parts (400 "Please enter address
 * details"). `date_of_birth` is YYYY-MM-DD, from 1900-01-01, not in the future. Answers 200 the profile.
 */
export const profileEditBodySchema = z.strictObject({
  name: text(200).optional(),
  gender: text(32).optional(),
  email: optionalEmail.optional(),
  phone: text(32)
    .refine((v) => v === null || /^\+?[0-9 ().-]{3,32}$/.test(v), 'This is not a valid phone number.')
    .optional(),
  nationality: text(64).optional(),
  date_of_birth: calendarDate
    .refine((v) => v >= '1900-01-01', 'Date of birth is too early')
    .refine((v) => v <= new Date().toISOString().slice(0, 10), 'Date of birth can not be in the future')
    .nullable()
    .optional()
    .describe('ISO 8601 date (YYYY-MM-DD)'),
  address: addressBodySchema.optional(),
});
export type ProfileEditBody = z.input<typeof profileEditBodySchema>;
export const profileEditResponseSchema = profileSchema;

// ---------------------------------------------------------------- notes

/** POST /api/v2/profile/{id}/note and /agent_note: `{ note }` 10 to 200 characters. Answers 201 the note. */
export const noteCreateBodySchema = noteBodySchema;
export type NoteCreateBody = z.input<typeof noteCreateBodySchema>;
export const noteCreateResponseSchema = noteSchema;

// ---------------------------------------------------------------- checklist

/** POST /api/v2/profile/{id}/answer: one answer per question and profile (a second one replaces it). */
export const checklistAnswerBodySchema = z.strictObject({
  question: idSchema,
  value: z.boolean(),
  /** Omitted: the stored note stays; null or blank: cleared. */
  note: text(200, true).optional(),
});
export type ChecklistAnswerBody = z.input<typeof checklistAnswerBodySchema>;
/** 200: the question with this profile's answer, as in GET /profile/{id}/checklist. */
export const checklistAnswerResponseSchema = checklistQuestionSchema;

// ---------------------------------------------------------------- summary

/** POST /api/v2/profile/{id}/generate_summary: the question for the AI agent, at least 10 characters. */
export const generateSummaryBodySchema = z.strictObject({ question: multilineText.trim().min(10).max(500) });
export type GenerateSummaryBody = z.input<typeof generateSummaryBodySchema>;
/** 200 `{ summary }` (plain sentences); 502 `{ detail }` when the summariser fails. */
export const generateSummaryResponseSchema = z.object({ summary: z.string() });
export type GenerateSummaryResponse = z.infer<typeof generateSummaryResponseSchema>;

// ---------------------------------------------------------------- support

/** POST /api/v2/support/contact-us, with or without a token. Answers 201 `{ id }`. */
export const contactUsBodySchema = z.strictObject({
  email: emailField,
  message: multilineText.trim().min(10).max(2000),
  /** The page the message was sent from (the studio's path). */
  page: text(500).optional(),
});
export type ContactUsBody = z.input<typeof contactUsBodySchema>;
export const contactUsResponseSchema = z.object({ id: z.number().int() });
