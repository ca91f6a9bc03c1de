import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, asc, desc, eq, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import { JOIN_LINK_RETRIES } from '#contract/callRouting';
import { CALL_STATUSES, type CallStatusName } from '#contract/common';
import {
  CALL_CLOSED,
  CALL_STATUS_MISSED,
  CALL_STATUS_TALKING,
  CALL_STATUS_WAITING,
  type CallEndReason,
  JOIN_LINK_USED,
  MAX_RECORDING_BYTES,
  RECORDING_EXISTS,
  type Role,
} from '#contract/constants';
import type { AnsweredCall, QueuedCall } from '#contract/socket';
import type { CallAnswer, CreatedCall, VideoCall, VideoCallListQuery } from '#contract/videocalls';
import type { CustomerClaims } from '../auth/tokens';
import type { DbOrTx } from '../db/client';
import { companies, profiles, users, videoCallAnswers, videoCallQuestions, videoCalls } from '../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import { FileTooLargeError, type Storage, type StoredFile } from '../storage/storage';
import { StorageQuotaError } from '../storage/uploadGate';
import { seekableHead } from '../storage/webm';
import { recordAudit } from './audit';
import { checkedOutcome } from './callOutcome';
import { countList, DEFAULT_COUNT_CAP, type ListCount } from './counting';
import { uploadAllowance } from './evidence';
import { fullName, iso } from './format';
import { type KeysetLinks, type KeysetOrdering, keyTextOf, readKeysetPage } from './keyset';
import { assertNoHold } from './legalHold';
import { writeLog } from './profileWrites';
import { openCase } from './review/open';
import { enqueueWebhookEvent } from './webhooks';

/** Turkish labels of the call status codes (en-US labels are the §4 names in title case). */
const TR_LABELS: Record<CallStatusName, string> = {
  WAITING: 'Bekliyor',
  TALKING: 'Görüşmede',
  MISSED: 'Cevapsız',
  COMPLETE: 'Tamamlandı',
  INCOMPLETE: 'Tamamlanmadı',
  ESCALATED: 'Üst birime aktarıldı',
  'BAD QUALITY': 'Kötü kalite',
  'CONNECTION ERROR': 'Bağlantı hatası',
  DISCONNECTED: 'Bağlantı kesildi',
  SUSPICIOUS: 'Şüpheli',
};

const titleCase = (name: string) => name.toLowerCase().replace(/\b\w/g, (c) => c.toUpperCase());

export function callStatusList() {
  return CALL_STATUSES.map((name, code) => ({
    code,
    name,
    labels: { 'en-US': titleCase(name), tr: TR_LABELS[name] },
  }));
}

const withAgent = (db: DbOrTx) =>
  db
    .select({ call: videoCalls, first: users.firstName, last: users.lastName })
    .from(videoCalls)
    .leftJoin(users, eq(users.id, videoCalls.agentId));
type CallWithAgent = Awaited<ReturnType<ReturnType<typeof withAgent>['execute']>>[number];

function toVideoCall(storage: Storage, { call, first, last }: CallWithAgent): VideoCall {
  return {
    id: call.id,
    profile: call.profileId,
    agent: call.agentId !== null ? { id: call.agentId, name: fullName(first ?? '', last ?? '') } : null,
    room_id: call.roomId,
    status: call.status,
    status_name: CALL_STATUSES[call.status] ?? 'WAITING',
    call_start_time: iso(call.callStartTime),
    call_end_time: iso(call.callEndTime),
    recorded_file: call.recordingKey ? storage.signedUrl(call.recordingKey) : null,
    end_reason: call.endReason,
    outcome_reason: call.outcomeReason,
    recording_sha256: call.recordingKey ? call.recordingSha256 : null,
    created_at: iso(call.createdAt),
  };
}

/** The calls list's one ordering, newest first, by keyset (record 0164). */
const CALL_ORDERING: KeysetOrdering = {
  name: '-created_at',
  key: { expr: videoCalls.createdAt, kind: 'timestamp' },
  id: videoCalls.id,
  descending: true,
};

