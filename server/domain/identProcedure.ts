/**
 * The identification procedure of a company and the step results of its calls.
 * A company that never saved a procedure follows the default template (version 0); every save bumps the
 * version (If-Match) and is audited with the procedure before and after. Step results are evidence: written
 * once by the call's agent, never changed.
 */
import { and, asc, eq } from 'drizzle-orm';
import { CALL_STATUS_MISSED, CALL_STATUS_TALKING, CALL_STATUS_WAITING } from '#contract/constants';
import {
  type CallStep,
  type CallStepFields,
  DEFAULT_IDENT_PROCEDURE,
  type IdentProcedure,
  type IdentProcedureFields,
} from '#contract/identProcedure';
import type { DbOrTx } from '../db/client';
import { identProcedures, videoCallSteps } from '../db/schema';
import { badRequest, conflict, forbidden } from '../errors';
import { recordAudit } from './audit';
import { checkStepScreenshots } from './callScreenshots';
import { iso } from './format';
import { checkHintOverride } from './machineChecks/override';
import { type Seen, StaleVersionError } from './versions';
import { requireCall } from './videocalls/calls';

/** How long after a call ended its agent may still record a step (the wrap-up: decision, last results). */
export const STEP_GRACE_MS = 15 * 60 * 1000;

export const STEP_DETAILS = {
  notAgent: 'Only the agent of the call can record its steps',
  notAnswered: 'The call was not answered',
  tooLate: 'The call ended too long ago to record its steps',
  notInProcedure: (kind: string) => `kind: ${kind} is not a step of the company's procedure`,
} as const;

/** The company's procedure, or the default template when it never saved one. */
export async function identProcedure(db: DbOrTx, companyId: number): Promise<IdentProcedure> {
  const [row] = await db.select().from(identProcedures).where(eq(identProcedures.companyId, companyId));
  if (!row)
    return { ...DEFAULT_IDENT_PROCEDURE, version: 0, is_default: true, updated_at: null, updated_by: null };
  return {
    ...row.procedure,
    guided: row.guided,
    version: row.version,
    is_default: false,
    updated_at: iso(row.updatedAt),
    updated_by: row.updatedBy,
  };
}

/**
 * An Admin saves the company's procedure (validated by the contract). `seen`: the version the Admin read
 * (0 for the default template); another one throws StaleVersionError and nothing changes.
 */
export async function saveIdentProcedure(
  db: DbOrTx,
  actor: { userId: number; companyId: number },
  procedure: IdentProcedureFields,
  seen: Seen,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(identProcedures)
      .where(eq(identProcedures.companyId, actor.companyId))
      .for('update');
    const version = row?.version ?? 0;
    if (seen !== undefined && seen !== version)
      throw new StaleVersionError('ident_procedure', actor.companyId);
    const { guided, ...steps } = procedure;
    const values = { procedure: steps, guided, updatedAt: new Date(), updatedBy: actor.userId };
    const written = row
      ? await tx
          .update(identProcedures)
          .set({ ...values, version: version + 1 })
          .where(and(eq(identProcedures.companyId, actor.companyId), eq(identProcedures.version, version)))
          .returning({ version: identProcedures.version })
      : await tx
          .insert(identProcedures)
          .values({ companyId: actor.companyId, ...values, version: 1 })
          .onConflictDoNothing()
          .returning({ version: identProcedures.version });
    // Another save got there first (two first saves at once insert one row).
    if (written.length === 0) throw new StaleVersionError('ident_procedure', actor.companyId);
    await recordAudit(tx, {
      companyId: actor.companyId,
      actorId: actor.userId,
      object: 'company',
      objectId: actor.companyId,
      action: 'ident_procedure_changed',
      before: { version, procedure: row ? { ...row.procedure, guided: row.guided } : null },
      after: { version: version + 1, procedure },
    });
  });
}

export function toCallStep(row: typeof videoCallSteps.$inferSelect): CallStep {
  return {
    id: row.id,
    call: row.callId,
    kind: row.kind as CallStep['kind'],
    result: row.result as CallStep['result'],
    details: row.details,
    offset_ms: row.offsetMs,
    created_at: iso(row.createdAt),
    created_by: row.createdBy,
  };
}

/**
 * The call's agent records a step result: while the call is talking, or up to STEP_GRACE_MS after it ended.
 * The kind must be a step of the company's procedure; the screenshots it names must be this call's, and a
 * passed screenshot step needs them (checkStepScreenshots). Another company's call is 404 (requireCall).
 */
export async function addCallStep(
  db: DbOrTx,
  companyId: number,
  callId: number,
  actorId: number,
  step: CallStepFields,
  now = new Date(),
): Promise<CallStep> {
  const call = await requireCall(db, companyId, callId);
  if (call.agentId !== actorId) throw forbidden(STEP_DETAILS.notAgent);
  if (call.status === CALL_STATUS_WAITING || call.status === CALL_STATUS_MISSED)
    throw conflict(STEP_DETAILS.notAnswered);
  if (
    call.status !== CALL_STATUS_TALKING &&
    (!call.callEndTime || now.getTime() - call.callEndTime.getTime() > STEP_GRACE_MS)
  )
    throw conflict(STEP_DETAILS.tooLate);
  const { steps } = await identProcedure(db, companyId);
  if (!steps.some((s) => s.kind === step.kind)) throw badRequest(STEP_DETAILS.notInProcedure(step.kind));
  await checkStepScreenshots(db, callId, step);
  await checkHintOverride(db, callId, step);
  const [row] = await db
    .insert(videoCallSteps)
    .values({
      callId,
      kind: step.kind,
      result: step.result,
      details: step.details,
      offsetMs: step.offset_ms,
      createdBy: actorId,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return toCallStep(row);
}

/** The step results of a call of the company, in the order of the recording. */
export async function callSteps(db: DbOrTx, companyId: number, callId: number): Promise<CallStep[]> {
  await requireCall(db, companyId, callId);
  const rows = await db
    .select()
    .from(videoCallSteps)
    .where(eq(videoCallSteps.callId, callId))
    .orderBy(asc(videoCallSteps.offsetMs), asc(videoCallSteps.id));
  return rows.map(toCallStep);
}
