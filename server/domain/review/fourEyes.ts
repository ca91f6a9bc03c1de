/**
 * The company's four-eyes rules, written once for every path that changes a profile's status. The desk's
 * decisions (decide.ts) ask `fourEyesRulesFor` and hold a caught decision with `holdForSecondReview`;
 * profileWrites.changeStatus, which every status change goes through, asks `statusGate`. A change the rules catch
 * waits as its maker's decision on the profile's case until another reviewer confirms it; only the desk's own
 * final decision passes the gate, and even then the gate checks the stored confirmation, not the caller's word
 * (docs/decisions/0194-four-eyes-on-every-path.md).
 */
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { ProfileStatus } from '#contract/common';
import type { FourEyesRefusal } from '#contract/profileWrites';
import {
  type FourEyesRule,
  REVIEW_DETAILS,
  type ReviewCaseKind,
  type ReviewDecision,
  withRules,
} from '#contract/review';
import type { Tx } from '../../db/client';
import {
  amlResults,
  profiles,
  reviewCases,
  reviewPendingDecisions,
  reviewRules,
  videoCallSteps,
  videoCalls,
} from '../../db/schema';
import { HttpError } from '../../errors';
import { enqueueWebhookEvent } from '../webhooks';
import { type CaseRow, caseStep } from './cases';
import { openCase } from './open';

/** The profile status each desk decision leads to (abort and escalate leave the profile as it is). */
export const DECISION_STATUS: Partial<Record<ReviewDecision, ProfileStatus>> = {
  approve: 'Approved',
  reject: 'Rejected',
  resubmit: 'Pending Upload',
};

/**
 * The decision a status change amounts to, for the rules. A temporary approval is an approval and a
 * blacklisting a rejection: the rules catch them as such, though the desk can hold only its own three.
 */
const DECISION_OF_STATUS: Partial<Record<ProfileStatus, ReviewDecision>> = {
  Approved: 'approve',
  'Temporarily Approved': 'approve',
  Rejected: 'reject',
  Blacklisted: 'reject',
  'Pending Upload': 'resubmit',
};

/** What a decision is about: the company's profile, and the kind of case it is decided on (none: the status route). */
export interface FourEyesSubject {
  companyId: number;
  profileId: number;
  caseKind: ReviewCaseKind | null;
}

/** Which of the company's four-eyes rules catch this decision on this profile (today only approvals are caught). */
export async function fourEyesRulesFor(
  tx: Tx,
  subject: FourEyesSubject,
  decision: ReviewDecision,
): Promise<FourEyesRule[]> {
  if (decision !== 'approve') return [];
  const [rules] = await tx.select().from(reviewRules).where(eq(reviewRules.companyId, subject.companyId));
  if (!rules) return [];
  const caught: FourEyesRule[] = [];
  if (rules.everyApproval) caught.push('every_approval');
  if (rules.approveHighRisk) {
    const [profile] = await tx
      .select({ risk: profiles.riskLevel })
      .from(profiles)
      .where(eq(profiles.id, subject.profileId));
    if (profile && (profile.risk === 'High' || profile.risk === 'Very High'))
      caught.push('approve_high_risk');
  }
  if (rules.approveAfterFailedStep) {
    const [failed] = await tx
      .select({ id: videoCallSteps.id })
      .from(videoCallSteps)
      .innerJoin(videoCalls, eq(videoCalls.id, videoCallSteps.callId))
      .where(and(eq(videoCalls.profileId, subject.profileId), eq(videoCallSteps.result, 'failed')))
      .limit(1);
    if (failed) caught.push('approve_after_failed_step');
  }
  if (rules.overrideAmlHit) {
    const [hit] = await tx
      .select({ id: amlResults.id })
      .from(amlResults)
      .where(
        and(
          eq(amlResults.profileId, subject.profileId),
          sql`jsonb_array_length(${amlResults.records}) > 0`,
          sql`${amlResults.approved} is not true`,
        ),
      );
    if (subject.caseKind === 'aml_hit' || hit) caught.push('override_aml_hit');
  }
  return caught;
}

/**
 * Holds a maker's decision for a second reviewer: the pending decision, the case `awaiting_second_review`, its
 * timeline step and the webhook `review.requested`. Nothing happens to the profile.
 */
export async function holdForSecondReview(
  tx: Tx,
  row: CaseRow,
  makerId: number,
  decision: { decision: ReviewDecision; code: string | null; note: string | null },
  rules: FourEyesRule[],
  source?: string,
): Promise<CaseRow> {
  const [pending] = await tx
    .insert(reviewPendingDecisions)
    .values({
      caseId: row.id,
      companyId: row.companyId,
      makerId,
      decision: decision.decision,
      reasonCode: decision.code,
      note: decision.note,
      rules,
    })
    .returning({ id: reviewPendingDecisions.id });
  const now = new Date();
  const [after] = await tx
    .update(reviewCases)
    .set({ state: 'awaiting_second_review', updatedAt: now, pausedAt: null, snoozedUntil: null })
    .where(eq(reviewCases.id, row.id))
    .returning();
  await caseStep(
    tx,
    row,
    makerId,
    'decision_pending',
    'review_decision_pending',
    {
      pending: pending?.id,
      decision: decision.decision,
      reason_code: decision.code,
      note: decision.note,
      rules,
      ...(source ? { source } : {}),
    },
    { state: row.state },
  );
  await enqueueWebhookEvent(tx, row.companyId, 'review.requested', {
    case_id: row.id,
    profile_id: row.profileId,
    kind: row.kind,
    decision: decision.decision,
    reason_code: decision.code,
    maker: makerId,
    rules,
  });
  return after as CaseRow;
}

