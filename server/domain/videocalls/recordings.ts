/** A call's recording: streamed in once, checked to be webm, made seekable and hashed; deleted unless held. */
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, eq, isNull } from 'drizzle-orm';
import { MAX_RECORDING_BYTES, RECORDING_EXISTS } from '#contract/constants';
import type { DbOrTx } from '../../db/client';
import { videoCalls } from '../../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import { FileTooLargeError, type Storage, type StoredFile } from '../../storage/storage';
import { StorageQuotaError } from '../../storage/uploadGate';
import { seekableHead } from '../../storage/webm';
import { recordAudit } from '../audit';
import { uploadAllowance } from '../evidence';
import { assertNoHold } from '../legalHold';
import { writeLog } from '../profileWrites';
import { enqueueWebhookEvent } from '../webhooks';
import { requireCall } from './calls';

/** webm (EBML) files start with these bytes; a recording that does not is refused. */
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
 * Stores a call's recording, once: only the call's agent uploads it; a call that has one answers
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
