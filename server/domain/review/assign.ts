/**
 * Who works which case: take, assign to a colleague, unassign; auto-assignment to the least-loaded
 * eligible reviewer within capacity; and Next case, the oldest due unassigned case of the caller's queues,
 * taken in one conditional UPDATE over a `FOR UPDATE SKIP LOCKED` pick so concurrent callers never share one.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Permission } from '#contract/common';
import { REVIEW_DETAILS } from '#contract/review';
import type { DbOrTx, Tx } from '../../db/client';
import { jsonRows } from '../../db/rows';
import { reviewCases, reviewerSettings, reviewQueues, users } from '../../db/schema';
import { badRequest, conflict, forbidden } from '../../errors';
import { fullName } from '../format';
import { loadPrincipal, type Principal } from '../principal';
import { type CaseRow, caseStep, caseSteps, lockCase } from './cases';
import { ensureReviewSetup } from './setup';

/** States in which a case waits for (or is being worked by) a reviewer and can be assigned. */
export const WORKABLE_STATES = ['open', 'escalated', 'awaiting_customer', 'snoozed'] as const;
/** Serialises auto-assignment per company, so two batches do not both fill one reviewer's last slot. */
const AUTO_ASSIGN_LOCK = 6_030;
export const DEFAULT_CAPACITY = 10;

const has = (p: Pick<Principal, 'permissions'>, permission: Permission) => p.permissions.includes(permission);

/** A reviewer of cases: review_profiles, not an API user; a senior queue also needs second_review. */
export const mayReview = (p: Principal, senior: boolean) =>
  !p.isApiUser && has(p, 'review_profiles') && (!senior || has(p, 'second_review'));

async function queueOf(db: DbOrTx, queueId: number) {
  const [queue] = await db.select().from(reviewQueues).where(eq(reviewQueues.id, queueId));
  if (!queue) throw new Error(`review queue ${queueId} is gone`);
  return queue;
}

async function setAssignee(tx: Tx, row: CaseRow, userId: number | null, actorId: number, how: string) {
  const now = new Date();
  const [after] = await tx
    .update(reviewCases)
    .set({ assigneeId: userId, assignedAt: userId === null ? null : now, updatedAt: now })
    .where(eq(reviewCases.id, row.id))
    .returning();
  await caseStep(
    tx,
    row,
    actorId,
    userId === null ? 'unassigned' : 'assigned',
    userId === null ? 'review_case_unassigned' : 'review_case_assigned',
    { assignee: userId, how },
    { assignee: row.assigneeId },
  );
  return after as CaseRow;
}

/**
 * POST /review/cases/{id}/assign: `user` absent takes the case. The new assignee must be an eligible reviewer of
 * the caller's company for the case's queue (400 otherwise: an unknown id says no more than that); a case
 * assigned to someone else is reassigned only by them or an Admin (409).
 */
export async function assignCase(tx: Tx, actor: Principal, caseId: number, user?: number): Promise<CaseRow> {
  const row = await lockCase(tx, actor.companyId, caseId);
  if (!(WORKABLE_STATES as readonly string[]).includes(row.state))
    throw conflict(row.state === 'decided' ? REVIEW_DETAILS.caseDecided : REVIEW_DETAILS.awaitingSecond);
  const queue = await queueOf(tx, row.queueId);
  const targetId = user ?? actor.id;
  const target = targetId === actor.id ? actor : await loadPrincipal(tx, targetId);
  if (!target || target.companyId !== actor.companyId || !mayReview(target, queue.senior))
    throw badRequest(REVIEW_DETAILS.notEligible);
  if (row.assigneeId === targetId) return row;
  if (row.assigneeId !== null && row.assigneeId !== actor.id && actor.role !== 'Admin')
    throw conflict(REVIEW_DETAILS.takenByOther);
  return setAssignee(tx, row, targetId, actor.id, targetId === actor.id ? 'take' : 'assign');
}

/**
 * POST /review/cases/{id}/move: to another queue of the caller's company (400 for any other id). Like a
 * reassignment, someone else's case moves only by them or an Admin (409). The due time stays (the promise made
 * when the case opened); a running case takes the running state of its new queue (escalated in a senior one),
 * and an assignee who may not review the new queue is let go.
 */
