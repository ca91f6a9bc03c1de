/**
 * Metrics of the reviewers' desk, computed in SQL from the cases and their timeline
 * (`review_case_events`), for one company over a range of UTC days (both ends included).
 *
 * - A reviewer's **decisions**: their `decided`, `decision_pending` (sent to a second review) and `escalated`
 *   events. **Per hour**: over the clock hours (UTC) in which they made at least one.
 * - **Time to decision**: from the latest `assigned` event that gave the case to them, before the decision.
 * - **SLA breaches**: cases assigned to them decided in the range after their due time, plus their cases
 *   overdue now. **Four-eyes returns**: `returned` events in the range naming them as maker.
 * - Queues: open and overdue now; decided in the range, breaches as above, median from opening to decision.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { QueueMetrics, ReviewerMetrics, ReviewMetrics } from '#contract/reviewMetrics';
import { addDays, dayStart } from '#contract/statsRange';
import type { DbOrTx } from '../../db/client';
import { fullName } from '../format';
import { reviewersOf } from './assign';
import { wakeSnoozed } from './cases';
import { ensureReviewSetup } from './setup';

/** Events that are a reviewer's decision on a case. */
const DECISION_KINDS = sql`('decided', 'decision_pending', 'escalated')`;

type Row = Record<string, unknown>;
const rowsOf = async (db: DbOrTx, query: SQL) =>
  ((await db.execute(query)) as unknown as { rows: Row[] }).rows;
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const int = (v: unknown) => Number(v ?? 0);
/** Seconds rounded to one decimal. */
const secs = (v: unknown) => {
  const n = num(v);
  return n === null ? null : Math.round(n * 10) / 10;
};

export async function reviewMetrics(
  db: DbOrTx,
  companyId: number,
  range: { from: string; to: string },
  now = new Date(),
): Promise<ReviewMetrics> {
  await ensureReviewSetup(db, companyId);
  await wakeSnoozed(db, companyId);
  const start = new Date(dayStart(range.from));
  const end = new Date(dayStart(addDays(range.to, 1)));
  const inRange = (column: SQL) => sql`${column} >= ${start} and ${column} < ${end}`;

  const decisions = await rowsOf(
    db,
    sql`
    with d as (
      select e.actor_id, e.created_at,
        (select a.created_at from review_case_events a
          where a.case_id = e.case_id and a.kind = 'assigned' and a.id < e.id
            and (a.data->>'assignee')::int = e.actor_id
          order by a.id desc limit 1) as assigned_at
      from review_case_events e
      where e.company_id = ${companyId} and e.actor_id is not null and e.kind in ${DECISION_KINDS}
        and ${inRange(sql`e.created_at`)}
    )
    select actor_id as user_id, count(*)::int as decisions,
      count(distinct date_trunc('hour', created_at at time zone 'UTC'))::int as hours,
      percentile_cont(0.5) within group (order by extract(epoch from created_at - assigned_at))
        filter (where assigned_at is not null) as median,
      percentile_cont(0.9) within group (order by extract(epoch from created_at - assigned_at))
        filter (where assigned_at is not null) as p90
    from d group by actor_id`,
  );
  const returns = await rowsOf(
    db,
    sql`
    select (data->>'maker')::int as user_id, count(*)::int as n from review_case_events
    where company_id = ${companyId} and kind = 'returned' and data->>'maker' is not null
      and ${inRange(sql`created_at`)}
    group by 1`,
  );
  const secondReviews = await rowsOf(
    db,
    sql`
    select actor_id as user_id, count(*)::int as n from review_case_events
    where company_id = ${companyId} and kind in ('confirmed', 'returned') and actor_id is not null
      and ${inRange(sql`created_at`)}
    group by 1`,
  );
  /** A case decided in the range after its due time, or overdue now. */
  const breach = sql`((c.state = 'decided' and ${inRange(sql`c.decided_at`)} and c.decided_at > c.due_at)
    or (c.state <> 'decided' and c.paused_at is null and c.due_at < ${now}))`;
  const breaches = await rowsOf(
    db,
    sql`
    select c.assignee_id as user_id, count(*)::int as n from review_cases c
    where c.company_id = ${companyId} and c.assignee_id is not null and ${breach}
    group by 1`,
  );

  const byUser = new Map<number, ReviewerMetrics>();
  const entry = (userId: number): ReviewerMetrics => {
    let found = byUser.get(userId);
    if (!found) {
      found = {
        user: userId,
        name: '',
        decisions: 0,
        decisions_per_hour: null,
        median_seconds: null,
        p90_seconds: null,
        sla_breaches: 0,
        four_eyes_returns: 0,
        second_reviews: 0,
      };
      byUser.set(userId, found);
    }
    return found;
  };
  for (const r of await reviewersOf(db, companyId)) entry(r.id).name = r.name;
  for (const r of decisions) {
    const m = entry(int(r.user_id));
    m.decisions = int(r.decisions);
    m.decisions_per_hour = int(r.hours) > 0 ? Math.round((m.decisions / int(r.hours)) * 100) / 100 : null;
    m.median_seconds = secs(r.median);
    m.p90_seconds = secs(r.p90);
  }
  for (const r of returns) entry(int(r.user_id)).four_eyes_returns = int(r.n);
  for (const r of secondReviews) entry(int(r.user_id)).second_reviews = int(r.n);
  for (const r of breaches) entry(int(r.user_id)).sla_breaches = int(r.n);

  // Users with figures who are no longer reviewers (group changed, disabled): named from the company's users.
  const unnamed = [...byUser.values()].filter((m) => m.name === '').map((m) => m.user);
  if (unnamed.length > 0) {
    const named = await rowsOf(
      db,
      sql`select id, first_name, last_name, email from users
        where company_id = ${companyId} and id in (${sql.join(
          unnamed.map((id) => sql`${id}`),
          sql`, `,
        )})`,
    );
    for (const u of named)
      entry(int(u.id)).name =
        fullName(String(u.first_name ?? ''), String(u.last_name ?? '')) || String(u.email);
  }

  const queueRows = await rowsOf(
    db,
    sql`
    select q.id, q.name,
      (count(c.id) filter (where c.state <> 'decided'))::int as open,
      (count(c.id) filter (where c.state <> 'decided' and c.paused_at is null and c.due_at < ${now}))::int as overdue,
      (count(c.id) filter (where c.state = 'decided' and ${inRange(sql`c.decided_at`)}))::int as decided,
      (count(c.id) filter (where ${breach}))::int as breaches,
      percentile_cont(0.5) within group (order by extract(epoch from c.decided_at - c.created_at))
        filter (where c.state = 'decided' and ${inRange(sql`c.decided_at`)}) as median
    from review_queues q left join review_cases c on c.queue_id = q.id and c.company_id = q.company_id
    where q.company_id = ${companyId}
    group by q.id order by q.senior, q.id`,
  );
  const queues: QueueMetrics[] = queueRows.map((q) => ({
    queue: int(q.id),
    name: String(q.name),
    open: int(q.open),
    overdue: int(q.overdue),
    decided: int(q.decided),
    sla_breaches: int(q.breaches),
    median_seconds: secs(q.median),
  }));

  return {
    from: range.from,
    to: range.to,
    generated_at: now.toISOString(),
    // Users without any figure and no longer reviewers never appear; the rest by name.
    reviewers: [...byUser.values()]
      .filter((m) => m.name !== '')
      .sort((a, b) => a.name.localeCompare(b.name) || a.user - b.user),
    queues,
  };
}
