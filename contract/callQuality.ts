/**
 * Call quality: the API's schemas for the samples each side of a call sends (received video
 * resolution and frame rate, packet loss, bitrate, sound level from WebRTC's getStats()) and the summary kept
 * with the call. The thresholds and the summary's rules are in callQualityRules.ts (no zod: the join page uses them).
 */
import { z } from 'zod';
import {
  MAX_QUALITY_BATCH,
  QUALITY_ISSUES,
  QUALITY_SIDES,
  type QualityRange,
  type QualitySample,
  type QualitySummary,
} from './callQualityRules';
import { isoDateTime } from './common';

export * from './callQualityRules';

export const qualitySampleSchema = z.strictObject({
  width: z.number().int().min(0).max(16384).describe('Width of the received video (pixels)'),
  height: z.number().int().min(0).max(16384).describe('Height of the received video (pixels)'),
  fps: z.number().min(0).max(1000).describe('Frames decoded a second'),
  loss_pct: z.number().min(0).max(100).describe('Received packets lost (%), audio and video'),
  kbps: z.number().min(0).max(10_000_000).describe('Received bitrate (kbit/s), audio and video'),
  audio_level: z.number().min(0).max(1).describe('Sound level received (RMS, 0 to 1)'),
}) satisfies z.ZodType<QualitySample>;

export const qualityBodySchema = z.strictObject({
  samples: z.array(qualitySampleSchema).min(1).max(MAX_QUALITY_BATCH),
});
export type QualityBody = z.infer<typeof qualityBodySchema>;

const rangeSchema = z.object({
  min: z.number(),
  median: z.number(),
  max: z.number(),
}) satisfies z.ZodType<QualityRange>;

export const qualitySummarySchema = z.object({
  count: z.number().int(),
  height: rangeSchema,
  fps: rangeSchema,
  loss_pct: rangeSchema,
  kbps: rangeSchema,
  audio_level: rangeSchema,
  issues: z.array(z.enum(QUALITY_ISSUES)).describe('What was poor (empty with fewer than 3 samples)'),
}) satisfies z.ZodType<QualitySummary>;

export const storedQualitySampleSchema = qualitySampleSchema.extend({
  side: z.enum(QUALITY_SIDES),
  at: isoDateTime,
});

export const callQualitySchema = z.object({
  agent: qualitySummarySchema.nullable().describe('What the agent received (null: no sample)'),
  customer: qualitySummarySchema.nullable().describe('What the customer received (null: no sample)'),
  samples: z.array(storedQualitySampleSchema),
});
export type CallQuality = z.infer<typeof callQualitySchema>;
