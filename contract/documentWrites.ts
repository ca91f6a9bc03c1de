/** Bodies and answers of the document write paths (docs/product/api.md#resources, and the alert override). */
import { z } from 'zod';
import { idParams, idSchema, idText, lineText, multilineText } from './common';
import { CONTENT_FIELDS } from './constants';
import { MAX_PAGE_BYTES, MAX_PAGES, PAGE_CONTENT_TYPES } from './documentRules';
import { documentAlertSchema, documentSchema } from './documents';

export const documentApproveBodySchema = z.strictObject({
  approved: z.boolean(),
  /** Required (≥ 10 characters after trimming) to reject; optional to approve. */
  reason: multilineText.max(500).nullish(),
});

export const documentArchiveBodySchema = z.strictObject({
  id: idSchema,
  archived: z.boolean(),
});

const fieldsShape = Object.fromEntries(
  CONTENT_FIELDS.map((field) => [field, lineText.max(1000).nullable().optional()]),
) as Record<(typeof CONTENT_FIELDS)[number], z.ZodOptional<z.ZodNullable<z.ZodString>>>;

export const documentOverrideBodySchema = z.strictObject({
  /** The fields to override; `null` or blank clears a field's value. */
  fields: z.strictObject(fieldsShape),
});

export const documentTypeBodySchema = z.strictObject({
  document_type: idSchema,
});

export const ruleOverrideParams = z.strictObject({
  id: idText,
  ruleId: idText,
});

export const ruleOverrideBodySchema = z.strictObject({ reason: multilineText.max(500) });

export const documentIdParams = idParams;
export const documentResponseSchema = documentSchema;
export const ruleOverrideResponseSchema = documentAlertSchema;

/** The multipart fields of POST /document besides the page files (`pages`), as sent (text). */
export const documentUploadFieldsSchema = z.strictObject({
  profile: idText,
  type: idText,
  upload_source: lineText.trim().min(1).max(50).default('studio'),
  cropped: z.enum(['true', 'false']).default('false'),
  rotated: z.enum(['true', 'false']).default('false'),
  stream: z.enum(['true', 'false']).default('false'),
  /** JSON of the device data (docs/product/entities.md#device-data); every field optional. */
  device_data: multilineText.max(4000).optional(),
});

/** The whole multipart body of POST /document as the OpenAPI document declares it: the fields and the pages. */
export const documentUploadFormSchema = documentUploadFieldsSchema.extend({
  pages: z
    .array(
      z
        .file()
        .mime([...PAGE_CONTENT_TYPES])
        .max(MAX_PAGE_BYTES),
    )
    .min(1)
    .max(MAX_PAGES)
    .describe('The pages in page order, one file part `pages` each'),
});

export const deviceDataInputSchema = z.strictObject({
  brand: lineText.max(200).nullish(),
  model: lineText.max(200).nullish(),
  carrier: lineText.max(200).nullish(),
  os: lineText.max(200).nullish(),
  osVersion: lineText.max(200).nullish(),
  sdkVersion: lineText.max(200).nullish(),
  browser: lineText.max(200).nullish(),
  useragent: lineText.max(1000).nullish(),
});
