/**
 * Metrics of the reviewers' desk: per reviewer and per queue over a range of UTC days.
 * Server: `server/domain/review/metrics.ts`; decision record `docs/decisions/0153-review-metrics-and-admin.md`.
 */
import { z } from 'zod';
import { isoDate, isoDateTime } from './common';
import { daysInRange, isIsoDate, RANGE_MESSAGES, REPORT_MAX_DAYS } from './statsRange';

/** The longest range of the metrics, in days (both ends included): one leap year, as the call report. */
export const METRICS_MAX_DAYS = REPORT_MAX_DAYS;
/** Without `from`, the range starts this many days before `to` (a week, both ends included). */
export const METRICS_DEFAULT_DAYS = 7;

export const METRICS_MESSAGES = {
  fromAfterTo: '`from` must not be after `to`',
  tooLong: `The range can span at most ${METRICS_MAX_DAYS} days`,
} as const;

const day = isoDate.refine(isIsoDate, RANGE_MESSAGES.invalidDate);

export const reviewMetricsQuery = z
  .strictObject({
    from: day
      .optional()
      .describe(
        `First day (YYYY-MM-DD, UTC), included; default: ${METRICS_DEFAULT_DAYS - 1} days before \`to\``,
      ),
    to: day.optional().describe('Last day (YYYY-MM-DD, UTC), included; default: today'),
  })
  .superRefine((range, ctx) => {
    const { from, to } = range;
    if (!from || !to || !isIsoDate(from) || !isIsoDate(to)) return;
    if (from > to) ctx.addIssue({ code: 'custom', path: ['from'], message: METRICS_MESSAGES.fromAfterTo });
    else if (daysInRange(from, to) > METRICS_MAX_DAYS)
      ctx.addIssue({ code: 'custom', path: ['to'], message: METRICS_MESSAGES.tooLong });
  });
export type ReviewMetricsQuery = z.infer<typeof reviewMetricsQuery>;

const seconds = z.number().nullable();

export const reviewerMetricsSchema = z.object({
  user: z.number().int(),
  name: z.string(),
  /** Decisions made in the range: final decisions, decisions sent to a second review, escalations. */
  decisions: z.number().int(),
  /** Decisions per hour over the hours (UTC, whole clock hours) in which the reviewer made at least one. */
  decisions_per_hour: z.number().nullable(),
  /** From the reviewer's assignment to their decision, in seconds (decisions without an assignment left out). */
  median_seconds: seconds,
  p90_seconds: seconds,
  /** Cases of the reviewer decided in the range after their due time, plus those overdue now. */
  sla_breaches: z.number().int(),
  /** Four-eyes returns of the reviewer's decisions in the range. */
  four_eyes_returns: z.number().int(),
  /** Second reviews the reviewer did (confirmed or returned) in the range. */
  second_reviews: z.number().int(),
});
export type ReviewerMetrics = z.infer<typeof reviewerMetricsSchema>;

export const queueMetricsSchema = z.object({
  queue: z.number().int(),
  name: z.string(),
  /** Now: cases not decided, and those among them past their due time. */
  open: z.number().int(),
  overdue: z.number().int(),
  /** Cases decided in the range, those decided after their due time (plus the overdue now). */
  decided: z.number().int(),
  sla_breaches: z.number().int(),
  /** From a case's opening to its decision, over the cases decided in the range, in seconds. */
  median_seconds: seconds,
});
export type QueueMetrics = z.infer<typeof queueMetricsSchema>;

export const reviewMetricsSchema = z.object({
  from: isoDate,
  to: isoDate,
  generated_at: isoDateTime,
  reviewers: z.array(reviewerMetricsSchema),
  queues: z.array(queueMetricsSchema),
});
export type ReviewMetrics = z.infer<typeof reviewMetricsSchema>;

/** The columns of GET /review/metrics.csv, in order (its header line). */
export const METRICS_CSV_COLUMNS = [
  'section',
  'id',
  'name',
  'decisions',
  'decisions_per_hour',
  'median_seconds',
  'p90_seconds',
  'sla_breaches',
  'four_eyes_returns',
  'second_reviews',
  'open',
  'overdue',
] as const;
