import { z } from 'zod';
import { CALL_STATUSES, callStatusCodeSchema, isoDateTime, pageSchema } from './common';

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
  created_at: isoDateTime,
});
export type VideoCall = z.infer<typeof videoCallSchema>;

export const videoCallListQuerySchema = z.strictObject({
  profile: z.coerce.number().int().positive().optional(),
  status: z.coerce.number().int().min(0).max(9).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(20),
  offset: z.coerce.number().int().min(0).default(0),
});
export const videoCallPageSchema = pageSchema(videoCallSchema);

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
