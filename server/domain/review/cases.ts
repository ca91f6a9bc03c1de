/**
 * Review cases: one step of a case's timeline (case event and audit entry in the caller's
 * transaction), the lock every write takes, and the restart of a waiting case's SLA clock.
 */
import { and, eq, lte, sql } from 'drizzle-orm';
import type { AuditAction } from '#contract/logEvents';
import type { ReviewEventKind } from '#contract/review';
import type { DbOrTx, Tx } from '../../db/client';
import { jsonRows } from '../../db/rows';
import { reviewCases, reviewQueues } from '../../db/schema';
import { notFound } from '../../errors';
import { recordAudits } from '../audit';

export type CaseRow = typeof reviewCases.$inferSelect;

/** One step of a case: its timeline event and the audit entry, both in the caller's transaction. */
export async function caseStep(
  db: DbOrTx,
  row: Pick<CaseRow, 'id' | 'companyId' | 'profileId'>,
  actorId: number | null,
  kind: ReviewEventKind,
  action: AuditAction,
  data: Record<string, unknown> = {},
  before: Record<string, unknown> = {},
): Promise<void> {
  await caseSteps(db, [{ row, data, before }], actorId, kind, action);
}

/** The same step of many cases (a batch auto-assigned): their events and audit entries in multi-row inserts. */
export async function caseSteps(
  db: DbOrTx,
  steps: {
    row: Pick<CaseRow, 'id' | 'companyId' | 'profileId'>;
    data: Record<string, unknown>;
    before?: Record<string, unknown>;
  }[],
  actorId: number | null,
  kind: ReviewEventKind,
  action: AuditAction,
): Promise<void> {
  if (steps.length === 0) return;
  await db.execute(sql`
    insert into review_case_events (case_id, company_id, actor_id, kind, data)
    select case_id, company_id, ${actorId}::int, ${kind}, data
      from ${jsonRows(
        steps.map(({ row, data }) => ({ case_id: row.id, company_id: row.companyId, data })),
        'case_id int, company_id int, data jsonb',
      )}`);
  await recordAudits(
    db,
    steps.map(({ row, data, before = {} }) => ({
      companyId: row.companyId,
      actorId,
      object: 'review_case',
      objectId: row.id,
      action,
      before,
      after: { profile: row.profileId, ...data },
    })),
  );
}

/** The company's case, locked for the rest of the transaction; 404 for another company's id. */
export async function lockCase(tx: Tx, companyId: number, caseId: number): Promise<CaseRow> {
  const [row] = await tx
    .select()
    .from(reviewCases)
    .where(and(eq(reviewCases.id, caseId), eq(reviewCases.companyId, companyId)))
    .for('update');
  if (!row) throw notFound();
  return row;
}

/** The state a case returns to when it runs again: escalated in a senior queue, open elsewhere. */
export async function runningState(db: DbOrTx, queueId: number): Promise<'open' | 'escalated'> {
  const [queue] = await db
    .select({ senior: reviewQueues.senior })
    .from(reviewQueues)
    .where(eq(reviewQueues.id, queueId));
  return queue?.senior ? 'escalated' : 'open';
}

/**
 * Restarts a waiting case's SLA clock: `due_at` moves on by the time it stood still. `actorId` null: the
 * system (a snooze that ran out, a customer who came back).
 */
export async function resumeCase(
  db: DbOrTx,
  row: CaseRow,
  actorId: number | null,
  why: string,
): Promise<CaseRow> {
  const now = new Date();
  const paused = row.pausedAt ? now.getTime() - row.pausedAt.getTime() : 0;
  const state = await runningState(db, row.queueId);
  const [after] = await db
    .update(reviewCases)
    .set({
      state,
      dueAt: new Date(row.dueAt.getTime() + paused),
      pausedAt: null,
      snoozedUntil: null,
      updatedAt: now,
    })
    .where(eq(reviewCases.id, row.id))
    .returning();
  if (!after) throw notFound();
  await caseStep(
    db,
    row,
    actorId,
    'resumed',
    'review_case_resumed',
    { state, why, paused_ms: paused, due_at: after.dueAt.toISOString() },
    { state: row.state, due_at: row.dueAt.toISOString() },
  );
  return after;
}

/** Snoozed cases of the company whose time ran out are back (read paths call this first). */
export async function wakeSnoozed(db: DbOrTx, companyId: number): Promise<void> {
  const due = await db
    .select({ id: reviewCases.id })
    .from(reviewCases)
    .where(
      and(
        eq(reviewCases.companyId, companyId),
        eq(reviewCases.state, 'snoozed'),
        lte(reviewCases.snoozedUntil, new Date()),
      ),
    )
    .limit(500);
  if (due.length === 0) return;
  await db.transaction(async (tx) => {
    for (const { id } of due) {
      const [row] = await tx
        .select()
        .from(reviewCases)
        .where(and(eq(reviewCases.id, id), eq(reviewCases.state, 'snoozed')))
        .for('update', { skipLocked: true });
      if (row?.snoozedUntil && row.snoozedUntil.getTime() <= Date.now())
        await resumeCase(tx, row, null, 'snooze_ended');
    }
  });
}

/** Whether the case is past its due time now (a waiting case's clock stands still). */
export const isOverdue = (row: Pick<CaseRow, 'state' | 'dueAt' | 'pausedAt'>, now = Date.now()) =>
  row.state !== 'decided' && row.pausedAt === null && row.dueAt.getTime() < now;
