/**
 * Opening a case where a decision is needed. The write paths that make one call `openCase` in their
 * own transaction: a profile set to Pending Review (profileWrites.changeStatus), an agent's final call status
 * (videocalls.setCallStatus), an AML check with a hit (amlWrites), an uploaded document (documentWrites), and a
 * status change the four-eyes rules hold on a profile without a running case (fourEyes.statusGate).
 */
import { and, eq, ne, sql } from 'drizzle-orm';
import type { ReviewCaseKind } from '#contract/review';
import type { DbOrTx } from '../../db/client';
import { reviewCases } from '../../db/schema';
import { autoAssign } from './assign';
import { type CaseRow, caseStep, resumeCase } from './cases';
import { dueFrom, queueForKind } from './setup';

export interface OpenedCase {
  row: CaseRow;
  /** False: the profile already had an open case of this kind (a waiting one was resumed). */
  created: boolean;
}

/**
 * Opens a case where a decision is needed (a profile set to Pending Review, a finished video call, an AML hit,
 * an uploaded document). One case per profile and kind is open: a second trigger leaves it as it is, except
 * that a case awaiting the customer runs again (the customer acted). `autoAssign` (assign.ts) runs when the
 * queue asks for it.
 */
export async function openCase(
  tx: DbOrTx,
  input: {
    companyId: number;
    profileId: number;
    kind: ReviewCaseKind;
    actorId: number | null;
    source: string;
  },
): Promise<OpenedCase | null> {
  const queue = await queueForKind(tx, input.companyId, input.kind);
  const now = new Date();
  const [row] = await tx
    .insert(reviewCases)
    .values({
      companyId: input.companyId,
      profileId: input.profileId,
      kind: input.kind,
      queueId: queue.id,
      state: 'open',
      dueAt: dueFrom(queue, now),
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({
      target: [reviewCases.profileId, reviewCases.kind],
      where: sql`${reviewCases.state} <> 'decided'`,
    })
    .returning();
  if (row) {
    await caseStep(tx, row, input.actorId, 'opened', 'review_case_opened', {
      kind: input.kind,
      queue: queue.id,
      source: input.source,
      due_at: row.dueAt.toISOString(),
    });
    if (queue.autoAssign) await autoAssign(tx, input.companyId, [row.id]);
    return { row, created: true };
  }
  const [open] = await tx
    .select()
    .from(reviewCases)
    .where(
      and(
        eq(reviewCases.profileId, input.profileId),
        eq(reviewCases.kind, input.kind),
        ne(reviewCases.state, 'decided'),
      ),
    )
    .for('update');
  if (!open) return null;
  if (open.state === 'awaiting_customer')
    return { row: await resumeCase(tx, open, input.actorId, input.source), created: false };
  return { row: open, created: false };
}
