import { type SQL, sql } from 'drizzle-orm';
import { CALL_STATUSES } from '#contract/common';
import { addDays, type CallFigures, type CallReport, dayStart, eachDay } from '#contract/stats';
import type { DbOrTx } from '../db/client';
import { fullName } from './format';
import type { ReportReads } from './reportReads';

/** The rows of a raw query, on PGlite and node-postgres alike (both answer `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** `[start, end + 1 day)` as timestamps (UTC midnights): ranges compare with >= and <, so indexes apply. */
export function rangeBounds(start: string, end: string): { from: Date; until: Date } {
  return { from: new Date(dayStart(start)), until: new Date(dayStart(addDays(end, 1))) };
}

/** The UTC day of `created_at`, as the timestamp of its midnight (cheaper than a time-zone conversion). */
export const dayBin = (column: string): SQL =>
  sql.raw(`date_bin('1 day', ${column}, TIMESTAMPTZ '2000-01-01 00:00:00+00')`);

/** `sum(n) FILTER (WHERE status = k)` for every call status code, as one int array (index = code). */
export function statusArray(count: string): SQL {
  const parts = CALL_STATUSES.map((_, code) => `coalesce(sum(${count}) FILTER (WHERE status = ${code}), 0)`);
  return sql.raw(`array[${parts.join(', ')}]::int[]`);
}

/** The figures of a group of `base` rows (counts per day or agent and status). */
const ROLL_UP = sql`coalesce(sum(calls), 0)::int AS calls, coalesce(sum(answered), 0)::int AS answered,
  coalesce(sum(handled), 0)::int AS handled,
  (extract(epoch FROM sum(handling)) / nullif(sum(handled), 0))::float8 AS average_handling_seconds,
  coalesce(extract(epoch FROM sum(handling)), 0)::float8 AS total_handling_seconds,
  ${statusArray('calls')} AS statuses`;

interface FigureRow {
  kind: 'day' | 'agent' | 'status' | 'total';
  day: string | null;
  agent_id: number | null;
  first_name: string | null;
  last_name: string | null;
  status: number | null;
  calls: number;
  answered: number;
  handled: number;
  average_handling_seconds: number | null;
  total_handling_seconds: number;
  statuses: number[];
}

const emptyFigures = (): CallFigures => ({
  calls: 0,
  answered: 0,
  handled: 0,
  average_handling_seconds: null,
  total_handling_seconds: 0,
  statuses: CALL_STATUSES.map(() => 0),
});

const figuresOf = (row: FigureRow): CallFigures => ({
  calls: row.calls,
  answered: row.answered,
  handled: row.handled,
  average_handling_seconds: row.average_handling_seconds,
  total_handling_seconds: row.total_handling_seconds,
  statuses: row.statuses.map(Number),
});

/**
 * The detailed call report of a company (GET /videocall/report): the calls created in the range (by
 * `created_at`, the moment the customer joined the queue), with totals and breakdowns by day, agent and
 * status. One SQL query over the call rollups does every count, sum and average; here the rows are only put
 * in shape (days without calls are filled with zeros).
 * Handling time is call_end_time − call_start_time, for calls that have both (and do not end before
 * they start).
 */
export function callReport(
  db: DbOrTx,
  reads: ReportReads,
  companyId: number,
  range: { start_date: string; end_date: string },
): Promise<CallReport> {
  const key = `report|${range.start_date}|${range.end_date}`;
  return reads.read(companyId, key, () => readCallReport(db, companyId, range));
}

async function readCallReport(
  db: DbOrTx,
  companyId: number,
  range: { start_date: string; end_date: string },
): Promise<CallReport> {
  // call_rollups (docs/decisions/0167-call-rollups.md): the calls' figures per UTC day, agent and status, kept by triggers; a range
  // reads days × agents × statuses rows, however many calls there are.
  const inRange = sql`company_id = ${companyId} AND day >= ${range.start_date}::date
    AND day < ${addDays(range.end_date, 1)}::date`;
  const sums = sql.raw(`sum(calls) AS calls, sum(answered) AS answered, sum(handled) AS handled,
             sum(handling) AS handling`);
  // The rollup rows are summed by (day, status) and (agent, status); the figures are then rolled up from
  // those few rows.
  const result = await db.execute(sql`
    WITH base AS (
      SELECT 'd' AS src, day, NULL::int AS agent_id, status, ${sums}
        FROM call_rollups WHERE ${inRange} GROUP BY 2, 4
      UNION ALL
      SELECT 'a', NULL, agent_id, status, ${sums}
        FROM call_rollups WHERE ${inRange} GROUP BY 3, 4
    ), figures AS (
      SELECT 'total' AS kind, NULL::date AS day, NULL::int AS agent_id, NULL::int AS status, ${ROLL_UP}
        FROM base WHERE src = 'd'
      UNION ALL
      SELECT 'day', day, NULL, NULL, ${ROLL_UP} FROM base WHERE src = 'd' GROUP BY day
      UNION ALL
      SELECT 'status', NULL, NULL, status, ${ROLL_UP} FROM base WHERE src = 'd' GROUP BY status
      UNION ALL
      SELECT 'agent', NULL, agent_id, NULL, ${ROLL_UP} FROM base WHERE src = 'a' GROUP BY agent_id
    )
    SELECT f.kind, to_char(f.day, 'YYYY-MM-DD') AS day, f.agent_id, f.status, f.calls,
           f.answered, f.handled, f.average_handling_seconds, f.total_handling_seconds, f.statuses,
           u.first_name, u.last_name
      FROM figures f LEFT JOIN users u ON f.kind = 'agent' AND u.id = f.agent_id
  `);
  const rows = rowsOf<FigureRow>(result);

  const byDay = new Map<string, CallFigures>();
  const byStatus = CALL_STATUSES.map((_, code) => ({ code, calls: 0 }));
  const byAgent: CallReport['by_agent'] = [];
  let totals = emptyFigures();
  for (const row of rows) {
    if (row.kind === 'total') totals = figuresOf(row);
    else if (row.kind === 'day' && row.day) byDay.set(row.day, figuresOf(row));
    else if (row.kind === 'status' && row.status !== null && byStatus[row.status])
      (byStatus[row.status] as { calls: number }).calls = row.calls;
    else if (row.kind === 'agent')
      byAgent.push({
        agent:
          row.agent_id === null
            ? null
            : { id: row.agent_id, name: fullName(row.first_name ?? '', row.last_name ?? '') },
        ...figuresOf(row),
      });
  }
  // Most calls first; the calls nobody took (no agent) last; ties by name.
  byAgent.sort(
    (a, b) =>
      Number(a.agent === null) - Number(b.agent === null) ||
      b.calls - a.calls ||
      (a.agent?.name ?? '').localeCompare(b.agent?.name ?? ''),
  );
  return {
    start_date: range.start_date,
    end_date: range.end_date,
    totals,
    by_status: byStatus,
    by_day: eachDay(range.start_date, range.end_date).map((date) => ({
      date,
      ...(byDay.get(date) ?? emptyFigures()),
    })),
    by_agent: byAgent,
  };
}
