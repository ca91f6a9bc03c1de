/**
 * Waiting: "awaiting customer" and "snoozed until" stop a case's SLA clock. A snooze ends by itself
 * (cases.wakeSnoozed on the next read), a wait for the customer when the customer acts (open.openCase); either
 * ends by hand with resume. On resume `due_at` moves on by the time the clock stood still.
 */
import { eq } from 'drizzle-orm';
import { REVIEW_DETAILS, REVIEW_LIMITS } from '#contract/review';
import { DAY_MS } from '#contract/time';
import type { Tx } from '../../db/client';
import { reviewCases } from '../../db/schema';
import { badRequest, conflict, forbidden } from '../../errors';
import type { Principal } from '../principal';
import { type CaseRow, caseStep, lockCase, resumeCase } from './cases';

const RUNNING = ['open', 'escalated'];

async function lockForWait(tx: Tx, actor: Principal, caseId: number) {
  const row = await lockCase(tx, actor.companyId, caseId);
  if (row.state === 'decided') throw conflict(REVIEW_DETAILS.caseDecided);
  if (row.state === 'awaiting_second_review') throw conflict(REVIEW_DETAILS.awaitingSecond);
  if (row.assigneeId !== actor.id && actor.role !== 'Admin') throw forbidden(REVIEW_DETAILS.notAssignee);
  return row;
}

async function pause(
  tx: Tx,
  actor: Principal,
  row: CaseRow,
  state: 'snoozed' | 'awaiting_customer',
  until: Date | null,
  note: string | null,
) {
  const now = new Date();
  const [after] = await tx
    .update(reviewCases)
    .set({
      state,
      // A case already waiting keeps the moment its clock stopped.
      pausedAt: RUNNING.includes(row.state) ? now : (row.pausedAt ?? now),
      snoozedUntil: until,
      updatedAt: now,
    })
    .where(eq(reviewCases.id, row.id))
    .returning();
  await caseStep(
    tx,
    row,
    actor.id,
    state,
    'review_case_waiting',
    { state, until: until?.toISOString() ?? null, note },
    { state: row.state },
  );
  return after as CaseRow;
}

/** POST /review/cases/{id}/snooze: until a moment in the future, at most a year ahead. */
export async function snoozeCase(tx: Tx, actor: Principal, caseId: number, until: Date, note: string | null) {
  const now = Date.now();
  if (until.getTime() <= now) throw badRequest(REVIEW_DETAILS.snoozeInPast);
  if (until.getTime() > now + REVIEW_LIMITS.snoozeDaysMax * DAY_MS)
    throw badRequest(REVIEW_DETAILS.snoozeTooFar);
  return pause(tx, actor, await lockForWait(tx, actor, caseId), 'snoozed', until, note);
}

/** POST /review/cases/{id}/await_customer. */
export async function awaitCustomer(tx: Tx, actor: Principal, caseId: number, note: string | null) {
  return pause(tx, actor, await lockForWait(tx, actor, caseId), 'awaiting_customer', null, note);
}

/** POST /review/cases/{id}/resume: a waiting case runs again. */
export async function resumeByHand(tx: Tx, actor: Principal, caseId: number): Promise<CaseRow> {
  const row = await lockForWait(tx, actor, caseId);
  if (RUNNING.includes(row.state)) throw conflict(REVIEW_DETAILS.notWaiting);
  return resumeCase(tx, row, actor.id, 'by_hand');
}
