/**
 * The evidence package of a video call: the server's signing key, a company's retention and
 * a profile's legal hold. The package itself is a ZIP (GET /api/v2/videocall/{id}/evidence), described in
 * docs/evidence.md.
 */
import { z } from 'zod';
import { errorSchema, isoDateTime, multilineText } from './common';

/** GET /api/v2/evidence/public_key: the key that checks every package's `manifest.sha256.sig`. */
export const evidencePublicKeySchema = z.object({
  algorithm: z.literal('Ed25519'),
  /** SubjectPublicKeyInfo, PEM. */
  public_key_pem: z.string(),
  /** SHA-256 (hex) of the key's DER (SubjectPublicKeyInfo) bytes: compare it with the package's public_key.pem. */
  fingerprint_sha256: z.string(),
});
export type EvidencePublicKey = z.infer<typeof evidencePublicKeySchema>;

/** Bounds of a company's evidence retention in days: one year to ten years; default five (BaFin 3/2017). */
export const RETENTION_DAYS = { min: 365, max: 3653, default: 1826 } as const;

export const evidenceRetentionSchema = z.object({
  evidence_retention_days: z.number().int(),
});
export type EvidenceRetention = z.infer<typeof evidenceRetentionSchema>;

export const evidenceRetentionBodySchema = z.strictObject({
  evidence_retention_days: z
    .number()
    .int()
    .min(RETENTION_DAYS.min, `Keep evidence at least ${RETENTION_DAYS.min} days`)
    .max(RETENTION_DAYS.max, `Keep evidence at most ${RETENTION_DAYS.max} days`),
});
export type EvidenceRetentionBody = z.infer<typeof evidenceRetentionBodySchema>;

/** Why a legal hold is set or lifted: 10 to 200 characters (docs/product/validation.md#lengths). */
const holdReason = multilineText.trim().min(10, 'Give a reason of at least 10 characters').max(200);

export const legalHoldBodySchema = z.strictObject({
  hold: z.boolean(),
  reason: holdReason,
});

/** A profile's legal hold: while `hold` is true, the retention job keeps the evidence of its calls. */
export const legalHoldSchema = z.object({
  hold: z.boolean(),
  reason: z.string().nullable(),
  /** Who set or lifted it last, and when (null: never changed). */
  changed_by: z.number().int().nullable(),
  changed_at: isoDateTime.nullable(),
});
export type LegalHold = z.infer<typeof legalHoldSchema>;

/** The detail of a write refused because the profile is under a legal hold: it names the hold's reason. */
export const legalHoldRefused = (reason: string) =>
  `This profile is under a legal hold (${reason}): its evidence cannot be deleted or changed until an Admin lifts the hold`;

/** The 409 of a write that a legal hold refuses (nothing was changed). */
export const legalHoldRefusalSchema = errorSchema.describe(
  'The profile is under a legal hold: its evidence cannot be deleted or changed; the detail names the reason.',
);
