/** What the desk reads: the case list with its filters and views, one case with its timeline, queues. */
import { and, asc, eq, inArray, isNull, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { ProfileStatus, RiskLevel } from '#contract/common';
import type {
  FourEyesRule,
  ReviewCase,
  ReviewCaseDetail,
  ReviewCaseKind,
  ReviewCaseListQuery,
  ReviewCaseState,
  ReviewDecision,
  ReviewEventKind,
  ReviewQueue,
} from '#contract/review';
import type { DbOrTx } from '../../db/client';
import {
  profiles,
  reviewCaseEvents,
  reviewCases,
  reviewPendingDecisions,
  reviewQueues,
  users,
} from '../../db/schema';
import { notFound } from '../../errors';
import { countList, DEFAULT_COUNT_CAP, type ListCount } from '../counting';
import { fullName, iso } from '../format';
import { type KeysetLinks, type KeysetOrdering, keyTextOf, readKeysetPage } from '../keyset';
import type { Principal } from '../principal';
import { type CaseRow, isOverdue, wakeSnoozed } from './cases';
import { ensureReviewSetup } from './setup';

const caseColumns = {
  row: reviewCases,
  profileName: profiles.name,
  profileStatus: profiles.status,
  riskLevel: profiles.riskLevel,
  queueName: reviewQueues.name,
  assigneeFirst: users.firstName,
  assigneeLast: users.lastName,
  assigneeEmail: users.email,
};

type Joined = {
  row: CaseRow;
  profileName: string | null;
  profileStatus: string;
  riskLevel: string;
  queueName: string;
  assigneeFirst: string | null;
  assigneeLast: string | null;
  assigneeEmail: string | null;
};

function toCase(j: Joined, now = Date.now()): ReviewCase {
  const r = j.row;
  return {
    id: r.id,
    profile: r.profileId,
    profile_name: j.profileName ?? '',
    profile_status: j.profileStatus as ProfileStatus,
    risk_level: j.riskLevel as RiskLevel,
    kind: r.kind as ReviewCaseKind,
    queue: r.queueId,
    queue_name: j.queueName,
    state: r.state as ReviewCaseState,
    assignee: r.assigneeId,
    assignee_name:
      r.assigneeId === null ? null : fullName(j.assigneeFirst ?? '', j.assigneeLast ?? '') || j.assigneeEmail,
    due_at: iso(r.dueAt),
    overdue: isOverdue(r, now),
    snoozed_until: iso(r.snoozedUntil),
    decision: r.decision as ReviewDecision | null,
    reason_code: r.reasonCode,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
    decided_at: iso(r.decidedAt),
  };
}

const joinedCases = (db: DbOrTx) =>
  db
    .select(caseColumns)
    .from(reviewCases)
    .innerJoin(profiles, eq(profiles.id, reviewCases.profileId))
    .innerJoin(reviewQueues, eq(reviewQueues.id, reviewCases.queueId))
    .leftJoin(users, eq(users.id, reviewCases.assigneeId));

function filters(
  principal: Principal,
  query: Omit<ReviewCaseListQuery, 'limit' | 'offset'>,
): SQL | undefined {
  const where: SQL[] = [eq(reviewCases.companyId, principal.companyId)];
  where.push(query.state ? eq(reviewCases.state, query.state) : ne(reviewCases.state, 'decided'));
  if (query.queue !== undefined) where.push(eq(reviewCases.queueId, query.queue));
  if (query.assignee !== undefined) where.push(eq(reviewCases.assigneeId, query.assignee));
  if (query.profile !== undefined) where.push(eq(reviewCases.profileId, query.profile));
  if (query.due_before) where.push(lt(reviewCases.dueAt, new Date(query.due_before)));
  switch (query.view) {
    case 'mine':
      where.push(eq(reviewCases.assigneeId, principal.id));
      break;
    case 'unassigned':
      where.push(isNull(reviewCases.assigneeId), inArray(reviewCases.state, ['open', 'escalated']));
      break;
    case 'overdue':
      where.push(
        isNull(reviewCases.pausedAt),
        ne(reviewCases.state, 'decided'),
        lt(reviewCases.dueAt, sql`now()`),
      );
      break;
    case 'escalated':
      where.push(eq(reviewCases.state, 'escalated'));
      break;
    case 'awaiting_second_review':
      where.push(eq(reviewCases.state, 'awaiting_second_review'));
      break;
  }
  return and(...where);
}

/** The desk's orderings by due time, ties by id, by keyset (docs/decisions/0164-keyset-lists.md). */
const CASE_ORDERINGS: Record<'due_at' | '-due_at', KeysetOrdering> = {
  due_at: {
    name: 'due_at',
    key: { expr: reviewCases.dueAt, kind: 'timestamp' },
    id: reviewCases.id,
    descending: false,
  },
  '-due_at': {
    name: '-due_at',
    key: { expr: reviewCases.dueAt, kind: 'timestamp' },
    id: reviewCases.id,
    descending: true,
  },
};

/** GET /review/cases: open cases (or those of `state`), soonest due first. */
export async function listCases(
  db: DbOrTx,
  principal: Principal,
  query: ReviewCaseListQuery,
  countCap = DEFAULT_COUNT_CAP,
): Promise<ListCount & { links: KeysetLinks; results: ReviewCase[] }> {
  await wakeSnoozed(db, principal.companyId);
  const where = filters(principal, query);
  const ordering = CASE_ORDERINGS[query.ordering ?? 'due_at'];
  const [total, page] = await Promise.all([
    countList(db, db.select({ one: sql`1` }).from(reviewCases).where(where), countCap),
    readKeysetPage(
      ordering,
      query,
      (place, orderBy, limit) =>
        db
          .select({ ...caseColumns, position: keyTextOf(ordering) })
          .from(reviewCases)
          .innerJoin(profiles, eq(profiles.id, reviewCases.profileId))
          .innerJoin(reviewQueues, eq(reviewQueues.id, reviewCases.queueId))
          .leftJoin(users, eq(users.id, reviewCases.assigneeId))
          .where(place ? and(where, place) : where)
          .orderBy(...orderBy)
          .limit(limit),
      (row) => ({ key: row.position, id: row.row.id }),
      { db, where },
    ),
  ]);
  const now = Date.now();
  return { ...total, links: page.links, results: page.rows.map((r) => toCase(r, now)) };
}

/** One case of the caller's company (404 otherwise), as the list shows it. */
export async function readCase(db: DbOrTx, companyId: number, caseId: number): Promise<ReviewCase> {
  const [row] = await joinedCases(db).where(
    and(eq(reviewCases.id, caseId), eq(reviewCases.companyId, companyId)),
  );
  if (!row) throw notFound();
  return toCase(row);
}

/** GET /review/cases/{id}: the case, its waiting decision and its timeline (oldest first). */
export async function caseDetail(db: DbOrTx, companyId: number, caseId: number): Promise<ReviewCaseDetail> {
  await wakeSnoozed(db, companyId);
  const item = await readCase(db, companyId, caseId);
  const [pending] = await db
    .select()
    .from(reviewPendingDecisions)
    .where(and(eq(reviewPendingDecisions.caseId, caseId), isNull(reviewPendingDecisions.outcome)));
  const events = await db
    .select()
    .from(reviewCaseEvents)
    .where(eq(reviewCaseEvents.caseId, caseId))
    .orderBy(asc(reviewCaseEvents.id));
  return {
    ...item,
    pending: pending
      ? {
          id: pending.id,
          maker: pending.makerId,
          decision: pending.decision as ReviewDecision,
          reason_code: pending.reasonCode,
          note: pending.note,
          created_at: iso(pending.createdAt),
          rules: pending.rules as FourEyesRule[],
        }
      : null,
    timeline: events.map((e) => ({
      id: e.id,
      kind: e.kind as ReviewEventKind,
      actor: e.actorId,
      data: e.data,
      created_at: iso(e.createdAt),
    })),
  };
}

/** GET /review/queues: the company's queues with their open, overdue and awaiting-second-review counts. */
export async function listQueues(db: DbOrTx, companyId: number): Promise<ReviewQueue[]> {
  await ensureReviewSetup(db, companyId);
  await wakeSnoozed(db, companyId);
  const rows = await db
    .select({
      queue: reviewQueues,
      open: sql<number>`(count(${reviewCases.id}) filter (where ${reviewCases.state} <> 'decided'))::int`,
      overdue: sql<number>`(count(${reviewCases.id}) filter (where ${reviewCases.state} <> 'decided'
        and ${reviewCases.pausedAt} is null and ${reviewCases.dueAt} < now()))::int`,
      awaiting: sql<number>`(count(${reviewCases.id}) filter (where ${reviewCases.state} = 'awaiting_second_review'))::int`,
    })
    .from(reviewQueues)
    .leftJoin(reviewCases, eq(reviewCases.queueId, reviewQueues.id))
    .where(eq(reviewQueues.companyId, companyId))
    .groupBy(reviewQueues.id)
    .orderBy(asc(reviewQueues.senior), asc(reviewQueues.id));
  return rows.map(({ queue, open, overdue, awaiting }) => ({
    id: queue.id,
    name: queue.name,
    sla_hours: queue.slaHours,
    senior: queue.senior,
    auto_assign: queue.autoAssign,
    open,
    overdue,
    awaiting_second_review: awaiting,
  }));
}
