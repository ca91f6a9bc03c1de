import { z } from 'zod';
import {
  agentStatusSchema,
  CALL_STATUSES,
  callStatusCodeSchema,
  idSchema,
  idText,
  isoDateTime,
  keysetPageSchema,
  keysetPagingQuery,
  multilineText,
} from './common';
import { isFinalCallStatus, MAX_RECORDING_BYTES } from './constants';
import { reasonIdSchema } from './identProcedure';

const id = idSchema;

export const videoCallSchema = z.object({
  id: z.number().int(),
  profile: z.number().int(),
  agent: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  room_id: z.string(),
  status: callStatusCodeSchema,
  status_name: z.enum(CALL_STATUSES),
  call_start_time: isoDateTime.nullable(),
  call_end_time: isoDateTime.nullable(),
  /** Signed address of the webm recording, or null. */
  recorded_file: z.string().nullable(),
  /** Why the call was closed when its agent did not set the status (CALL_END_REASONS), else null. */
  end_reason: z.string().nullable(),
  /** The reason id given with the final status (a decision or abort reason of the procedure), or null. */
  outcome_reason: z.string().nullable(),
  /** SHA-256 (hex) of the stored recording, kept since it was stored; null without one. */
  recording_sha256: z.string().nullable(),
  created_at: isoDateTime,
});
export type VideoCall = z.infer<typeof videoCallSchema>;

export const videoCallListQuerySchema = z.strictObject({
  profile: idText.optional(),
  status: z.coerce.number().int().min(0).max(9).optional(),
  ...keysetPagingQuery,
});
export type VideoCallListQuery = z.infer<typeof videoCallListQuerySchema>;
export const videoCallPageSchema = keysetPageSchema(videoCallSchema);

/** GET /api/v2/videocall/status_list */
export const callStatusEntrySchema = z.object({
  code: callStatusCodeSchema,
  name: z.enum(CALL_STATUSES),
  labels: z.object({ 'en-US': z.string(), tr: z.string() }),
});

export const callQuestionSchema = z.object({
  id: z.number().int(),
  question: z.string(),
  sort_order: z.number().int(),
});
export const callQuestionsQuerySchema = z.strictObject({
  lang: z
    .string()
    .transform((v) => v.toUpperCase())
    .pipe(z.enum(['EN', 'TR']))
    .default('EN'),
});

/** POST /api/v2/profile/url: a join link for the profile's customer (customer.html?token=...). */
export const profileUrlBodySchema = z.strictObject({ profile: id });
export const profileUrlSchema = z.object({
  url: z.string(),
  token: z.string(),
  expires_at: isoDateTime,
});
export type ProfileUrl = z.infer<typeof profileUrlSchema>;

/** POST /api/v2/videocall, by the customer of a join link: a new call is created with status 0 (docs/product/states.md). */
/** The languages of the join page, in which the customer may read and give consent. */
export const CONSENT_LANGUAGES = ['en-US', 'tr'] as const;
/** GET /videocall/consent (customer): what the join page asks before the camera starts. */
export const callConsentSchema = z.object({
  required: z.boolean().describe("true: the company's procedure has a consent step"),
  text: z.object({ en: z.string(), tr: z.string() }),
});
export type CallConsent = z.infer<typeof callConsentSchema>;

export const createCallBodySchema = z.strictObject({
  profile: id,
  status: z.literal(0).default(0),
  call_start_time: isoDateTime.optional(),
  consent: z
    .strictObject({ language: z.enum(CONSENT_LANGUAGES) })
    .optional()
    .describe('The customer agreed, on the join page, to the consent text in this language'),
});
export const createdCallSchema = z.object({ id, room_id: z.string(), status: callStatusCodeSchema });
export type CreatedCall = z.infer<typeof createdCallSchema>;

/** PUT /api/v2/videocall/{callID}: the status the agent ends the call with (COMPLETE onwards). */
export const finalCallStatusSchema = callStatusCodeSchema.refine(isFinalCallStatus, {
  message: 'Pick the status the call ended with',
});
/** Why an admin closes a call or corrects its status: 10 to 200 characters (docs/product/validation.md#lengths). */
const callReasonSchema = z.string().trim().min(10, 'Give a reason of at least 10 characters').max(200);
/** `reason` is required when an Admin corrects a status already set, ignored otherwise. */
const outcomeReason = reasonIdSchema
  .optional()
  .describe(
    "The id of one of the company's decision reasons (COMPLETE) or abort reasons (other statuses), from its " +
      'identification procedure; required when the procedure is guided.',
  );
export const updateCallBodySchema = z.strictObject({
  status: finalCallStatusSchema,
  reason: callReasonSchema.optional(),
  outcome_reason: outcomeReason,
});
/** POST /api/v2/videocall/{id}/close (manage_calls): closes a waiting or talking call. */
export const closeCallBodySchema = z.strictObject({
  status: finalCallStatusSchema,
  reason: callReasonSchema,
  outcome_reason: outcomeReason,
});

export const callAnswerBodySchema = z.strictObject({
  question: id,
  value: multilineText.trim().min(1).max(2000),
});
export const callAnswerSchema = z.object({
  id,
  question: id.nullable(),
  value: z.string().nullable(),
  note: z.string().nullable(),
  created_at: isoDateTime,
});
export type CallAnswer = z.infer<typeof callAnswerSchema>;

/** POST /api/v2/videocall/{id}/notes: a note during the call, about one question or the whole call. */
export const callNoteBodySchema = z.strictObject({
  question: id.nullable().optional(),
  note: multilineText.trim().min(10).max(200),
});

/** POST /api/v2/videocall/agent_status */
export const agentStatusBodySchema = z.strictObject({
  status: agentStatusSchema,
  /** Another agent of the company (admins only); the caller when left out. */
  user: id.optional(),
});
export const agentStatusReplySchema = z.object({ status: agentStatusSchema });

/**
 * GET /api/v2/videocall/{id}/answers: the answers and notes given during a call, oldest first, each
 * with its question's text in the asked language (null for a note about the whole call).
 */
export const callEntrySchema = callAnswerSchema.extend({ question_text: z.string().nullable() });
export type CallEntry = z.infer<typeof callEntrySchema>;

/** The multipart body of PATCH /videocall/{id} as the OpenAPI document declares it: one webm file `file`. */
export const recordingUploadFormSchema = z.strictObject({
  file: z.file().mime(['video/webm']).max(MAX_RECORDING_BYTES).describe("The call's webm recording"),
});