export async function moveCase(tx: Tx, actor: Principal, caseId: number, queueId: number): Promise<CaseRow> {
  const row = await lockCase(tx, actor.companyId, caseId);
  if (!(WORKABLE_STATES as readonly string[]).includes(row.state))
    throw conflict(row.state === 'decided' ? REVIEW_DETAILS.caseDecided : REVIEW_DETAILS.awaitingSecond);
  if (row.assigneeId !== null && row.assigneeId !== actor.id && actor.role !== 'Admin')
    throw conflict(REVIEW_DETAILS.takenByOther);
  const [queue] = await tx
    .select()
    .from(reviewQueues)
    .where(and(eq(reviewQueues.id, queueId), eq(reviewQueues.companyId, actor.companyId)));
  if (!queue) throw badRequest(REVIEW_DETAILS.unknownQueue);
  if (queue.id === row.queueId) return row;
  const assignee = row.assigneeId === null ? null : await loadPrincipal(tx, row.assigneeId);
  const keeps = assignee !== null && mayReview(assignee, queue.senior);
  const running = row.state === 'open' || row.state === 'escalated';
  const now = new Date();
  const [after] = await tx
    .update(reviewCases)
    .set({
      queueId: queue.id,
      ...(running ? { state: queue.senior ? 'escalated' : 'open' } : {}),
      ...(keeps ? {} : { assigneeId: null, assignedAt: null }),
      updatedAt: now,
    })
    .where(eq(reviewCases.id, row.id))
    .returning();
  await caseStep(
    tx,
    row,
    actor.id,
    'moved',
    'review_case_moved',
    { queue: queue.id, assignee: keeps ? row.assigneeId : null },
    { queue: row.queueId, assignee: row.assigneeId },
  );
  return after as CaseRow;
}

/** POST /review/cases/{id}/unassign: by the assignee or an Admin. */
export async function unassignCase(tx: Tx, actor: Principal, caseId: number): Promise<CaseRow> {
  const row = await lockCase(tx, actor.companyId, caseId);
  if (row.state === 'decided') throw conflict(REVIEW_DETAILS.caseDecided);
  if (row.assigneeId === null) return row;
  if (row.assigneeId !== actor.id && actor.role !== 'Admin') throw forbidden(REVIEW_DETAILS.notAssignee);
  return setAssignee(tx, row, null, actor.id, 'unassign');
}

export interface ReviewerLoad {
  id: number;
  name: string;
  capacity: number;
  away: boolean;
  load: number;
  secondReview: boolean;
}

const hasGroupPermission = (permission: Permission) => sql<boolean>`(${users.role} = 'Admin' or exists (
  select 1 from user_groups ug join groups g on g.id = ug.group_id
  where ug.user_id = ${users.id} and g.permissions @> ${JSON.stringify([permission])}::jsonb))`;

/** The company's reviewers (active staff with review_profiles) with capacity, away status and open cases. */
export async function reviewersOf(db: DbOrTx, companyId: number): Promise<ReviewerLoad[]> {
  const rows = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      capacity: sql<number>`coalesce(${reviewerSettings.capacity}, ${DEFAULT_CAPACITY})::int`,
      away: sql<boolean>`coalesce(${reviewerSettings.away}, false)`,
      secondReview: hasGroupPermission('second_review'),
      load: sql<number>`(select count(*)::int from review_cases c
        where c.assignee_id = ${users.id} and c.state <> 'decided')`,
    })
    .from(users)
    .leftJoin(reviewerSettings, eq(reviewerSettings.userId, users.id))
    .where(
      and(
        eq(users.companyId, companyId),
        eq(users.isActive, true),
        eq(users.isApiUser, false),
        hasGroupPermission('review_profiles'),
      ),
    )
    .orderBy(users.id);
  return rows.map((r) => ({
    id: r.id,
    name: fullName(r.firstName, r.lastName) || r.email,
    capacity: r.capacity,
    away: r.away,
    load: r.load,
    secondReview: r.secondReview,
  }));
}

/**
 * Assigns the given unassigned cases, oldest due first, each to the least-loaded reviewer who is not away, is
 * under capacity and may work its queue (ties: the lowest id). Cases nobody can take stay unassigned. One
 * statement writes the batch. Answers how many were assigned.
 */
