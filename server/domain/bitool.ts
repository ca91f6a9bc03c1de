import { sql } from 'drizzle-orm';
import { CALL_STATUSES, CHECK_KINDS, PROFILE_STATUSES, type ProfileStatus } from '#contract/common';
import {
  addDays,
  type Bitool,
  type BitoolPeriod,
  type BitoolQuery,
  bucketOf,
  dayOf,
  eachBucket,
  lastMonths,
  monthsBefore,
} from '#contract/stats';
import type { DbOrTx } from '../db/client';
import { badRequest } from '../errors';
import { rowsOf, statusArray } from './callReport';
import type { ReportReads } from './reportReads';

/**
 * The dashboard's range: both dates as given; end defaults to today (UTC) and start to 6 months before
 * the end (docs/product/constants.md). A start given alone must not be after today.
 */
export function bitoolRange(query: BitoolQuery, now: Date = new Date()): { start: string; end: string } {
  const today = dayOf(now);
  const end = query.end_date ?? today;
  const start = query.start_date ?? (query.end_date ? monthsBefore(end, 6) : lastMonths(today).start);
  if (start > end) throw badRequest('querystring.start_date: start_date must not be after end_date');
  return { start, end };
}

/** One row of the period query: a source's figures in one period (and key: a profile status). */
export interface PeriodRow {
  source: 'profiles' | 'decisions' | 'aml' | 'calls';
  period: string;
  key: string | null;
  n: number;
  hits: number;
  errors: number;
  statuses: number[] | null;
}

/** One row of the document check query: the documents of the range with this result of this check. */
export interface CheckRow {
  kind: string;
  result: string;
  n: number;
}

const emptyPeriod = (period: string): BitoolPeriod => ({
  period,
  profiles: Object.fromEntries(PROFILE_STATUSES.map((s) => [s, 0])) as Record<ProfileStatus, number>,
  approved: 0,
  temporarily_approved: 0,
  rejected: 0,
  blacklisted: 0,
  aml_screenings: 0,
  aml_hits: 0,
  aml_errors: 0,
  calls: 0,
  call_statuses: CALL_STATUSES.map(() => 0),
});

const DECISIONS: Partial<
  Record<ProfileStatus, 'approved' | 'temporarily_approved' | 'rejected' | 'blacklisted'>
> = {
  Approved: 'approved',
  'Temporarily Approved': 'temporarily_approved',
  Rejected: 'rejected',
  Blacklisted: 'blacklisted',
};

/**
 * The dashboard's figures (GET /bitool) for one company, summed in SQL over the rollups of its days (records
 * 0167 and 0170: kept by triggers, equal to counting the rows):
 * - profiles created in each period, by current status;
 * - approvals and rejections: profiles whose last status change (`last_status_date`) falls in the period
 *   and left them Approved, Temporarily Approved, Rejected or Blacklisted;
 * - AML screenings (aml_history rows) per period, with hits and errors;
 * - calls created per period, by status, and the call outcomes of the whole range;
 * - the checks of documents uploaded in the range (not deleted), per kind and result.
 * Periods are ISO weeks for ranges up to 92 days, else months (bucketOf).
 */
export function bitool(
  db: DbOrTx,
  reads: ReportReads,
  companyId: number,
  query: BitoolQuery,
  now?: Date,
): Promise<Bitool> {
  const { start, end } = bitoolRange(query, now);
  return reads.read(companyId, `bitool|${start}|${end}`, () => readBitool(db, companyId, start, end));
}

