import { z } from 'zod';
import { documentClassSchema, isoDate, isoDateTime, lineText, queryBoolean } from './common';
import { CHECK_KINDS, CONTENT_FIELDS } from './constants';

export { CHECK_KINDS, CONTENT_FIELDS };

export const contentFieldSchema = z.enum(CONTENT_FIELDS);
export type ContentField = z.infer<typeof contentFieldSchema>;

export const DOCUMENT_STATUSES = ['pending_review', 'approved', 'rejected'] as const;
export const documentStatusSchema = z.enum(DOCUMENT_STATUSES);

export const checkResultSchema = z.object({
  result: z.enum(['passed', 'warning', 'failed', 'not_run']),
  score: z.number().nullable(),
});
export const documentChecksSchema = z.object({
  document: checkResultSchema,
  fraud: checkResultSchema,
  biometric: checkResultSchema,
  cross: checkResultSchema,
});

export const documentAlertSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  result: z.enum(['passed', 'warning', 'failed']),
  overridden: z.boolean(),
  override_reason: z.string().nullable(),
  overridden_at: isoDateTime.nullable(),
});

export const documentPageSchema = z.object({
  id: z.number().int(),
  page: z.number().int(),
  /** Signed address of the image, valid for at least an hour. */
  url: z.string(),
  content_type: z.string(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** SHA-256 (hex) of the stored page; null for pages stored before hashes were kept. */
  sha256: z.string().nullable(),
});

export const deviceDataSchema = z.object({
  brand: z.string().nullable(),
  model: z.string().nullable(),
  carrier: z.string().nullable(),
  os: z.string().nullable(),
  osVersion: z.string().nullable(),
  sdkVersion: z.string().nullable(),
  browser: z.string().nullable(),
  useragent: z.string().nullable(),
});
export type DeviceData = z.infer<typeof deviceDataSchema>;

export const documentSchema = z.object({
  id: z.number().int(),
  profile: z.number().int(),
  type: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  document_class: documentClassSchema,
  upload_source: z.string(),
  stream: z.boolean(),
  archived: z.boolean(),
  status: documentStatusSchema,
  review_reason: z.string().nullable(),
  expiry_date: isoDate.nullable(),
  created_at: isoDateTime,
  pages: z.array(documentPageSchema),
  checks: documentChecksSchema,
  alerts: z.array(documentAlertSchema),
  /** Extracted fields with staff overrides applied. */
  content: z.record(contentFieldSchema, z.string().nullable()),
  overridden_fields: z.array(contentFieldSchema),
  device_data: deviceDataSchema.nullable(),
  /** Bumped by every write; send it back as If-Match (`"<version>"`) with a write. */
  version: z.number().int(),
});
export type Document = z.infer<typeof documentSchema>;

/** GET /api/v2/profile/{id}/documents?archived=true|false&upload_source=... */
export const documentListQuerySchema = z.strictObject({
  archived: queryBoolean.optional(),
  upload_source: lineText.trim().min(1).max(50).optional(),
});
