/** The company's four-eyes rules, reason codes, queues' SLA and auto-assignment, reviewers' capacity and away. */
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import type {
  FourEyesRules,
  QueueBody,
  ReasonCode,
  ReasonDecision,
  Reviewer,
  ReviewQueue,
} from '#contract/review';
import type { DbOrTx, Tx } from '../../db/client';
import { reviewCases, reviewerSettings, reviewQueues, reviewReasonCodes, reviewRules } from '../../db/schema';
import { notFound } from '../../errors';
import { changedFields, recordAudit } from '../audit';
import type { Principal } from '../principal';
import { autoAssign, reviewersOf } from './assign';
import { listQueues } from './reads';
import { ensureReviewSetup } from './setup';

export async function getRules(db: DbOrTx, companyId: number): Promise<FourEyesRules> {
  await ensureReviewSetup(db, companyId);
  const [row] = await db.select().from(reviewRules).where(eq(reviewRules.companyId, companyId));
  return {
    approve_high_risk: row?.approveHighRisk ?? false,
    approve_after_failed_step: row?.approveAfterFailedStep ?? false,
    override_aml_hit: row?.overrideAmlHit ?? false,
    every_approval: row?.everyApproval ?? false,
  };
}

/** PUT /review/rules (Admins): all four rules; audited with before and after. */
export async function setRules(tx: Tx, actor: Principal, rules: FourEyesRules): Promise<FourEyesRules> {
  const before = await getRules(tx, actor.companyId);
  await tx
    .update(reviewRules)
    .set({
      approveHighRisk: rules.approve_high_risk,
      approveAfterFailedStep: rules.approve_after_failed_step,
      overrideAmlHit: rules.override_aml_hit,
      everyApproval: rules.every_approval,
      updatedAt: new Date(),
      updatedBy: actor.id,
    })
    .where(eq(reviewRules.companyId, actor.companyId));
  await recordAudit(tx, {
    companyId: actor.companyId,
    actorId: actor.id,
    object: 'company',
    objectId: actor.companyId,
    action: 'review_rules_changed',
    ...changedFields(before, rules),
  });
  return rules;
}

export async function getReasonCodes(db: DbOrTx, companyId: number): Promise<ReasonCode[]> {
  await ensureReviewSetup(db, companyId);
  const rows = await db
    .select()
    .from(reviewReasonCodes)
    .where(eq(reviewReasonCodes.companyId, companyId))
    .orderBy(asc(reviewReasonCodes.sortOrder), asc(reviewReasonCodes.code));
  return rows.map((r) => ({
    decision: r.decision as ReasonDecision,
    code: r.code,
    label_en: r.labelEn,
    label_tr: r.labelTr,
    note_required: r.noteRequired,
  }));
}

/** PUT /review/reason_codes (Admins): the whole list replaces the stored one; audited. */
export async function setReasonCodes(tx: Tx, actor: Principal, codes: ReasonCode[]): Promise<ReasonCode[]> {
  const before = await getReasonCodes(tx, actor.companyId);
  await tx.delete(reviewReasonCodes).where(eq(reviewReasonCodes.companyId, actor.companyId));
  if (codes.length > 0)
    await tx.insert(reviewReasonCodes).values(
      codes.map((c, i) => ({
        companyId: actor.companyId,
        decision: c.decision,
        code: c.code,
        labelEn: c.label_en,
        labelTr: c.label_tr,
        noteRequired: c.note_required,
        sortOrder: i,
      })),
    );
  const key = (c: ReasonCode) => `${c.decision}/${c.code}`;
  await recordAudit(tx, {
    companyId: actor.companyId,
    actorId: actor.id,
    object: 'company',
    objectId: actor.companyId,
    action: 'review_reason_codes_changed',
    before: { codes: before.map(key) },
    after: { codes: codes.map(key) },
  });
  return getReasonCodes(tx, actor.companyId);
}

const toReviewer = (r: Awaited<ReturnType<typeof reviewersOf>>[number]): Reviewer => ({
  user: r.id,
  name: r.name,
  capacity: r.capacity,
  away: r.away,
  load: r.load,
  second_review: r.secondReview,
});

export async function listReviewers(db: DbOrTx, companyId: number): Promise<Reviewer[]> {
  return (await reviewersOf(db, companyId)).map(toReviewer);
}

/**
 * PUT /review/reviewers/{id}: an Admin sets anyone's capacity and away status; a reviewer sets their own away
 * status. The user must be a reviewer of the caller's company (404 otherwise).
 */
export async function setReviewer(
  tx: Tx,
  actor: Principal,
  userId: number,
  body: { capacity?: number | undefined; away?: boolean | undefined },
): Promise<Reviewer> {
  const reviewer = (await reviewersOf(tx, actor.companyId)).find((r) => r.id === userId);
  if (!reviewer) throw notFound();
  const capacity = body.capacity ?? reviewer.capacity;
  const away = body.away ?? reviewer.away;
  await tx
    .insert(reviewerSettings)
    .values({ userId, capacity, away, updatedAt: new Date() })
    .onConflictDoUpdate({ target: reviewerSettings.userId, set: { capacity, away, updatedAt: new Date() } });
  await recordAudit(tx, {
    companyId: actor.companyId,
    actorId: actor.id,
    object: 'user',
    objectId: userId,
    action: 'reviewer_settings_changed',
    ...changedFields({ capacity: reviewer.capacity, away: reviewer.away }, { capacity, away }),
  });
  return toReviewer({ ...reviewer, capacity, away });
}

/**
 * PUT /review/queues/{id} (Admins): the SLA (applies to cases opened or escalated from now on) and auto-assignment;
 * switching it on auto-assigns the queue's waiting unassigned cases at once (within capacity). Audited.
 */
export async function setQueue(
  tx: Tx,
  actor: Principal,
  queueId: number,
  body: QueueBody,
): Promise<ReviewQueue> {
  const [queue] = await tx
    .select()
    .from(reviewQueues)
    .where(and(eq(reviewQueues.id, queueId), eq(reviewQueues.companyId, actor.companyId)))
    .for('update');
  if (!queue) throw notFound();
  const changes = {
    slaHours: body.sla_hours ?? queue.slaHours,
    autoAssign: body.auto_assign ?? queue.autoAssign,
  };
  await tx.update(reviewQueues).set(changes).where(eq(reviewQueues.id, queueId));
  await recordAudit(tx, {
    companyId: actor.companyId,
    actorId: actor.id,
    object: 'company',
    objectId: actor.companyId,
    action: 'review_queue_changed',
    ...changedFields(
      { queue: queue.id, sla_hours: queue.slaHours, auto_assign: queue.autoAssign },
      { queue: queue.id, sla_hours: changes.slaHours, auto_assign: changes.autoAssign },
    ),
  });
  if (changes.autoAssign && !queue.autoAssign) {
    const waiting = await tx
      .select({ id: reviewCases.id })
      .from(reviewCases)
      .where(
        and(
          eq(reviewCases.queueId, queueId),
          isNull(reviewCases.assigneeId),
          inArray(reviewCases.state, ['open', 'escalated']),
        ),
      );
    await autoAssign(
      tx,
      actor.companyId,
      waiting.map((w) => w.id),
    );
  }
  const found = (await listQueues(tx, actor.companyId)).find((q) => q.id === queueId);
  if (!found) throw notFound();
  return found;
}
