/**
 * A call from start to end: created waiting, answered by one agent, missed or hung up, closed by the server or
 * an admin, and given its final status by its agent (or corrected by an Admin). Each step is one conditional
 * UPDATE, so steps racing each other happen once.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import {
  CALL_CLOSED,
  CALL_STATUS_MISSED,
  CALL_STATUS_TALKING,
  CALL_STATUS_WAITING,
  type CallEndReason,
  type Role,
} from '#contract/constants';
import type { AnsweredCall } from '#contract/socket';
import type { CreatedCall } from '#contract/videocalls';
import type { DbOrTx } from '../../db/client';
import { users, videoCalls } from '../../db/schema';
import { badRequest, conflict, forbidden } from '../../errors';
import { recordAudit } from '../audit';
import { checkedOutcome } from '../callOutcome';
import { writeLog } from '../profileWrites';
import { openCase } from '../review/open';
import { enqueueWebhookEvent } from '../webhooks';
import { requireCall } from './calls';

/** A new call of the customer's profile, status 0 (WAITING), in a room of its own. */
export async function createCall(
  db: DbOrTx,
  companyId: number,
  profileId: number,
  joinLink: string | null = null,
): Promise<CreatedCall> {
  const [row] = await db
    .insert(videoCalls)
    .values({ companyId, profileId, roomId: randomUUID(), status: CALL_STATUS_WAITING, joinLink })
    .returning({ id: videoCalls.id, room_id: videoCalls.roomId, status: videoCalls.status });
  if (!row) throw new Error('insert returned no row');
  await enqueueWebhookEvent(db, companyId, 'videocall.created', { call_id: row.id, profile_id: profileId });
  return row;
}

/**
 * Answers a waiting call for `agentId`. Atomic: one conditional UPDATE, so of many agents answering at once
 * exactly one gets the row back; the others get null (Call Already Answered).
 */
export async function answerCall(
  db: DbOrTx,
  companyId: number,
  callId: number,
  agentId: number,
): Promise<AnsweredCall | null> {
  const now = new Date();
  const [row] = await db
    .update(videoCalls)
    .set({ status: CALL_STATUS_TALKING, agentId, callStartTime: now })
    .where(
      and(
        eq(videoCalls.id, callId),
        eq(videoCalls.companyId, companyId),
        eq(videoCalls.status, CALL_STATUS_WAITING),
      ),
    )
    .returning({ call_id: videoCalls.id, profile: videoCalls.profileId, room_id: videoCalls.roomId });
  // The board's "time in state" restarts when the call starts.
  if (row) await db.update(users).set({ agentStatusSince: now }).where(eq(users.id, agentId));
  return row ?? null;
}

/**
 * answerCall for several server processes: in one transaction that locks the agent's row, so the same
 * agent answering two calls on two processes gets one of them ('agent busy' for the other).
 */
export async function answerCallAlone(
  db: DbOrTx,
  companyId: number,
  callId: number,
  agentId: number,
): Promise<AnsweredCall | 'agent busy' | null> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, agentId)).for('update');
    const [open] = await tx
      .select({ id: videoCalls.id })
      .from(videoCalls)
      .where(
        and(
          eq(videoCalls.agentId, agentId),
          eq(videoCalls.status, CALL_STATUS_TALKING),
          isNull(videoCalls.callEndTime),
        ),
      )
      .limit(1);
    if (open) return 'agent busy' as const;
    return answerCall(tx, companyId, callId, agentId);
  });
}

/** A waiting call nobody answered (the customer left): MISSED. False when it was no longer waiting. */
export async function missCall(db: DbOrTx, callId: number): Promise<boolean> {
  const rows = await db
    .update(videoCalls)
    .set({ status: CALL_STATUS_MISSED, callEndTime: new Date() })
    .where(and(eq(videoCalls.id, callId), eq(videoCalls.status, CALL_STATUS_WAITING)))
    .returning({ id: videoCalls.id });
  return rows.length > 0;
}

/** The end of a talking call (either side hung up); the agent still sets the status. */
export async function hangUpCall(db: DbOrTx, callId: number): Promise<boolean> {
  const now = new Date();
  const rows = await db
    .update(videoCalls)
    .set({ callEndTime: now })
    .where(
      and(
        eq(videoCalls.id, callId),
        eq(videoCalls.status, CALL_STATUS_TALKING),
        isNull(videoCalls.callEndTime),
      ),
    )
    .returning({ agentId: videoCalls.agentId });
  // Free again: the board's "time in state" restarts.
  const agentId = rows[0]?.agentId;
  if (agentId) await db.update(users).set({ agentStatusSince: now }).where(eq(users.id, agentId));
  return rows.length > 0;
}

/** How an open call is closed: its status, why, by whom (null: the server), a note, the company's reason id. */
export interface CallClose {
  status: number;
  reason: CallEndReason;
  by: number | null;
  note?: string;
  outcomeReason?: string | null;
}

/**
 * Closes a call that is still open (WAITING, or TALKING with or without an end time) with a final status and
 * why: its agent gone for good, both sides gone, left talking by an earlier run, or an admin (`by`).
 * One conditional UPDATE, so a close racing another close or the agent's own status happens once; null when
 * the call was no longer open. Logged on the profile, audited (who: `by`, null for the server) and announced
 * by webhook, like a status the agent sets.
 */
