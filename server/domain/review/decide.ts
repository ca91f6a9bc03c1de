/**
 * Decisions on a case. Only the assignee or an Admin decides; a decision with reason codes needs one
 * of them (and a note where the code says so). A decision the company's four-eyes rules catch (fourEyes.ts) waits
 * as `awaiting_second_review` until another reviewer with second_review (never the maker) confirms it, and only
 * then does the profile's status change (through profileWrites.changeStatus, whose gate checks that
 * confirmation), or returns it with a note.
 * Escalation moves the case to the senior queue with a note.
 */
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { LocalizedText } from '#contract/logEvents';
import {
  type DecisionBody,
  type FourEyesRule,
  REVIEW_DETAILS,
  REVIEW_LIMITS,
  type ReviewCaseKind,
  type ReviewDecision,
} from '#contract/review';
import type { Tx } from '../../db/client';
import { profiles, reviewCases, reviewPendingDecisions, reviewReasonCodes, users } from '../../db/schema';
import { badRequest, conflict, forbidden } from '../../errors';
import { fullName } from '../format';
import type { Principal } from '../principal';
import { changeStatus, writeLog } from '../profileWrites';
import { enqueueWebhookEvent } from '../webhooks';
import { autoAssign, mayReview } from './assign';
import { type CaseRow, caseStep, lockCase, runningState } from './cases';
import { DECISION_STATUS, fourEyesRulesFor, holdForSecondReview, type ReviewedDecision } from './fourEyes';
import { dueFrom, ensureReviewSetup, seniorQueue } from './setup';

const mayDecide = (row: CaseRow, actor: Principal) => row.assigneeId === actor.id || actor.role === 'Admin';

/** Checks the reason code of a decision against the company's list; answers the code's labels (or null). */
async function checkedReason(tx: Tx, companyId: number, body: DecisionBody) {
  const codes = await tx
    .select()
    .from(reviewReasonCodes)
    .where(and(eq(reviewReasonCodes.companyId, companyId), eq(reviewReasonCodes.decision, body.decision)));
  const code = body.reason_code ?? null;
  const note = body.note?.trim() || null;
  if (code === null) {
    if (codes.length > 0) throw badRequest(REVIEW_DETAILS.reasonRequired);
  } else {
    const known = codes.find((c) => c.code === code);
    if (!known) throw badRequest(REVIEW_DETAILS.unknownReason);
    if (known.noteRequired && !note) throw badRequest(REVIEW_DETAILS.noteRequired);
    return { code, note, label: known.labelEn, labels: { 'en-US': known.labelEn, tr: known.labelTr } };
  }
  return { code: null, note, label: null, labels: null };
}

