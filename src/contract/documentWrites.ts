/** Bodies and answers of the document write paths (SPEC §7 documents, and the alert override). */
import { z } from 'zod';
import { idParams } from './common';
import { CONTENT_FIELDS } from './constants';
import { documentAlertSchema, documentSchema } from './documents';

export const documentApproveBodySchema = z.strictObject({
  approved: z.boolean(),
  /** Required (≥ 10 characters after trimming) to reject; optional to approve. */
  reason: z.string().max(500).nullish(),
});

export const documentArchiveBodySchema = z.strictObject({
  id: z.number().int().positive(),
  archived: z.boolean(),
});

const fieldsShape = Object.fromEntries(
  CONTENT_FIELDS.map((field) => [field, z.string().max(1000).nullable().optional()]),
) as Record<(typeof CONTENT_FIELDS)[number], z.ZodOptional<z.ZodNullable<z.ZodString>>>;

export const documentOverrideBodySchema = z.strictObject({
  /** The fields to override; `null` or blank clears a field's value. */
  fields: z.strictObject(fieldsShape),
});

export const documentTypeBodySchema = z.strictObject({
  document_type: z.number().int().positive(),
});

export const ruleOverrideParams = z.strictObject({
  id: z.coerce.number().int().positive(),
  ruleId: z.coerce.number().int().positive(),
});

export const ruleOverrideBodySchema = z.strictObject({ reason: z.string().max(500) });

export const documentIdParams = idParams;
export const documentResponseSchema = documentSchema;
export const ruleOverrideResponseSchema = documentAlertSchema;

/** The multipart fields of POST /document besides the page files (`pages`), as sent (text). */
export const documentUploadFieldsSchema = z.strictObject({
  profile: z.coerce.number().int().positive(),
  type: z.coerce.number().int().positive(),
  upload_source: z.string().trim().min(1).max(50).default('studio'),
  cropped: z.enum(['true', 'false']).default('false'),
  rotated: z.enum(['true', 'false']).default('false'),
  stream: z.enum(['true', 'false']).default('false'),
  /** JSON of the §3 device data; every field optional. */
  device_data: z.string().max(4000).optional(),
});

export const deviceDataInputSchema = z.strictObject({
  brand: z.string().max(200).nullish(),
  model: z.string().max(200).nullish(),
  carrier: z.string().max(200).nullish(),
  os: z.string().max(200).nullish(),
  osVersion: z.string().max(200).nullish(),
  sdkVersion: z.string().max(200).nullish(),
  browser: z.string().max(200).nullish(),
  useragent: z.string().max(1000).nullish(),
});
