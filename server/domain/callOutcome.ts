/**
 * The final status of a call under the company's identification procedure. On a guided
 * procedure a passing status (COMPLETE) needs the latest result of every mandatory step passed (the decision
 * step excluded: it is the status itself), and every status carries a reason id from the company's list:
 * a decision reason for COMPLETE, an abort reason otherwise. Without guidance the reason id stays optional
 * but, when given, must be one of the list too. Reads only: the callers write the status.
 */
import { asc, eq } from 'drizzle-orm';
import { CALL_STATUS_COMPLETE } from '#contract/constants';
import { DEFAULT_IDENT_PROCEDURE } from '#contract/identProcedure';
import type { DbOrTx } from '../db/client';
import { identProcedures, videoCallSteps } from '../db/schema';
import { badRequest } from '../errors';

const LISTS = { decision_reasons: 'decision reasons', abort_reasons: 'abort reasons' } as const;

export const OUTCOME_DETAILS = {
  missingSteps: (kinds: readonly string[]) =>
    `The call cannot be COMPLETE: these mandatory steps are not passed: ${kinds.join(', ')}`,
  reasonMissing: (list: keyof typeof LISTS, ids: readonly string[]) =>
    `outcome_reason: a guided call needs one of the company's ${LISTS[list]} (${ids.join(', ')})`,
  reasonUnknown: (id: string, list: keyof typeof LISTS) =>
    `outcome_reason: ${id} is not one of the company's ${LISTS[list]}`,
} as const;

/**
 * The reason id to store with `status` on the company's call `callId` (null: none given, not guided), or a
 * 400 naming what is missing. The caller has checked that the call is the company's.
 */
export async function checkedOutcome(
  db: DbOrTx,
  companyId: number,
  callId: number,
  status: number,
  reasonId: string | undefined,
): Promise<string | null> {
  const [row] = await db
    .select({ guided: identProcedures.guided, procedure: identProcedures.procedure })
    .from(identProcedures)
    .where(eq(identProcedures.companyId, companyId));
  const procedure = row?.procedure ?? DEFAULT_IDENT_PROCEDURE;
  const guided = row?.guided ?? false;
  const complete = status === CALL_STATUS_COMPLETE;
  if (guided && complete) {
    const results = await db
      .select({ kind: videoCallSteps.kind, result: videoCallSteps.result })
      .from(videoCallSteps)
      .where(eq(videoCallSteps.callId, callId))
      .orderBy(asc(videoCallSteps.id));
    // The latest result of each kind counts: a check failed, then done again and passed, is passed.
    const latest = new Map(results.map((r) => [r.kind, r.result]));
    const missing = procedure.steps
      .filter((step) => step.mandatory && step.kind !== 'decision' && latest.get(step.kind) !== 'passed')
      .map((step) => step.kind);
    if (missing.length > 0) throw badRequest(OUTCOME_DETAILS.missingSteps(missing));
  }
  const list = complete ? 'decision_reasons' : 'abort_reasons';
  if (reasonId === undefined) {
    if (guided)
      throw badRequest(
        OUTCOME_DETAILS.reasonMissing(
          list,
          procedure[list].map((r) => r.id),
        ),
      );
    return null;
  }
  if (!procedure[list].some((r) => r.id === reasonId))
    throw badRequest(OUTCOME_DETAILS.reasonUnknown(reasonId, list));
  return reasonId;
}
