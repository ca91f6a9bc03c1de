import { z } from 'zod';
import { isoDateTime } from './common';

export const amlRecordSchema = z.record(z.string(), z.unknown());

export const amlHistoryEntrySchema = z.object({
  id: z.number().int(),
  provider: z.string(),
  status: z.enum(['clear', 'hit', 'error']),
  scanned_database: z.string(),
  matches: z.number().int(),
  date: isoDateTime,
});
export type AmlHistoryEntry = z.infer<typeof amlHistoryEntrySchema>;

export const amlHistoryDetailSchema = amlHistoryEntrySchema.extend({ records: z.array(amlRecordSchema) });

/** GET /api/v2/profile/{id}/aml */
export const amlResultSchema = z.object({
  profile: z.number().int(),
  provider: z.string(),
  list: z.array(z.string()),
  score: z.number().int(),
  records: z.array(amlRecordSchema),
  approved: z.boolean().nullable(),
  approved_by: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  approved_date: isoDateTime.nullable(),
  updated_at: isoDateTime.nullable(),
  history: z.array(amlHistoryEntrySchema),
});
export type AmlResult = z.infer<typeof amlResultSchema>;

/** GET /api/v2/profile/{id}/aml/check: the latest screening of the profile. */
export const amlCheckSchema = z.object({
  profile: z.number().int(),
  provider: z.string(),
  checked: z.boolean(),
  status: z.enum(['clear', 'hit', 'error']).nullable(),
  matches: z.number().int(),
  date: isoDateTime.nullable(),
});