export async function closeCall(
  db: DbOrTx,
  companyId: number,
  callId: number,
  close: CallClose,
): Promise<typeof videoCalls.$inferSelect | null> {
  const before = await requireCall(db, companyId, callId);
  if (before.status !== CALL_STATUS_WAITING && before.status !== CALL_STATUS_TALKING) return null;
  const now = new Date();
  const [after] = await db
    .update(videoCalls)
    .set({
      status: close.status,
      endReason: close.reason,
      outcomeReason: close.outcomeReason ?? null,
      statusSetBy: close.by,
      callEndTime: before.callEndTime ?? now,
    })
    .where(
      and(eq(videoCalls.id, callId), inArray(videoCalls.status, [CALL_STATUS_WAITING, CALL_STATUS_TALKING])),
    )
    .returning();
  if (!after) return null;
  if (before.agentId !== null && before.callEndTime === null)
    await db.update(users).set({ agentStatusSince: now }).where(eq(users.id, before.agentId));
  await writeLog(db, before.profileId, close.by, 'call_closed', {
    call: callId,
    status: close.status,
    reason: close.reason,
    note: close.note ?? null,
  });
  await enqueueWebhookEvent(db, companyId, 'videocall.completed', {
    call_id: callId,
    profile_id: before.profileId,
    status: close.status,
  });
  await recordAudit(db, {
    companyId,
    actorId: close.by,
    object: 'videocall',
    objectId: callId,
    action: 'call_closed',
    before: { status: before.status, call_end_time: before.callEndTime },
    after: {
      status: close.status,
      reason: close.reason,
      note: close.note,
      ...given(after.outcomeReason),
      call_end_time: after.callEndTime,
    },
  });
  return after;
}

/**
 * The reason id of a final status for a log or audit entry: absent when none was given, so such entries keep the
 * shape they had before companies had reason ids.
 */
const given = (outcomeReason: string | null) => (outcomeReason ? { outcome_reason: outcomeReason } : {});

/**
 * The status the call ended with (PUT /videocall/{id}): a call never answered (WAITING, MISSED) cannot
 * be given one (409); a talking call only by its own agent (403; an admin closes it with POST …/close); once a
 * call has its final status, only an Admin may correct it, with a reason, audited with before and after (its
 * agent, an Admin too when it gives no reason, gets 409 "The call is already closed", except for the same status
 * again: a retried request).
 * Answers what happened, so the caller knows whether the call just ended.
 */
export async function setCallStatus(
  db: DbOrTx,
  companyId: number,
  callId: number,
  actor: { id: number; role: Role },
  body: { status: number; reason?: string | undefined; outcome_reason?: string | undefined },
): Promise<'set' | 'corrected' | 'unchanged'> {
  const call = await requireCall(db, companyId, callId);
  const { status } = body;
  if (call.status === CALL_STATUS_WAITING || call.status === CALL_STATUS_MISSED) {
    throw conflict('The call was not answered');
  }
  if (call.status !== CALL_STATUS_TALKING) {
    if (call.agentId === actor.id && call.statusSetBy === actor.id && call.status === status)
      return 'unchanged';
    // An Admin who was the call's own agent and gives no reason is its agent saving the wrap-up, not correcting.
    if (actor.role !== 'Admin' || (call.agentId === actor.id && !body.reason)) {
      if (call.agentId === actor.id) throw conflict(CALL_CLOSED);
      throw forbidden('Only the agent of the call can set its status');
    }
    if (!body.reason) throw badRequest('Give a reason of at least 10 characters');
    const outcomeReason = await checkedOutcome(db, companyId, callId, status, body.outcome_reason);
    await db
      .update(videoCalls)
      .set({ status, statusSetBy: actor.id, outcomeReason })
      .where(eq(videoCalls.id, callId));
    await writeLog(db, call.profileId, actor.id, 'call_status_corrected', {
      call: callId,
      before: call.status,
      status,
      reason: body.reason,
    });
    await recordAudit(db, {
      companyId,
      actorId: actor.id,
      object: 'videocall',
      objectId: callId,
      action: 'call_status_corrected',
      before: {
        status: call.status,
        status_set_by: call.statusSetBy,
        end_reason: call.endReason,
        ...given(call.outcomeReason),
      },
      after: { status, status_set_by: actor.id, reason: body.reason, ...given(outcomeReason) },
    });
    return 'corrected';
  }
  if (call.agentId !== actor.id) throw forbidden('Only the agent of the call can set its status');
  const outcomeReason = await checkedOutcome(db, companyId, callId, status, body.outcome_reason);
  const [updated] = await db
    .update(videoCalls)
    .set({ status, statusSetBy: actor.id, outcomeReason, callEndTime: call.callEndTime ?? new Date() })
    .where(and(eq(videoCalls.id, callId), eq(videoCalls.status, CALL_STATUS_TALKING)))
    .returning({ id: videoCalls.id });
  // Closed meanwhile (the server or an admin, between the read and this write).
  if (!updated) throw conflict(CALL_CLOSED);
  await writeLog(db, call.profileId, actor.id, 'call_status_set', {
    call: callId,
    status,
    ...given(outcomeReason),
  });
  await enqueueWebhookEvent(db, companyId, 'videocall.completed', {
    call_id: callId,
    profile_id: call.profileId,
    status,
  });
  await recordAudit(db, {
    companyId,
    actorId: actor.id,
    object: 'videocall',
    objectId: callId,
    action: 'call_status_set',
    before: { status: call.status },
    after: { status, ...given(outcomeReason) },
  });
  // A finished video identification needs a reviewer's decision.
  await openCase(db, {
    companyId,
    profileId: call.profileId,
    kind: 'video_identification',
    actorId: actor.id,
    source: 'call_status_set',
  });
  return 'set';
}
