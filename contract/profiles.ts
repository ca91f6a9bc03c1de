import { z } from 'zod';
import {
  calendarDateOrTime,
  isoDate,
  isoDateTime,
  keysetPageSchema,
  keysetPagingQuery,
  lineText,
  profileStatusSchema,
  riskLevelSchema,
  searchText,
} from './common';

export const addressSchema = z.object({
  province: z.string().nullable(),
  city: z.string().nullable(),
  street: z.string().nullable(),
});

export const riskScoresSchema = z.object({
  phone: z.number().nullable(),
  email: z.number().nullable(),
  ip: z.number().nullable(),
});

/** A row of the customers list. */
export const profileSummarySchema = z.object({
  id: z.number().int(),
  id_card_number: z.string(),
  name: z.string().nullable(),
  gender: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  nationality: z.string().nullable(),
  status: profileStatusSchema,
  risk_level: riskLevelSchema,
  source: z.string(),
  company: z.number().int(),
  created_at: isoDateTime,
  updated_at: isoDateTime,
  last_status_date: isoDateTime.nullable(),
});
export type ProfileSummary = z.infer<typeof profileSummarySchema>;

/** GET /api/v2/profile/{id} */
export const profileSchema = profileSummarySchema.extend({
  date_of_birth: isoDate.nullable(),
  address: addressSchema,
  extra_data: z.record(z.string(), z.unknown()),
  quality_check: z.record(z.string(), z.unknown()).nullable(),
  aliases: z.array(z.string()),
  risk_scores: riskScoresSchema.nullable(),
  reject_reason: z.string().nullable(),
  summary: z.string().nullable(),
  /** Bumped by every write; send it back as If-Match (`"<version>"`) with a write. */
  version: z.number().int(),
});
export type Profile = z.infer<typeof profileSchema>;

export const PROFILE_ORDERING_FIELDS = [
  'created_at',
  'updated_at',
  'last_status_date',
  'name',
  'id',
  'status',
  'risk_level',
] as const;
export const profileOrderingSchema = z.enum([
  ...PROFILE_ORDERING_FIELDS,
  ...PROFILE_ORDERING_FIELDS.map((f) => `-${f}` as const),
] as [string, ...string[]]);

/** GET /api/v2/profile query. `search` matches name, e-mail, id card number or the numeric id. */
export const profileListQuerySchema = z.strictObject({
  ...keysetPagingQuery,
  ordering: profileOrderingSchema.default('-created_at'),
  search: searchText.optional(),
  status: profileStatusSchema.optional(),
  risk_level: riskLevelSchema.optional(),
  source: lineText.trim().max(50).optional(),
  created_after: calendarDateOrTime.optional(),
  created_before: calendarDateOrTime.optional(),
});
export type ProfileListQuery = z.infer<typeof profileListQuerySchema>;
export const profilePageSchema = keysetPageSchema(profileSummarySchema);

/** GET /api/v2/profile/{id}/nvi: the government-check data. */
export const profileNviSchema = z.object({
  id: z.number().int(),
  extra_data: z.record(z.string(), z.unknown()),
});
