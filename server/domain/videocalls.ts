import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, asc, count, desc, eq, isNotNull, isNull, type SQL } from 'drizzle-orm';
import { CALL_STATUSES, type CallStatusName } from '../../src/contract/common';
import {
  CALL_STATUS_MISSED,
  CALL_STATUS_TALKING,
  CALL_STATUS_WAITING,
  MAX_RECORDING_BYTES,
} from '../../src/contract/constants';
import type { AnsweredCall, QueuedCall } from '../../src/contract/socket';
import type { CallAnswer, CreatedCall, VideoCall } from '../../src/contract/videocalls';
import type { DbOrTx } from '../db/client';
import { profiles, users, videoCallAnswers, videoCallQuestions, videoCalls } from '../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import type { Storage } from '../storage/storage';
import { recordAudit } from './audit';
import { fullName, iso } from './format';
import { writeLog } from './profileWrites';
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
    created_at: iso(call.createdAt),
  };
}

export async function listVideoCalls(
  db: DbOrTx,
  storage: Storage,
  companyId: number,
  query: { profile?: number | undefined; status?: number | undefined; limit: number; offset: number },
): Promise<{ count: number; results: VideoCall[] }> {
  const filters: SQL[] = [eq(videoCalls.companyId, companyId)];
  if (query.profile !== undefined) filters.push(eq(videoCalls.profileId, query.profile));
  if (query.status !== undefined) filters.push(eq(videoCalls.status, query.status));
  const where = and(...filters);
  const [total, rows] = await Promise.all([
    db.select({ value: count() }).from(videoCalls).where(where),
    withAgent(db)
      .where(where)
      .orderBy(desc(videoCalls.createdAt), desc(videoCalls.id))
      .limit(query.limit)
      .offset(query.offset),
  ]);
  return { count: total[0]?.value ?? 0, results: rows.map((row) => toVideoCall(storage, row)) };
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

/** A new call of the customer's profile, status 0 (WAITING), in a room of its own. */
export async function createCall(db: DbOrTx, companyId: number, profileId: number): Promise<CreatedCall> {
  const [row] = await db
    .insert(videoCalls)
    .values({ companyId, profileId, roomId: randomUUID(), status: CALL_STATUS_WAITING })
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
  const [row] = await db
    .update(videoCalls)
    .set({ status: CALL_STATUS_TALKING, agentId, callStartTime: new Date() })
    .where(
      and(
        eq(videoCalls.id, callId),
        eq(videoCalls.companyId, companyId),
        eq(videoCalls.status, CALL_STATUS_WAITING),
      ),
    )
    .returning({ call_id: videoCalls.id, profile: videoCalls.profileId, room_id: videoCalls.roomId });
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
  const rows = await db
    .update(videoCalls)
    .set({ callEndTime: new Date() })
    .where(
      and(
        eq(videoCalls.id, callId),
        eq(videoCalls.status, CALL_STATUS_TALKING),
        isNull(videoCalls.callEndTime),
      ),
    )
    .returning({ id: videoCalls.id });
  return rows.length > 0;
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

/**
 * The status the call ended with (PUT /videocall/{id}). A call that was never answered (WAITING, MISSED)
 * cannot be given one; a talking call only by its own agent.
 */
export async function setCallStatus(
  db: DbOrTx,
  companyId: number,
  callId: number,
  actorId: number,
  status: number,
): Promise<void> {
  const call = await requireCall(db, companyId, callId);
  if (call.status === CALL_STATUS_WAITING || call.status === CALL_STATUS_MISSED) {
    throw conflict('The call was not answered');
  }
  if (call.status === CALL_STATUS_TALKING && call.agentId !== actorId) {
    throw forbidden('Only the agent of the call can end it');
  }
  await db
    .update(videoCalls)
    .set({ status, callEndTime: call.callEndTime ?? new Date() })
    .where(eq(videoCalls.id, callId));
  await writeLog(db, call.profileId, actorId, 'call_status_set', {
    call: callId,
    status,
  });
  await enqueueWebhookEvent(db, companyId, 'videocall.completed', {
    call_id: callId,
    profile_id: call.profileId,
    status,
  });
  await recordAudit(db, {
    companyId,
    actorId,
    object: 'videocall',
    objectId: callId,
    action: 'call_status_set',
    before: { status: call.status },
    after: { status },
  });
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
    room_id: call.roomId,
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

/** Stores a call's recording (streamed; over 300 MB is refused and nothing is kept). */
export async function storeRecording(
  db: DbOrTx,
  storage: Storage,
  companyId: number,
  callId: number,
  actorId: number,
  file: Readable,
  maxBytes = MAX_RECORDING_BYTES,
): Promise<void> {
  const call = await requireCall(db, companyId, callId);
  const key = `recordings/${companyId}/${callId}-${randomUUID()}.webm`;
  const stored = await storage.put(key, Readable.from(webmOnly(file)), { maxBytes });
  if (call.recordingKey) await storage.remove(call.recordingKey);
  await db
    .update(videoCalls)
    .set({ recordingKey: key, recordingSize: stored.size })
    .where(eq(videoCalls.id, callId));
  await writeLog(db, call.profileId, actorId, 'call_recording_stored', {
    call: callId,
    size: stored.size,
  });
}

/** Deletes a call's recording; the call itself stays for statistics and the audit trail. */
export async function deleteRecording(
  db: DbOrTx,
  storage: Storage,
  companyId: number,
  callId: number,
  actorId: number,
): Promise<void> {
  const call = await requireCall(db, companyId, callId);
  if (!call.recordingKey) throw notFound();
  await db
    .update(videoCalls)
    .set({ recordingKey: null, recordingSize: null })
    .where(eq(videoCalls.id, callId));
  await storage.remove(call.recordingKey);
  await writeLog(db, call.profileId, actorId, 'video_deleted', { call: callId });
  await recordAudit(db, {
    companyId,
    actorId,
    object: 'videocall',
    objectId: callId,
    action: 'video_deleted',
    before: { recording: call.recordingKey },
    after: { recording: null },
  });
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