export async function autoAssign(db: DbOrTx, companyId: number, caseIds: number[]): Promise<number> {
  if (caseIds.length === 0) return 0;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${AUTO_ASSIGN_LOCK}, ${companyId})`);
    const cases = await tx
      .select({ id: reviewCases.id, profileId: reviewCases.profileId, senior: reviewQueues.senior })
      .from(reviewCases)
      .innerJoin(reviewQueues, eq(reviewQueues.id, reviewCases.queueId))
      .where(
        and(
          eq(reviewCases.companyId, companyId),
          sql`${reviewCases.id} in (select value::int from jsonb_array_elements_text(${JSON.stringify(caseIds)}::jsonb))`,
          isNull(reviewCases.assigneeId),
          inArray(reviewCases.state, ['open', 'escalated']),
        ),
      )
      .orderBy(reviewCases.dueAt, reviewCases.id);
    const reviewers = (await reviewersOf(tx, companyId)).filter((r) => !r.away && r.load < r.capacity);
    const picks: { caseId: number; profileId: number; userId: number }[] = [];
    for (const c of cases) {
      let best: ReviewerLoad | undefined;
      for (const r of reviewers) {
        if (r.load >= r.capacity || (c.senior && !r.secondReview)) continue;
        if (!best || r.load < best.load) best = r;
      }
      if (!best) continue;
      best.load += 1;
      picks.push({ caseId: c.id, profileId: c.profileId, userId: best.id });
    }
    if (picks.length === 0) return 0;
    const now = new Date();
    await tx.execute(sql`
      update review_cases as c set assignee_id = v.user_id, assigned_at = ${now}, updated_at = ${now}
      from ${jsonRows(
        picks.map((p) => ({ case_id: p.caseId, user_id: p.userId })),
        'case_id int, user_id int',
      )}
      where c.id = v.case_id and c.assignee_id is null`);
    await caseSteps(
      tx,
      picks.map((p) => ({
        row: { id: p.caseId, companyId, profileId: p.profileId },
        data: { assignee: p.userId, how: 'auto' },
      })),
      null,
      'assigned',
      'review_case_assigned',
    );
    return picks.length;
  });
}

/**
 * The queues the principal works: every ordinary queue, and the senior ones with second_review (the company's
 * default queues made first, on its first use).
 */
async function myQueueIds(db: DbOrTx, principal: Principal): Promise<number[]> {
  await ensureReviewSetup(db, principal.companyId);
  const rows = await db
    .select({ id: reviewQueues.id, senior: reviewQueues.senior })
    .from(reviewQueues)
    .where(eq(reviewQueues.companyId, principal.companyId));
  return rows.filter((q) => mayReview(principal, q.senior)).map((q) => q.id);
}

/** The oldest due unassigned case (open or escalated) of these queues: the order Next case takes them in. */
const nextCandidate = (companyId: number, queues: number[]) => sql`
  select id from review_cases
  where company_id = ${companyId} and state in ('open', 'escalated')
    and assignee_id is null and queue_id in (${sql.join(queues, sql`, `)})
  order by due_at, id
  limit 1`;

/**
 * GET /review/next: the case Next case would give the caller now, without taking it (the desk loads its profile
 * ahead, so that the press opens it at once). Another reviewer may take it first: the press then gets the next.
 */
export async function peekNextCase(db: DbOrTx, principal: Principal): Promise<number | null> {
  const queues = await myQueueIds(db, principal);
  if (queues.length === 0) return null;
  const { rows } = (await db.execute(nextCandidate(principal.companyId, queues))) as {
    rows: { id: number }[];
  };
  return rows[0]?.id ?? null;
}

/**
 * POST /review/next: the oldest due unassigned case (open or escalated) of the caller's queues, assigned to
 * them. The pick locks its row with SKIP LOCKED and the UPDATE still requires `assignee_id IS NULL`, so of any
 * number of concurrent callers exactly one gets each case (on PostgreSQL and on PGlite alike). Null: none left.
 */
export async function nextCase(db: DbOrTx, principal: Principal): Promise<CaseRow | null> {
  const queues = await myQueueIds(db, principal);
  if (queues.length === 0) return null;
  for (let attempt = 0; attempt < 5; attempt++) {
    const taken = await db.transaction(async (tx) => {
      const now = new Date();
      const [row] = await tx
        .update(reviewCases)
        .set({ assigneeId: principal.id, assignedAt: now, updatedAt: now })
        .where(
          and(
            isNull(reviewCases.assigneeId),
            sql`${reviewCases.id} = (${nextCandidate(principal.companyId, queues)} for update skip locked)`,
          ),
        )
        .returning();
      if (!row) return null;
      await caseStep(tx, row, principal.id, 'assigned', 'review_case_assigned', {
        assignee: principal.id,
        how: 'next',
      });
      return row;
    });
    if (taken) return taken;
    // Nothing taken: either nothing is left, or every candidate was locked by another caller just now.
    const [left] = await db
      .select({ id: reviewCases.id })
      .from(reviewCases)
      .where(
        and(
          eq(reviewCases.companyId, principal.companyId),
          inArray(reviewCases.state, ['open', 'escalated']),
          isNull(reviewCases.assigneeId),
          inArray(reviewCases.queueId, queues),
        ),
      )
      .limit(1);
    if (!left) return null;
  }
  return null;
}