declare const reviewedBrand: unique symbol;

/**
 * The desk's own final decision on a case: its rules were asked on that case, and a caught one was confirmed
 * by a second reviewer (`pendingId`). Only decide.ts makes one; the gate checks it against the stored
 * confirmation all the same, so a forged one passes nothing the rules catch.
 */
export type ReviewedDecision = {
  readonly [reviewedBrand]: true;
  caseId: number;
  kind: ReviewCaseKind;
  pendingId: number | null;
};

/** A change the status route's caller made that waits for a second review. */
export interface HeldChange {
  case: number;
  decision: ReviewDecision;
  rules: FourEyesRule[];
}

const REFUSAL_DETAILS: Record<FourEyesRefusal['reason'], string> = {
  decision_waits: REVIEW_DETAILS.decisionWaits,
  cannot_wait: REVIEW_DETAILS.cannotWait,
  not_confirmed: REVIEW_DETAILS.notConfirmed,
};

/** The 409 of a change four-eyes refuses, naming the rules and the case. */
const refused = (reason: FourEyesRefusal['reason'], rules: FourEyesRule[], caseId: number | null) =>
  new HttpError(409, withRules(REFUSAL_DETAILS[reason], rules), { reason, rules, case: caseId });

/** Whether the desk's decision was confirmed, just now, by this actor as a second reviewer who is not its maker. */
async function confirmedBy(tx: Tx, actorId: number, profileId: number, reviewed: ReviewedDecision) {
  if (reviewed.pendingId === null) return false;
  const [row] = await tx
    .select({ id: reviewPendingDecisions.id })
    .from(reviewPendingDecisions)
    .innerJoin(reviewCases, eq(reviewCases.id, reviewPendingDecisions.caseId))
    .where(
      and(
        eq(reviewPendingDecisions.id, reviewed.pendingId),
        eq(reviewPendingDecisions.caseId, reviewed.caseId),
        eq(reviewCases.profileId, profileId),
        eq(reviewCases.state, 'awaiting_second_review'),
        eq(reviewPendingDecisions.outcome, 'confirmed'),
        eq(reviewPendingDecisions.resolvedBy, actorId),
        sql`${reviewPendingDecisions.makerId} is distinct from ${actorId}`,
      ),
    );
  return row !== undefined;
}

/**
 * The four-eyes gate of a status change, on the locked profile and a transition the table allows. Answers
 * null when the change may happen now, or the held change when it now waits for a second review; throws 409
 * when four-eyes refuses it. Without `reviewed` (every path but the desk's): while a decision on the profile
 * awaits a second review, that decision alone changes the status; a change the rules catch joins the profile's
 * case (or opens one) as the caller's pending decision, or is refused when the desk cannot hold it.
 */
export async function statusGate(
  tx: Tx,
  actor: { userId: number; companyId: number },
  profileId: number,
  change: { status: ProfileStatus; reason: string | null },
  reviewed?: ReviewedDecision,
): Promise<HeldChange | null> {
  const decision = DECISION_OF_STATUS[change.status] ?? null;
  const subject = (caseKind: ReviewCaseKind | null) => ({ companyId: actor.companyId, profileId, caseKind });
  if (reviewed) {
    if (!decision) return null;
    const rules = await fourEyesRulesFor(tx, subject(reviewed.kind), decision);
    if (rules.length === 0 || (await confirmedBy(tx, actor.userId, profileId, reviewed))) return null;
    throw refused('not_confirmed', rules, reviewed.caseId);
  }
  // The profile's running cases, locked: a desk decision on one of them waits for this change or sees it.
  // An AML hit's case comes first, as its rule is asked on the case's kind.
  const open = await tx
    .select()
    .from(reviewCases)
    .where(and(eq(reviewCases.profileId, profileId), ne(reviewCases.state, 'decided')))
    .orderBy(sql`${reviewCases.kind} = 'aml_hit' desc`, asc(reviewCases.id))
    .for('update');
  const waiting = open.find((c) => c.state === 'awaiting_second_review');
  if (waiting) {
    const [pending] = await tx
      .select({ rules: reviewPendingDecisions.rules })
      .from(reviewPendingDecisions)
      .where(
        and(eq(reviewPendingDecisions.caseId, waiting.id), sql`${reviewPendingDecisions.outcome} is null`),
      );
    throw refused('decision_waits', (pending?.rules ?? []) as FourEyesRule[], waiting.id);
  }
  if (!decision) return null;
  const joined = open[0] ?? null;
  const rules = await fourEyesRulesFor(
    tx,
    subject((joined?.kind ?? null) as ReviewCaseKind | null),
    decision,
  );
  if (rules.length === 0) return null;
  if (DECISION_STATUS[decision] !== change.status) throw refused('cannot_wait', rules, joined?.id ?? null);
  const row =
    joined ??
    (
      await openCase(tx, {
        companyId: actor.companyId,
        profileId,
        kind: 'pending_review',
        actorId: actor.userId,
        source: 'status_changed',
      })
    )?.row;
  if (!row) throw new Error('no review case to hold the change on');
  await holdForSecondReview(
    tx,
    row,
    actor.userId,
    { decision, code: null, note: change.reason },
    rules,
    'status_changed',
  );
  return { case: row.id, decision, rules };
}
