/**
 * A legal hold holds: while a profile is on hold, nothing of its evidence (its calls' recordings and
 * screenshots, its documents and their pages) is deleted or changed, by anyone, on any path. Every domain
 * function that deletes or changes evidence calls `assertNoHold` inside its own transaction, before it writes;
 * the retention job skips held profiles in its claim. Which writes count is decided in
 * docs/decisions/0195-a-hold-holds.md.
 */
import { and, eq } from 'drizzle-orm';
import { legalHoldRefused } from '#contract/evidence';
import type { DbOrTx, Tx } from '../db/client';
import { profiles } from '../db/schema';
import { HttpError, notFound } from '../errors';
import { type AuditRecord, recordAudit } from './audit';

/** The writes a hold refuses, named as the audit action each would have written. */
export type HeldWrite =
  | 'document_deleted'
  | 'document_archived'
  | 'document_fields_overridden'
  | 'document_type_changed'
  | 'video_deleted';

/** A write refused by a legal hold: 409 with the hold's reason, and the audit entry of the refusal. */
export class LegalHoldError extends HttpError {
  constructor(
    readonly reason: string,
    /** Written after the refused transaction has rolled back (`recordRefusal`). */
    readonly refusal: AuditRecord,
  ) {
    super(409, legalHoldRefused(reason));
    this.name = 'LegalHoldError';
  }
}

/**
 * Refuses (LegalHoldError, 409) a write of `attempt.action` on the evidence of a profile under a legal hold;
 * 404 for a profile not of the company. The profile row is locked `for share` in the caller's transaction:
 * `setLegalHold` locks it `for update`, so a hold set at the same moment either waits for this write to commit
 * or is seen by it, never skipped.
 */
export async function assertNoHold(
  tx: Tx,
  companyId: number,
  profileId: number,
  attempt: { actorId: number | null; action: HeldWrite; object: 'document' | 'videocall'; objectId: number },
): Promise<void> {
  const [row] = await tx
    .select({ hold: profiles.legalHold, reason: profiles.legalHoldReason })
    .from(profiles)
    .where(and(eq(profiles.id, profileId), eq(profiles.companyId, companyId)))
    .for('share');
  if (!row) throw notFound();
  if (!row.hold) return;
  const reason = row.reason ?? '';
  throw new LegalHoldError(reason, {
    companyId,
    actorId: attempt.actorId,
    object: 'profile',
    objectId: profileId,
    action: 'legal_hold_refused',
    before: { legal_hold: true, reason },
    after: { refused: attempt.action, object: attempt.object, object_id: attempt.objectId },
  });
}

/**
 * Audits a refusal once the refused write's transaction has rolled back (the error handler calls it for every
 * route, so no route has to). A failing audit write does not change the answer: it is reported to `onError`.
 */
export async function recordRefusal(
  db: DbOrTx,
  error: LegalHoldError,
  onError: (failure: unknown) => void,
): Promise<void> {
  await recordAudit(db, error.refusal).catch(onError);
}
