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

/**
 * GET /api/v2/profile/{id}/aml/check: runs a new screening of the profile (docs/product/api.md) and answers it: the new
 * history entry (`id`, status, scanned database, matches, records) and the result's score. The result
 * (`GET /profile/{id}/aml`) now holds these records and waits for approval.
 */
export const amlCheckSchema = z.object({
  profile: z.number().int(),
  provider: z.string(),
  checked: z.boolean(),
  id: z.number().int(),
  status: z.enum(['clear', 'hit', 'error']),
  scanned_database: z.string(),
  matches: z.number().int(),
  score: z.number().int(),
  records: z.array(amlRecordSchema),
  date: isoDateTime,
});
export type AmlCheck = z.infer<typeof amlCheckSchema>;

/** PATCH /api/v2/profile/{id}/aml/approve: no body (or an empty object); answers the result. */
export const amlApproveBodySchema = z.strictObject({}).nullish();

/** 403 detail of the AML write paths for a user who may not change AML (docs/product/roles.md). */
export const AML_NO_PERMISSION = "You don't have permission to update AML";
export const AML_NOTHING_TO_APPROVE = 'Run an AML check before approving';
export const AML_NO_NAME = 'The profile has no name to screen';
