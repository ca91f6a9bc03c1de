/**
 * The rules of call quality, without zod so that the customer's join page can use them
 * without loading it: how often each side measures, the thresholds below which a call is poor, the bounds of
 * what is kept, and the summary of a side's samples. The schemas of the API are in callQuality.ts.
 */
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

/** One sample of what a side received (the API's schema: qualitySampleSchema in callQuality.ts). */
export interface QualitySample {
  /** Width and height of the received video (pixels). */
  width: number;
  height: number;
  /** Frames decoded a second. */
  fps: number;
  /** Received packets lost (%), audio and video. */
  loss_pct: number;
  /** Received bitrate (kbit/s), audio and video. */
  kbps: number;
  /** Sound level received (RMS, 0 to 1). */
  audio_level: number;
}

export interface QualityRange {
  min: number;
  median: number;
  max: number;
}

export interface QualitySummary {
  count: number;
  height: QualityRange;
  fps: QualityRange;
  loss_pct: QualityRange;
  kbps: QualityRange;
  audio_level: QualityRange;
  /** What was poor (empty with fewer than MIN_QUALITY_SAMPLES samples). */
  issues: QualityIssue[];
}

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

/** One side as the other side's agent sees it live: its last sample and the summary of all its samples so far. */
export interface LiveQuality {
  sample: QualitySample;
  summary: QualitySummary;
}

/**
 * The issues of a call: what any side found poor, once each, in QUALITY_ISSUES order (a poor picture at the
 * customer's end is as much a reason to abort as at the agent's).
 */
export function callIssues(...summaries: readonly (QualitySummary | null | undefined)[]): QualityIssue[] {
  return QUALITY_ISSUES.filter((issue) => summaries.some((summary) => summary?.issues.includes(issue)));
}
