/**
 * Call quality (issue 29 point 6): what each side of a call receives, measured every few seconds from WebRTC's
 * getStats() (received video resolution and frame rate, packet loss, bitrate, sound level), the thresholds below
 * which the call is poor, and the summary kept with the call. Pure: shared by the studio, the customer's page and
 * the server, so that all three judge a call alike.
 */
import { z } from 'zod';
import { isoDateTime } from './common';

/** How often each side measures (ms). */
export const QUALITY_INTERVAL_MS = 3000;

/**
 * Below these a call is poor. The camera is asked for 640×480: 360 lines is one step of WebRTC's down-scaling,
 * still enough to read an ID's print; under 15 frames a second a tilted hologram is not seen moving; above 5 %
 * lost packets picture and sound break up; under 300 kbit/s the video encoder cannot hold 360 lines.
 * A sound level under 0.01 (about −40 dBFS) in every sample means nothing was heard during the whole call.
 */
export const QUALITY_THRESHOLDS = {
  minHeight: 360,
  minFps: 15,
  maxLossPct: 5,
  minKbps: 300,
  minAudioLevel: 0.01,
} as const;

/** A side's verdict needs this many samples (a call of under ~10 s says nothing). */
export const MIN_QUALITY_SAMPLES = 3;

/** At most this many samples are kept per side of a call (2 hours at one every 3 s); more are refused (409). */
export const MAX_QUALITY_SAMPLES = 2400;
/** At most this many samples in one POST (a side sends what it measured since its last answer). */
export const MAX_QUALITY_BATCH = 20;

export const QUALITY_SIDES = ['agent', 'customer'] as const;
export type QualitySide = (typeof QUALITY_SIDES)[number];

/** What is poor, in the order an abort reason is offered: picture, sound, connection. */
export const QUALITY_ISSUES = ['picture', 'sound', 'connection'] as const;
export type QualityIssue = (typeof QUALITY_ISSUES)[number];

export const qualitySampleSchema = z.strictObject({
  width: z.number().int().min(0).max(16384).describe('Width of the received video (pixels)'),
  height: z.number().int().min(0).max(16384).describe('Height of the received video (pixels)'),
  fps: z.number().min(0).max(1000).describe('Frames decoded a second'),
  loss_pct: z.number().min(0).max(100).describe('Received packets lost (%), audio and video'),
  kbps: z.number().min(0).max(10_000_000).describe('Received bitrate (kbit/s), audio and video'),
  audio_level: z.number().min(0).max(1).describe('Sound level received (RMS, 0 to 1)'),
});
export type QualitySample = z.infer<typeof qualitySampleSchema>;

export const qualityBodySchema = z.strictObject({
  samples: z.array(qualitySampleSchema).min(1).max(MAX_QUALITY_BATCH),
});
export type QualityBody = z.infer<typeof qualityBodySchema>;

const rangeSchema = z.object({ min: z.number(), median: z.number(), max: z.number() });
export type QualityRange = z.infer<typeof rangeSchema>;

export const qualitySummarySchema = z.object({
  count: z.number().int(),
  height: rangeSchema,
  fps: rangeSchema,
  loss_pct: rangeSchema,
  kbps: rangeSchema,
  audio_level: rangeSchema,
  issues: z.array(z.enum(QUALITY_ISSUES)).describe('What was poor (empty with fewer than 3 samples)'),
});
export type QualitySummary = z.infer<typeof qualitySummarySchema>;

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

const median = (sorted: number[]) => {
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

function range(values: number[]): QualityRange {
  const sorted = [...values].sort((a, b) => a - b);
  return { min: sorted[0] as number, median: median(sorted), max: sorted[sorted.length - 1] as number };
}

/** What one sample shows below the thresholds (a live warning; sound is judged over the call only). */
export function sampleIssues(sample: QualitySample): Set<keyof QualitySample> {
  const t = QUALITY_THRESHOLDS;
  const poor = new Set<keyof QualitySample>();
  if (sample.height < t.minHeight) poor.add('height');
  if (sample.fps < t.minFps) poor.add('fps');
  if (sample.loss_pct > t.maxLossPct) poor.add('loss_pct');
  if (sample.kbps < t.minKbps) poor.add('kbps');
  return poor;
}

/**
 * The summary of one side's samples, null for none. The verdict uses medians (a short dip is not a poor call):
 * picture when the median height or frame rate is under its threshold, connection when the median loss is above
 * or the median bitrate under, sound when no sample was louder than the minimum level.
 */
export function summarizeQuality(samples: readonly QualitySample[]): QualitySummary | null {
  if (samples.length === 0) return null;
  const of = (key: keyof QualitySample) => range(samples.map((s) => s[key]));
  const summary: QualitySummary = {
    count: samples.length,
    height: of('height'),
    fps: of('fps'),
    loss_pct: of('loss_pct'),
    kbps: of('kbps'),
    audio_level: of('audio_level'),
    issues: [],
  };
  if (samples.length < MIN_QUALITY_SAMPLES) return summary;
  const t = QUALITY_THRESHOLDS;
  if (summary.height.median < t.minHeight || summary.fps.median < t.minFps) summary.issues.push('picture');
  if (summary.audio_level.max < t.minAudioLevel) summary.issues.push('sound');
  if (summary.loss_pct.median > t.maxLossPct || summary.kbps.median < t.minKbps)
    summary.issues.push('connection');
  return summary;
}