async function readBitool(db: DbOrTx, companyId: number, start: string, end: string): Promise<Bitool> {
  const bucket = bucketOf(start, end);
  // Each source is read per UTC day from its rollups, then the few day rows go into periods. `bucket` is
  // 'week' or 'month' (never user text), written as a literal.
  const period = sql.raw(`to_char(date_trunc('${bucket}', day AT TIME ZONE 'UTC'), 'YYYY-MM-DD')`);
  const decisions = Object.keys(DECISIONS).map((s) => sql`${s}`);
  const kinds = sql.raw(CHECK_KINDS.map((kind, i) => `('${kind}', ${i + 1})`).join(', '));
  const days = sql`day >= ${start}::date AND day < ${addDays(end, 1)}::date`;

  const [periodResult, checkResult] = await Promise.all([
    db.execute(sql`
      WITH rolled AS (
        -- The dashboard rollups (docs/decisions/0170-dashboard-rollups.md): per UTC day, profiles created and decided by status and AML
        -- screenings, kept by triggers on profiles and aml_history.
        SELECT source, day::timestamp AT TIME ZONE 'UTC' AS day, key AS status, n, hits, errors
          FROM dashboard_rollups
         WHERE company_id = ${companyId} AND source IN ('created', 'decided', 'screened') AND ${days}
      ), created AS (
        SELECT day, status, n FROM rolled WHERE source = 'created'
      ), decided AS (
        SELECT day, status, n FROM rolled
         WHERE source = 'decided' AND status IN (${sql.join(decisions, sql`, `)})
      ), screened AS (
        SELECT day, n, hits, errors FROM rolled WHERE source = 'screened'
      ), called AS (
        -- The call rollups (docs/decisions/0167-call-rollups.md): per UTC day, agent and status, kept by triggers on video_calls.
        SELECT day::timestamp AT TIME ZONE 'UTC' AS day, status, sum(calls) AS n FROM call_rollups
         WHERE company_id = ${companyId} AND ${days}
         GROUP BY 1, 2
      )
      SELECT 'profiles' AS source, ${period} AS period, status AS key, sum(n)::int AS n, 0 AS hits, 0 AS errors,
             NULL::int[] AS statuses
        FROM created GROUP BY 2, 3
      UNION ALL
      SELECT 'decisions', ${period}, status, sum(n)::int, 0, 0, NULL FROM decided GROUP BY 2, 3
      UNION ALL
      SELECT 'aml', ${period}, NULL, sum(n)::int, sum(hits)::int, sum(errors)::int, NULL FROM screened GROUP BY 2
      UNION ALL
      SELECT 'calls', ${period}, NULL, sum(n)::int, 0, 0, ${statusArray('n')} FROM called GROUP BY 2
    `),
    // check_results is `document|fraud|biometric|cross` (a generated column); the rollups count the
    // documents not deleted per day and check_results, then each group's results are split per kind.
    db.execute(sql`
      WITH r AS (
        SELECT key AS check_results, sum(n) AS n FROM dashboard_rollups
         WHERE company_id = ${companyId} AND source = 'checked' AND ${days}
         GROUP BY 1
      )
      SELECT k.kind,
             CASE WHEN split_part(r.check_results, '|', k.pos) IN ('passed', 'warning', 'failed')
                  THEN split_part(r.check_results, '|', k.pos) ELSE 'not_run' END AS result,
             sum(r.n)::int AS n
        FROM r CROSS JOIN (VALUES ${kinds}) AS k(kind, pos)
       GROUP BY 1, 2
    `),
  ]);
  return bitoolOf(start, end, bucket, rowsOf<PeriodRow>(periodResult), rowsOf<CheckRow>(checkResult));
}

/** The answer of GET /bitool from the rows of its two queries (the periods of the range, filled with zeros). */
export function bitoolOf(
  start: string,
  end: string,
  bucket: Bitool['bucket'],
  periodRows: PeriodRow[],
  checkRows: CheckRow[],
): Bitool {
  const periods = new Map(eachBucket(start, end, bucket).map((p) => [p, emptyPeriod(p)]));
  const callOutcomes = CALL_STATUSES.map((_, code) => ({ code, calls: 0 }));
  const totals: Bitool['totals'] = {
    profiles: 0,
    approved: 0,
    rejected: 0,
    documents: 0,
    aml_screenings: 0,
    aml_hits: 0,
    calls: 0,
  };
  for (const row of periodRows) {
    const entry = periods.get(row.period);
    if (!entry) continue;
    if (row.source === 'profiles') {
      const status = row.key as ProfileStatus;
      if (status in entry.profiles) entry.profiles[status] += row.n;
      totals.profiles += row.n;
    } else if (row.source === 'decisions') {
      const field = DECISIONS[row.key as ProfileStatus];
      if (!field) continue;
      entry[field] += row.n;
      if (field === 'approved' || field === 'temporarily_approved') totals.approved += row.n;
      else totals.rejected += row.n;
    } else if (row.source === 'aml') {
      entry.aml_screenings = row.n;
      entry.aml_hits = row.hits;
      entry.aml_errors = row.errors;
      totals.aml_screenings += row.n;
      totals.aml_hits += row.hits;
    } else {
      entry.calls = row.n;
      entry.call_statuses = (row.statuses ?? []).map(Number);
      totals.calls += row.n;
      entry.call_statuses.forEach((n, code) => {
        const outcome = callOutcomes[code];
        if (outcome) outcome.calls += n;
      });
    }
  }

  const checks = new Map(
    CHECK_KINDS.map((kind) => [kind, { kind, passed: 0, warning: 0, failed: 0, not_run: 0 }]),
  );
  const documentCounts = new Map<string, number>();
  for (const row of checkRows) {
    const entry = checks.get(row.kind as (typeof CHECK_KINDS)[number]);
    if (!entry) continue;
    entry[row.result as 'passed' | 'warning' | 'failed' | 'not_run'] += row.n;
    documentCounts.set(row.kind, (documentCounts.get(row.kind) ?? 0) + row.n);
  }
  // Every document is counted once per kind: any kind's sum is the number of documents.
  totals.documents = documentCounts.get(CHECK_KINDS[0]) ?? 0;

  return {
    start_date: start,
    end_date: end,
    bucket,
    totals,
    periods: [...periods.values()],
    document_checks: [...checks.values()],
    call_outcomes: callOutcomes,
  };
}
