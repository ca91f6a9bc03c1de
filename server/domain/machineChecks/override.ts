/**
 * The one rule where a hint touches a decision: passing the face step against a "faces differ" hint needs the
 * agent's reason. Apart from the checks' runner, so the step writes can call it without importing the engines.
 */
import { and, desc, eq } from 'drizzle-orm';
import type { CallStepFields } from '#contract/identProcedure';
import { type FaceMatchResult, MACHINE_CHECK_DETAILS } from '#contract/machineChecks';
import type { DbOrTx } from '../../db/client';
import { videoCallChecks } from '../../db/schema';
import { badRequest } from '../../errors';

/**
 * Passing the face step while the latest face match says the faces differ needs the agent's reason in
 * `details.override_reason` (400 otherwise): the hint never decides, but going against it is on the record.
 */
export async function checkHintOverride(db: DbOrTx, callId: number, step: CallStepFields): Promise<void> {
  if (step.kind !== 'face_screenshot' || step.result !== 'passed') return;
  const [latest] = await db
    .select({ result: videoCallChecks.result })
    .from(videoCallChecks)
    .where(
      and(
        eq(videoCallChecks.callId, callId),
        eq(videoCallChecks.kind, 'face_match'),
        eq(videoCallChecks.status, 'done'),
      ),
    )
    .orderBy(desc(videoCallChecks.id))
    .limit(1);
  if ((latest?.result as FaceMatchResult | undefined)?.outcome !== 'differ') return;
  const reason = step.details.override_reason;
  if (typeof reason !== 'string' || reason.trim().length < 3)
    throw badRequest(MACHINE_CHECK_DETAILS.reasonNeeded);
}