export async function listVideoCalls(
  db: DbOrTx,
  storage: Storage,
  companyId: number,
  query: VideoCallListQuery,
  countCap = DEFAULT_COUNT_CAP,
): Promise<ListCount & { links: KeysetLinks; results: VideoCall[] }> {
  const filters: SQL[] = [eq(videoCalls.companyId, companyId)];
  if (query.profile !== undefined) filters.push(eq(videoCalls.profileId, query.profile));
  if (query.status !== undefined) filters.push(eq(videoCalls.status, query.status));
  const where = and(...filters);
  const [total, page] = await Promise.all([
    countList(db, db.select({ one: sql`1` }).from(videoCalls).where(where), countCap),
    readKeysetPage(
      CALL_ORDERING,
      query,
      (place, orderBy, limit) =>
        db
          .select({
            call: videoCalls,
            first: users.firstName,
            last: users.lastName,
            position: keyTextOf(CALL_ORDERING),
          })
          .from(videoCalls)
          .leftJoin(users, eq(users.id, videoCalls.agentId))
          .where(place ? and(where, place) : where)
          .orderBy(...orderBy)
          .limit(limit),
      (row) => ({ key: row.position, id: row.call.id }),
      { db, where },
    ),
  ]);
  return { ...total, links: page.links, results: page.rows.map((row) => toVideoCall(storage, row)) };
}

/** One call of the company as the API shows it, or 404. */
export async function oneVideoCall(
  db: DbOrTx,
  storage: Storage,
  companyId: number,
  callId: number,
): Promise<VideoCall> {
  const [row] = await withAgent(db).where(
    and(eq(videoCalls.id, callId), eq(videoCalls.companyId, companyId)),
  );
  if (!row) throw notFound();
  return toVideoCall(storage, row);
}

/** The company's call questions in one language; the call must be the company's. */
export async function callQuestions(db: DbOrTx, companyId: number, callId: number, lang: 'EN' | 'TR') {
  const [call] = await db
    .select({ id: videoCalls.id })
    .from(videoCalls)
    .where(and(eq(videoCalls.id, callId), eq(videoCalls.companyId, companyId)));
  if (!call) throw notFound();
  const rows = await db
    .select()
    .from(videoCallQuestions)
    .where(eq(videoCallQuestions.companyId, companyId))
    .orderBy(asc(videoCallQuestions.sortOrder));
  return rows.map((q) => ({
    id: q.id,
    question: lang === 'TR' ? q.textTr : q.textEn,
    sort_order: q.sortOrder,
  }));
}

// ---------------------------------------------------------------- the call lifecycle (issue 5)

/**
 * The call a join link holds now (issue 25: one at a time), waiting or talking, or null. Takes a lock on the
 * link for the rest of the transaction, so two creates on one link never both make a call.
 */
