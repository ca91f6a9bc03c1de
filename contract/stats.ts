import { z } from 'zod';
import { CHECK_KINDS, callStatusCodeSchema, isoDate, PROFILE_STATUSES } from './common';
import { BITOOL_MAX_DAYS, daysInRange, isIsoDate, RANGE_MESSAGES, REPORT_MAX_DAYS } from './statsRange';

export * from './statsRange';

/** A calendar day `YYYY-MM-DD` (UTC). */
const day = isoDate.refine(isIsoDate, RANGE_MESSAGES.invalidDate);

/** start ≤ end and at most `maxDays` days, reported on `end_date`. */
function checkRange(maxDays: number, tooLong: string) {
  return (
    range: { start_date?: string | undefined; end_date?: string | undefined },
    ctx: z.RefinementCtx,
  ) => {
    const { start_date: start, end_date: end } = range;
    if (!start || !end || !isIsoDate(start) || !isIsoDate(end)) return;
    if (start > end)
      ctx.addIssue({ code: 'custom', path: ['end_date'], message: RANGE_MESSAGES.startAfterEnd });
    else if (daysInRange(start, end) > maxDays)
      ctx.addIssue({ code: 'custom', path: ['end_date'], message: tooLong });
  };
}

// ---------------------------------------------------------------- GET /videocall/report

export const callReportQuerySchema = z
  .strictObject({
    start_date: day.describe('First day of the report (YYYY-MM-DD, UTC), included'),
    end_date: day.describe(
      `Last day (YYYY-MM-DD, UTC), included; at most ${REPORT_MAX_DAYS} days after start`,
    ),
  })
  .superRefine(checkRange(REPORT_MAX_DAYS, RANGE_MESSAGES.reportTooLong));
export type CallReportQuery = z.infer<typeof callReportQuerySchema>;

/** Counts of one group of calls. `statuses[code]` is the number of calls with that status code. */
const callFigures = {
  calls: z.number().int(),
  /** Calls an agent answered (call_start_time set). */
  answered: z.number().int(),
  /** Answered calls that ended (both times set): the ones with a handling time. */
  handled: z.number().int(),
  /** Mean of call_end_time − call_start_time over the handled calls, in seconds; null when none. */
  average_handling_seconds: z.number().nullable(),
  total_handling_seconds: z.number(),
  statuses: z.array(z.number().int()).length(10).describe('Calls per status code 0..9 (index = code)'),
};

export const callReportSchema = z.object({
  start_date: isoDate,
  end_date: isoDate,
  totals: z.object(callFigures),
  by_status: z.array(z.object({ code: callStatusCodeSchema, calls: z.number().int() })),
  by_day: z.array(z.object({ date: isoDate, ...callFigures })),
  by_agent: z.array(
    z.object({
      /** null: calls no agent took (waiting, missed). */
      agent: z.object({ id: z.number().int(), name: z.string() }).nullable(),
      ...callFigures,
    }),
  ),
});
export type CallReport = z.infer<typeof callReportSchema>;
export type CallFigures = CallReport['totals'];

// ---------------------------------------------------------------- GET /bitool

export const bitoolQuerySchema = z
  .strictObject({
    start_date: day.optional().describe('First day (YYYY-MM-DD, UTC); default: 6 months before end_date'),
    end_date: day.optional().describe('Last day (YYYY-MM-DD, UTC); default: today'),
  })
  .superRefine(checkRange(BITOOL_MAX_DAYS, RANGE_MESSAGES.bitoolTooLong));
export type BitoolQuery = z.infer<typeof bitoolQuerySchema>;

const profileStatusCounts = z.object(
  Object.fromEntries(PROFILE_STATUSES.map((s) => [s, z.number().int()])) as Record<
    (typeof PROFILE_STATUSES)[number],
    z.ZodNumber
  >,
);

export const CHECK_RESULTS = ['passed', 'warning', 'failed', 'not_run'] as const;

export const bitoolSchema = z.object({
  start_date: isoDate,
  end_date: isoDate,
  /** Periods are ISO weeks (from Monday) for ranges up to 92 days, else calendar months. */
  bucket: z.enum(['week', 'month']),
  totals: z.object({
    profiles: z.number().int(),
    approved: z.number().int(),
    rejected: z.number().int(),
    documents: z.number().int(),
    aml_screenings: z.number().int(),
    aml_hits: z.number().int(),
    calls: z.number().int(),
  }),
  periods: z.array(
    z.object({
      /** First day of the period (it may start before start_date; only days in the range count). */
      period: isoDate,
      /** Profiles created in the period, by their current status. */
      profiles: profileStatusCounts,
      /** Profiles whose last status change in the period made them (temporarily) approved / rejected or blacklisted. */
      approved: z.number().int(),
      temporarily_approved: z.number().int(),
      rejected: z.number().int(),
      blacklisted: z.number().int(),
      aml_screenings: z.number().int(),
      aml_hits: z.number().int(),
      aml_errors: z.number().int(),
      calls: z.number().int(),
      /** Calls per status code 0..9 (index = code). */
      call_statuses: z.array(z.number().int()).length(10),
    }),
  ),
  /** Documents uploaded in the range: each check kind by result (`not_run` when the check is missing). */
  document_checks: z.array(
    z.object({
      kind: z.enum(CHECK_KINDS),
      passed: z.number().int(),
      warning: z.number().int(),
      failed: z.number().int(),
      not_run: z.number().int(),
    }),
  ),
  /** Calls created in the range per status code. */
  call_outcomes: z.array(z.object({ code: callStatusCodeSchema, calls: z.number().int() })),
});
export type Bitool = z.infer<typeof bitoolSchema>;
export type BitoolPeriod = Bitool['periods'][number];
