import { z } from 'zod';
import { idText, isoDateTime, multilineText } from './common';
import { localizedTextSchema } from './logEvents';

export const noteSchema = z.object({
  id: z.number().int(),
  profile: z.number().int(),
  kind: z.enum(['note', 'agent']),
  note: z.string(),
  author: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  created_at: isoDateTime,
});
export type Note = z.infer<typeof noteSchema>;

/** Notes and feedback: 10 to 200 characters after trimming (docs/product/validation.md, docs/product/constants.md). */
export const noteBodySchema = z.strictObject({ note: multilineText.trim().min(10).max(200) });

/**
 * One profile-log entry: `action` is an event code of contract/logEvents.ts and `data` its parameters;
 * the studio words them in the reader's language. `message` is the English sentence, kept for API clients.
 */
export const logEntrySchema = z.object({
  id: z.number().int(),
  action: z.string(),
  message: z.string(),
  actor: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  data: z.record(z.string(), z.unknown()),
  created_at: isoDateTime,
});
export type LogEntry = z.infer<typeof logEntrySchema>;

/** Newest first; `after_id` continues below that entry. */
export const logsQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(20),
  after_id: idText.optional(),
});
export const logsResponseSchema = z.object({ results: z.array(logEntrySchema), has_more: z.boolean() });

export const checklistQuestionSchema = z.object({
  id: z.number().int(),
  question: z.string(),
  /** The question in each studio language (English where no translation is set). */
  texts: localizedTextSchema,
  sort_order: z.number().int(),
  /** The answer value; null while unanswered. */
  answer: z.boolean().nullable(),
  note: z.string().nullable(),
  created_at: isoDateTime.nullable(),
});
export const checklistGroupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  texts: localizedTextSchema,
  sort_order: z.number().int(),
  questions: z.array(checklistQuestionSchema),
});
export type ChecklistGroup = z.infer<typeof checklistGroupSchema>;