export async function openCallOfLink(db: DbOrTx, joinLink: string): Promise<CreatedCall | null> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`join-link:${joinLink}`}))`);
  const [open] = await db
    .select({ id: videoCalls.id, room_id: videoCalls.roomId, status: videoCalls.status })
    .from(videoCalls)
    .where(
      and(
        eq(videoCalls.joinLink, joinLink),
        or(
          eq(videoCalls.status, CALL_STATUS_WAITING),
          and(eq(videoCalls.status, CALL_STATUS_TALKING), isNull(videoCalls.callEndTime)),
        ),
      ),
    )
    .limit(1);
  return open ?? null;
}

/** What a call keeps of the join link that created it: the token's SHA-256 (the token itself is never stored). */
export const joinLinkOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * The call `callId` as the holder of a join-link token may use it: of the token's company and profile, and
 * created with that very link. Any other call (another link of the same profile, another profile or company)
 * is 404, so a token tells nothing of calls that are not its own. Every customer route and the customer's
 * socket check a call through this.
 */
export async function callOfLink(db: DbOrTx, customer: CustomerClaims, token: string, callId: number) {
  const call = await requireCall(db, customer.company_id, callId);
  if (call.profileId !== customer.profile_id || call.joinLink !== joinLinkOf(token)) throw notFound();
  return call;
}

/**
 * Endings nobody decided (docs/decisions/0197-links-bound-to-their-call.md): never answered, or cut by the
 * connection. After these alone the link may start another call, as many times as the company allows.
 */
const TECHNICAL_ABORTS: readonly number[] = (
  ['MISSED', 'BAD QUALITY', 'CONNECTION ERROR', 'DISCONNECTED'] as const
).map((name) => CALL_STATUSES.indexOf(name));

/**
 * Refuses (409) a new call of a join link that has started every call it may: its first, then one more per
 * retry the company allows (`join_link_retries`), and only while each earlier call ended by a technical abort.
 * A hung-up call still waiting for its agent's status counts as one, as the customer cannot know better. Call
 * it after openCallOfLink found no open call, in the same transaction: that lock makes concurrent starts of
 * one link count one after the other.
 */
export async function assertLinkMayStart(db: DbOrTx, companyId: number, joinLink: string): Promise<void> {
  const earlier = await db
    .select({ status: videoCalls.status })
    .from(videoCalls)
    .where(eq(videoCalls.joinLink, joinLink));
  if (earlier.length === 0) return;
  const [company] = await db
    .select({ retries: companies.joinLinkRetries })
    .from(companies)
    .where(eq(companies.id, companyId));
  const retries = company?.retries ?? JOIN_LINK_RETRIES.default;
  const aborted = earlier.every(
    ({ status }) => status === CALL_STATUS_TALKING || TECHNICAL_ABORTS.includes(status),
  );
  if (!aborted || earlier.length > retries) throw conflict(JOIN_LINK_USED);
}

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
  // The board's "time in state" restarts when the call starts (issue 25).
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
 * why (issue 25): its agent gone for good, both sides gone, left talking by an earlier run, or an admin (`by`).
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

/** One call of the company, or 404. */
export async function requireCall(db: DbOrTx, companyId: number, callId: number) {
  const [row] = await db
    .select()
    .from(videoCalls)
    .where(and(eq(videoCalls.id, callId), eq(videoCalls.companyId, companyId)));
  if (!row) throw notFound();
  return row;
}

/** The reason id of a final status for a log or audit entry: absent when none was given (as before issue 29). */
const given = (outcomeReason: string | null) => (outcomeReason ? { outcome_reason: outcomeReason } : {});

/**
 * The status the call ended with (PUT /videocall/{id}), issue 25: a call never answered (WAITING, MISSED) cannot
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
  // A finished video identification needs a reviewer's decision (issue 30).
  await openCase(db, {
    companyId,
    profileId: call.profileId,
    kind: 'video_identification',
    actorId: actor.id,
    source: 'call_status_set',
  });
  return 'set';
}

/** The calls waiting now in a company, oldest first, with the customer's name. */
export async function waitingCalls(db: DbOrTx, companyId: number): Promise<QueuedCall[]> {
  const rows = await db
    .select({ call: videoCalls, name: profiles.name })
    .from(videoCalls)
    .innerJoin(profiles, eq(profiles.id, videoCalls.profileId))
    .where(and(eq(videoCalls.companyId, companyId), eq(videoCalls.status, CALL_STATUS_WAITING)))
    .orderBy(asc(videoCalls.createdAt), asc(videoCalls.id));
  return rows.map(({ call, name }) => toQueuedCall(call, name));
}

export function toQueuedCall(call: typeof videoCalls.$inferSelect, profileName: string | null): QueuedCall {
  return {
    call_id: call.id,
    profile: call.profileId,
    profile_name: profileName,
    status: call.status,
    created_at: iso(call.createdAt),
  };
}

/** Average handling time of the company's last 50 answered calls, in seconds (120 with no history). */
export async function averageHandlingSeconds(db: DbOrTx, companyId: number): Promise<number> {
  const rows = await db
    .select({ start: videoCalls.callStartTime, end: videoCalls.callEndTime })
    .from(videoCalls)
    .where(
      and(
        eq(videoCalls.companyId, companyId),
        isNotNull(videoCalls.callStartTime),
        isNotNull(videoCalls.callEndTime),
      ),
    )
    .orderBy(desc(videoCalls.id))
    .limit(50);
  const seconds = rows.map(({ start, end }) => ((end?.getTime() ?? 0) - (start?.getTime() ?? 0)) / 1000);
  const valid = seconds.filter((s) => s > 0);
  if (valid.length === 0) return 120;
  return Math.round(valid.reduce((a, b) => a + b, 0) / valid.length);
}

/** webm (EBML) files start with these bytes (browser-tests note, pitfall 1). */
const WEBM_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

/** The file's bytes, once its first bytes prove it is webm; otherwise a 400. */
async function* webmOnly(file: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let head = Buffer.alloc(0);
  let checked = false;
  for await (const chunk of file) {
    if (checked) {
      yield chunk;
      continue;
    }
    head = Buffer.concat([head, chunk]);
    if (head.length < WEBM_MAGIC.length) continue;
    if (!head.subarray(0, WEBM_MAGIC.length).equals(WEBM_MAGIC)) break;
    checked = true;
    yield head;
  }
  if (!checked) throw badRequest('The recording must be a webm video');
}

/**
 * Stores a call's recording, once (issue 25): only the call's agent uploads it; a call that has one answers
 * 409 before anything is read (a retry of an upload that never completed finds none and goes through). The
 * file is streamed (over `maxBytes`, or past the company's quota, nothing is kept), made seekable (duration
 * and cues, server/storage/webm.ts) and kept with its SHA-256; the row is written only if no other upload won
 * meanwhile.
 */
export async function storeRecording(
  db: DbOrTx,
  storage: Storage,
  companyId: number,
  callId: number,
  actorId: number,
  file: Readable,
  maxBytes = MAX_RECORDING_BYTES,
  quotaBytes = Number.POSITIVE_INFINITY,
): Promise<{ sha256: string; size: number }> {
  const call = await requireCall(db, companyId, callId);
  if (call.agentId !== actorId) throw forbidden('Only the agent of the call can upload its recording');
  // A deleted recording keeps its hash: the call never takes another one.
  if (call.recordingKey || call.recordingSha256) throw conflict(RECORDING_EXISTS);
  const allowance = await uploadAllowance(db, companyId, maxBytes, quotaBytes);
  const raw = `recordings/${companyId}/${callId}-${randomUUID()}.webm`;
  let rawStored: StoredFile;
  try {
    rawStored = await storage.put(raw, Readable.from(webmOnly(file)), { maxBytes: allowance.maxBytes });
  } catch (error) {
    if (error instanceof FileTooLargeError && allowance.byQuota) throw new StorageQuotaError();
    throw error;
  }
  let stored: StoredFile;
  try {
    stored = await seekableCopy(storage, rawStored, `recordings/${companyId}/${callId}-${randomUUID()}.webm`);
  } catch (error) {
    await storage.remove(raw);
    throw error;
  }
  const kept = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(videoCalls)
      .set({ recordingKey: stored.key, recordingSize: stored.size, recordingSha256: stored.sha256 })
      .where(
        and(eq(videoCalls.id, callId), isNull(videoCalls.recordingKey), isNull(videoCalls.recordingSha256)),
      )
      .returning({ id: videoCalls.id });
    if (!row) return false;
    const facts = { call: callId, size: stored.size, sha256: stored.sha256 };
    await writeLog(tx, call.profileId, actorId, 'call_recording_stored', facts);
    await enqueueWebhookEvent(tx, companyId, 'videocall.recorded', {
      call_id: callId,
      profile_id: call.profileId,
      size: stored.size,
      sha256: stored.sha256,
    });
    await recordAudit(tx, {
      companyId,
      actorId,
      object: 'videocall',
      objectId: callId,
      action: 'recording_stored',
      after: { recording: stored.key, size: stored.size, sha256: stored.sha256 },
    });
    return true;
  });
  if (!kept) {
    await storage.remove(stored.key);
    throw conflict(RECORDING_EXISTS);
  }
  return { sha256: stored.sha256, size: stored.size };
}

/**
 * The stored webm `raw` made seekable under `key` (its header with duration and cues, then its body), `raw`
 * removed; a file that cannot be indexed stays as it is, under `raw`.
 */
async function seekableCopy(storage: Storage, raw: StoredFile, key: string): Promise<StoredFile> {
  const seekable = await seekableHead(storage.open(raw.key));
  if (!seekable) return raw;
  const { size } = raw;
  const body =
    size > seekable.bodyStart ? storage.open(raw.key, { start: seekable.bodyStart, end: size - 1 }) : null;
  const stored = await storage.put(
    key,
    Readable.from(
      (async function* () {
        yield seekable.head;
        if (body) yield* body;
      })(),
    ),
  );
  await storage.remove(raw.key);
  return stored;
}

/**
 * Deletes a call's recording; the call itself stays for statistics and the audit trail, and its SHA-256 stays, so
 * an evidence package names the recording missing. Refused (409) while the call's profile is under a legal hold.
 * The key is cleared, logged and audited in one transaction; the file is removed after it commits.
 */
export async function deleteRecording(
  db: DbOrTx,
  storage: Storage,
  companyId: number,
  callId: number,
  actorId: number,
): Promise<void> {
  const call = await requireCall(db, companyId, callId);
  const key = await db.transaction(async (tx) => {
    await assertNoHold(tx, companyId, call.profileId, {
      actorId,
      action: 'video_deleted',
      object: 'videocall',
      objectId: callId,
    });
    const [row] = await tx
      .select({ key: videoCalls.recordingKey })
      .from(videoCalls)
      .where(eq(videoCalls.id, callId))
      .for('update');
    if (!row?.key) throw notFound();
    await tx
      .update(videoCalls)
      .set({ recordingKey: null, recordingSize: null })
      .where(eq(videoCalls.id, callId));
    await writeLog(tx, call.profileId, actorId, 'video_deleted', { call: callId });
    await recordAudit(tx, {
      companyId,
      actorId,
      object: 'videocall',
      objectId: callId,
      action: 'video_deleted',
      before: { recording: row.key },
      after: { recording: null },
    });
    return row.key;
  });
  await storage.remove(key);
}

/** An answer or a note given during a call (video_call_answers). */
export async function addCallEntry(
  db: DbOrTx,
  companyId: number,
  callId: number,
  authorId: number,
  entry: { question: number | null; value?: string; note?: string },
): Promise<CallAnswer> {
  await requireCall(db, companyId, callId);
  if (entry.question !== null) {
    const [question] = await db
      .select({ id: videoCallQuestions.id })
      .from(videoCallQuestions)
      .where(and(eq(videoCallQuestions.id, entry.question), eq(videoCallQuestions.companyId, companyId)));
    if (!question) throw badRequest('Unknown question');
  }
  const [row] = await db
    .insert(videoCallAnswers)
    .values({
      callId,
      questionId: entry.question,
      value: entry.value ?? null,
      note: entry.note ?? null,
      authorId,
    })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return {
    id: row.id,
    question: row.questionId,
    value: row.value,
    note: row.note,
    created_at: iso(row.createdAt),
  };
}

/**
 * Locks the call's row until the transaction ends, so that counting what the call has used (codes sent, serial
 * numbers typed, screenshots taken) and adding one cannot interleave with another request doing the same. `no key update`: rows
 * that only reference the call (steps, screenshots) are still written meanwhile
 * (docs/decisions/0196-tries-claimed-atomically.md).
 */
export async function lockCall(tx: DbOrTx, callId: number): Promise<void> {
  await tx
    .select({ id: videoCalls.id })
    .from(videoCalls)
    .where(eq(videoCalls.id, callId))
    .for('no key update');
}