/** A user's name as the history shows it (the e-mail when no name is set); null for a deleted user. */
async function nameOf(tx: Tx, userId: number | null): Promise<string | null> {
  if (userId === null) return null;
  const [row] = await tx
    .select({ first: users.firstName, last: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return row ? fullName(row.first, row.last) || row.email : null;
}

/** Applies a final decision: the profile's status (when it changes), the case decided, `review.decided`. */
async function applyDecision(
  tx: Tx,
  row: CaseRow,
  actor: Principal,
  decision: {
    decision: ReviewDecision;
    code: string | null;
    note: string | null;
    label: string | null;
    labels: LocalizedText | null;
  },
  checker: { pendingId: number; makerId: number | null } | null,
): Promise<CaseRow> {
  const target = DECISION_STATUS[decision.decision];
  let statusChange: { from: string; to: string } | null = null;
  if (target) {
    const [profile] = await tx
      .select({ status: profiles.status })
      .from(profiles)
      .where(eq(profiles.id, row.profileId));
    if (profile && profile.status !== target) {
      // The desk's own decision: its rules were asked on this case, and a caught one was confirmed.
      const reviewed = { caseId: row.id, kind: row.kind, pendingId: checker?.pendingId ?? null };
      const answer = await changeStatus(
        tx,
        { userId: actor.id, companyId: actor.companyId },
        row.profileId,
        { status: target, reject_reason: decision.note ?? decision.label },
        undefined,
        reviewed as ReviewedDecision,
      );
      if (!answer.result) throw conflict(`The profile's status (${answer.status}) cannot become ${target}`);
      statusChange = { from: profile.status, to: target };
    }
  }
  // The profile's history shows the decision with its reason and note, and under four-eyes both reviewers.
  await writeLog(tx, row.profileId, actor.id, 'review_decided', {
    case_id: row.id,
    decision: decision.decision,
    reason_code: decision.code,
    reason: decision.labels,
    note: decision.note,
    ...(checker
      ? { maker: await nameOf(tx, checker.makerId), checker: (await nameOf(tx, actor.id)) ?? '' }
      : {}),
  });
  const now = new Date();
  const [after] = await tx
    .update(reviewCases)
    .set({
      state: 'decided',
      decision: decision.decision,
      reasonCode: decision.code,
      decidedAt: now,
      updatedAt: now,
      pausedAt: null,
      snoozedUntil: null,
    })
    .where(eq(reviewCases.id, row.id))
    .returning();
  await caseStep(
    tx,
    row,
    actor.id,
    checker ? 'confirmed' : 'decided',
    checker ? 'review_decision_confirmed' : 'review_case_decided',
    {
      decision: decision.decision,
      reason_code: decision.code,
      note: decision.note,
      ...(checker ? { maker: checker.makerId } : {}),
      ...(statusChange ? { status: statusChange } : {}),
    },
    { state: row.state },
  );
  await enqueueWebhookEvent(tx, row.companyId, 'review.decided', {
    case_id: row.id,
    profile_id: row.profileId,
    kind: row.kind,
    decision: decision.decision,
    reason_code: decision.code,
    decided_by: actor.id,
    maker: checker ? checker.makerId : actor.id,
    second_review: checker !== null,
  });
  return after as CaseRow;
}

async function escalate(tx: Tx, row: CaseRow, actor: Principal, code: string | null, note: string | null) {
  if (!note || note.length < REVIEW_LIMITS.noteMin) throw badRequest(REVIEW_DETAILS.noteTooShort);
  const senior = await seniorQueue(tx, row.companyId);
  if (!senior) throw conflict(REVIEW_DETAILS.noSeniorQueue);
  if (senior.id === row.queueId) throw conflict(REVIEW_DETAILS.alreadySenior);
  const now = new Date();
  const [after] = await tx
    .update(reviewCases)
    .set({
      queueId: senior.id,
      state: 'escalated',
      assigneeId: null,
      assignedAt: null,
      dueAt: dueFrom(senior, now),
      pausedAt: null,
      snoozedUntil: null,
      updatedAt: now,
    })
    .where(eq(reviewCases.id, row.id))
    .returning();
  await caseStep(
    tx,
    row,
    actor.id,
    'escalated',
    'review_case_escalated',
    { queue: senior.id, reason_code: code, note, due_at: (after as CaseRow).dueAt.toISOString() },
    { queue: row.queueId, assignee: row.assigneeId, state: row.state },
  );
  if (senior.autoAssign) await autoAssign(tx, row.companyId, [row.id]);
  return after as CaseRow;
}

export interface DecisionOutcome {
  secondReviewRequired: boolean;
  rules: FourEyesRule[];
  row: CaseRow;
}

/** POST /review/cases/{id}/decision. */
export async function decideCase(
  tx: Tx,
  actor: Principal,
  caseId: number,
  body: DecisionBody,
): Promise<DecisionOutcome> {
  const row = await lockCase(tx, actor.companyId, caseId);
  if (row.state === 'decided') throw conflict(REVIEW_DETAILS.caseDecided);
  if (row.state === 'awaiting_second_review') throw conflict(REVIEW_DETAILS.awaitingSecond);
  if (!mayDecide(row, actor)) throw forbidden(REVIEW_DETAILS.notAssignee);
  await ensureReviewSetup(tx, actor.companyId);
  const reason = await checkedReason(tx, actor.companyId, body);
  if (body.decision === 'escalate')
    return {
      secondReviewRequired: false,
      rules: [],
      row: await escalate(tx, row, actor, reason.code, reason.note),
    };
  const rules = await fourEyesRulesFor(
    tx,
    { companyId: row.companyId, profileId: row.profileId, caseKind: row.kind as ReviewCaseKind },
    body.decision,
  );
  if (rules.length === 0)
    return {
      secondReviewRequired: false,
      rules,
      row: await applyDecision(tx, row, actor, { decision: body.decision, ...reason }, null),
    };
  const after = await holdForSecondReview(
    tx,
    row,
    actor.id,
    { decision: body.decision, code: reason.code, note: reason.note },
    rules,
  );
  return { secondReviewRequired: true, rules, row: after };
}

async function lockPending(tx: Tx, actor: Principal, caseId: number) {
  const row = await lockCase(tx, actor.companyId, caseId);
  if (row.state !== 'awaiting_second_review') throw conflict(REVIEW_DETAILS.notAwaitingSecond);
  const [pending] = await tx
    .select()
    .from(reviewPendingDecisions)
    .where(and(eq(reviewPendingDecisions.caseId, row.id), isNull(reviewPendingDecisions.outcome)))
    .orderBy(asc(reviewPendingDecisions.id))
    .for('update');
  if (!pending) throw conflict(REVIEW_DETAILS.notAwaitingSecond);
  if (pending.makerId === actor.id) throw forbidden(REVIEW_DETAILS.makerCannotCheck);
  if (!mayReview(actor, false) || !actor.permissions.includes('second_review')) throw forbidden();
  return { row, pending };
}

const resolve = (
  tx: Tx,
  id: number,
  actor: Principal,
  outcome: 'confirmed' | 'returned',
  note: string | null,
) =>
  tx
    .update(reviewPendingDecisions)
    .set({ outcome, resolvedBy: actor.id, resolvedAt: new Date(), resolveNote: note })
    .where(eq(reviewPendingDecisions.id, id));

/** POST /review/cases/{id}/confirm: the checker confirms the maker's decision; the profile changes now. */
export async function confirmDecision(
  tx: Tx,
  actor: Principal,
  caseId: number,
  note: string | null,
): Promise<CaseRow> {
  const { row, pending } = await lockPending(tx, actor, caseId);
  await resolve(tx, pending.id, actor, 'confirmed', note);
  const labels = pending.reasonCode
    ? ((
        await tx
          .select({ 'en-US': reviewReasonCodes.labelEn, tr: reviewReasonCodes.labelTr })
          .from(reviewReasonCodes)
          .where(
            and(
              eq(reviewReasonCodes.companyId, row.companyId),
              eq(reviewReasonCodes.decision, pending.decision),
              eq(reviewReasonCodes.code, pending.reasonCode),
            ),
          )
      )[0] ?? null)
    : null;
  return applyDecision(
    tx,
    row,
    actor,
    {
      decision: pending.decision as ReviewDecision,
      code: pending.reasonCode,
      note: pending.note,
      label: labels?.['en-US'] ?? null,
      labels,
    },
    { pendingId: pending.id, makerId: pending.makerId },
  );
}

/** POST /review/cases/{id}/return: the checker sends the decision back to its maker with a note. */
export async function returnDecision(
  tx: Tx,
  actor: Principal,
  caseId: number,
  note: string,
): Promise<CaseRow> {
  const { row, pending } = await lockPending(tx, actor, caseId);
  await resolve(tx, pending.id, actor, 'returned', note);
  const state = await runningState(tx, row.queueId);
  const [after] = await tx
    .update(reviewCases)
    .set({ state, updatedAt: new Date() })
    .where(eq(reviewCases.id, row.id))
    .returning();
  await caseStep(
    tx,
    row,
    actor.id,
    'returned',
    'review_decision_returned',
    { pending: pending.id, maker: pending.makerId, decision: pending.decision, note, state },
    { state: row.state },
  );
  return after as CaseRow;
}
