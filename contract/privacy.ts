/**
 * A person's data and the duties around it: the log of who read it, the export of all of it, and its erasure
 * within the retention the law sets (docs/decisions/0213-access-log-hash-chain.md, 0220-erasure-within-retention.md).
 */
import { z } from 'zod';
import { idText, isoDateTime, multilineText } from './common';

/** What counts as a read of a person's data, each on the object it names. */
export const ACCESS_KINDS = {
  /** GET /profile/{id}: the profile opened. */
  profile_viewed: 'profile',
  /** A page image of a document fetched from storage through its signed address. */
  document_page_viewed: 'document',
  /** A call's recording fetched from storage (played or downloaded): the first request, not each seek. */
  recording_played: 'videocall',
  /** A step screenshot of a call, as an image. */
  screenshot_viewed: 'videocall',
  /** A call's signed evidence package. */
  evidence_downloaded: 'videocall',
  /** A PDF or CSV the studio drew with the profile's data (the studio says so). */
  report_exported: 'profile',
  /** Everything held about the person, as one ZIP (Art. 15). */
  profile_exported: 'profile',
} as const;
export type AccessKind = keyof typeof ACCESS_KINDS;
export const ACCESS_KIND_CODES = Object.keys(ACCESS_KINDS) as AccessKind[];

export const accessEntrySchema = z.object({
  seq: z.number().int(),
  created_at: isoDateTime,
  profile_id: z.number().int().nullable(),
  actor: z.number().int().nullable(),
  actor_email: z.string().nullable(),
  ip: z.string().nullable(),
  kind: z.enum(ACCESS_KIND_CODES as [AccessKind, ...AccessKind[]]),
  object_type: z.string(),
  object_id: z.string(),
  detail: z.record(z.string(), z.unknown()),
  /** Identical reads by the same user from the same address within this entry's second, kept as one entry. */
  count: z.number().int().min(1),
});
export type AccessEntry = z.infer<typeof accessEntrySchema>;

export const ACCESS_PAGE_MAX = 200;

export const accessListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(ACCESS_PAGE_MAX).default(50),
  /** Entries before this sequence number (the previous page's `next_before`). */
  before: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
  user: idText.optional(),
  profile: idText.optional(),
  kind: z.enum(ACCESS_KIND_CODES as [AccessKind, ...AccessKind[]]).optional(),
});
export type AccessListQuery = z.infer<typeof accessListQuerySchema>;

export const accessPageSchema = z.object({
  results: z.array(accessEntrySchema),
  /** Pass as `before` for the next (older) page; null on the last. */
  next_before: z.number().int().nullable(),
});
export type AccessPage = z.infer<typeof accessPageSchema>;

/** A report the studio drew from the profile's data and handed to the user (POST /profile/{id}/access_log). */
export const reportExportedBodySchema = z.strictObject({
  format: z.enum(['pdf', 'csv']),
  report: z.enum(['basic', 'expanded', 'list']),
});

/** Why the erasure was asked for (a customer's request and its date, a closed relationship): 10 to 500 characters. */
export const erasureBodySchema = z.strictObject({
  reason: multilineText.trim().min(10).max(500),
});

/** Why something outlives an erasure until `until`. */
export const RETENTION_REASONS = ['identification_evidence', 'aml_records'] as const;

export const erasureSchema = z.object({
  /** none: never asked; scheduled: done but for what waits for its retention; erased: only the stub is left. */
  status: z.enum(['none', 'scheduled', 'erased']),
  requested_at: isoDateTime.nullable(),
  requested_by: z.number().int().nullable(),
  reason: z.string().nullable(),
  completed_at: isoDateTime.nullable(),
  /** What is kept, why and until when (the company's evidence retention from the call's end, the upload, the screening). */
  retained: z.array(
    z.object({
      object: z.enum(['videocall', 'document', 'aml']),
      id: z.number().int(),
      reason: z.enum(RETENTION_REASONS),
      until: isoDateTime,
    }),
  ),
});
export type Erasure = z.infer<typeof erasureSchema>;

export const erasureRefused = {
  already: 'An erasure of this profile was already requested',
} as const;
