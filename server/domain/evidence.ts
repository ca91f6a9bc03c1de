/**
 * Evidence kept once: which stored file is a call's recording, screenshot or a document's page, the
 * SHA-256 it was stored with, a check of that hash when the file is served, and the start-up sweep of what
 * interrupted uploads left in storage.
 */
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { documentPages, documents, videoCallScreenshots, videoCalls } from '../db/schema';
import type { Storage } from '../storage/storage';
import { StorageQuotaError } from '../storage/uploadGate';
import { recordAudit } from './audit';

/** What a stored key is evidence of, with the hash it was stored with. */
export interface EvidenceFile {
  companyId: number;
  object: 'videocall' | 'document';
  objectId: number;
  sha256: string;
}

/** The recording or document page stored under `key` (null for other files, or one stored without a hash). */
export async function evidenceOf(db: DbOrTx, key: string): Promise<EvidenceFile | null> {
  if (key.startsWith('recordings/')) {
    const [call] = await db
      .select({ companyId: videoCalls.companyId, id: videoCalls.id, sha256: videoCalls.recordingSha256 })
      .from(videoCalls)
      .where(eq(videoCalls.recordingKey, key))
      .limit(1);
    return call?.sha256
      ? { companyId: call.companyId, object: 'videocall', objectId: call.id, sha256: call.sha256 }
      : null;
  }
  if (key.startsWith('screenshots/')) {
    const [shot] = await db
      .select({ companyId: videoCalls.companyId, id: videoCalls.id, sha256: videoCallScreenshots.sha256 })
      .from(videoCallScreenshots)
      .innerJoin(videoCalls, eq(videoCalls.id, videoCallScreenshots.callId))
      .where(eq(videoCallScreenshots.storageKey, key))
      .limit(1);
    return shot
      ? { companyId: shot.companyId, object: 'videocall', objectId: shot.id, sha256: shot.sha256 }
      : null;
  }
  if (key.startsWith('documents/')) {
    const [page] = await db
      .select({ companyId: documents.companyId, id: documents.id, sha256: documentPages.sha256 })
      .from(documentPages)
      .innerJoin(documents, eq(documents.id, documentPages.documentId))
      .where(eq(documentPages.storageKey, key))
      .limit(1);
    return page?.sha256
      ? { companyId: page.companyId, object: 'document', objectId: page.id, sha256: page.sha256 }
      : null;
  }
  return null;
}

/** A served file whose bytes no longer have the hash they were stored with: audited (the system as actor). */
export async function recordHashMismatch(
  db: DbOrTx,
  file: EvidenceFile,
  key: string,
  actual: string,
): Promise<void> {
  await recordAudit(db, {
    companyId: file.companyId,
    actorId: null,
    object: file.object,
    objectId: file.objectId,
    action: 'evidence_hash_mismatch',
    before: { key, sha256: file.sha256 },
    after: { key, sha256: actual },
  });
}

/** Bytes a company keeps in storage: its recordings, document pages and call screenshots (the quota, point 6). */
export async function storageUsed(db: DbOrTx, companyId: number): Promise<number> {
  const [recordings] = await db
    .select({ bytes: sql<string>`coalesce(sum(${videoCalls.recordingSize}), 0)` })
    .from(videoCalls)
    .where(and(eq(videoCalls.companyId, companyId), isNotNull(videoCalls.recordingKey)));
  const [pages] = await db
    .select({ bytes: sql<string>`coalesce(sum(${documentPages.size}), 0)` })
    .from(documentPages)
    .innerJoin(documents, eq(documents.id, documentPages.documentId))
    .where(eq(documents.companyId, companyId));
  const [shots] = await db
    .select({ bytes: sql<string>`coalesce(sum(${videoCallScreenshots.size}), 0)` })
    .from(videoCallScreenshots)
    .innerJoin(videoCalls, eq(videoCalls.id, videoCallScreenshots.callId))
    .where(eq(videoCalls.companyId, companyId));
  return Number(recordings?.bytes ?? 0) + Number(pages?.bytes ?? 0) + Number(shots?.bytes ?? 0);
}

/**
 * The bytes a company may still store (its quota less what it keeps), capped at `maxBytes`; a quota already
 * used up is a StorageQuotaError before anything is read.
 */
export async function uploadAllowance(
  db: DbOrTx,
  companyId: number,
  maxBytes: number,
  quotaBytes: number,
): Promise<{ maxBytes: number; byQuota: boolean }> {
  const left = quotaBytes - (await storageUsed(db, companyId));
  if (left <= 0) throw new StorageQuotaError();
  return left < maxBytes ? { maxBytes: left, byQuota: true } : { maxBytes, byQuota: false };
}

/** The folders whose files must each be referenced by a row: a page, a recording or a screenshot. */
const SWEPT = [
  { prefix: 'documents/', referenced: referencedPages },
  { prefix: 'recordings/', referenced: referencedRecordings },
  { prefix: 'screenshots/', referenced: referencedScreenshots },
] as const;

async function referencedScreenshots(db: DbOrTx, keys: string[]): Promise<Set<string>> {
  const rows = await db
    .select({ key: videoCallScreenshots.storageKey })
    .from(videoCallScreenshots)
    .where(inArray(videoCallScreenshots.storageKey, keys));
  return new Set(rows.map((row) => row.key as string));
}

async function referencedPages(db: DbOrTx, keys: string[]): Promise<Set<string>> {
  const rows = await db
    .select({ key: documentPages.storageKey })
    .from(documentPages)
    .where(inArray(documentPages.storageKey, keys));
  return new Set(rows.map((row) => row.key));
}

async function referencedRecordings(db: DbOrTx, keys: string[]): Promise<Set<string>> {
  const rows = await db
    .select({ key: videoCalls.recordingKey })
    .from(videoCalls)
    .where(inArray(videoCalls.recordingKey, keys));
  return new Set(rows.map((row) => row.key as string));
}

/**
 * At start: removes partial uploads (`.part` files, S3 multipart uploads) and page images and recordings that
 * no row references, all older than `before` (uploads still running on another process are younger).
 */
export async function sweepStorage(
  db: DbOrTx,
  storage: Storage,
  before: Date,
  onError: (error: unknown) => void,
): Promise<{ partial: number; unreferenced: number }> {
  const partial = await storage.removePartial(before).catch((error) => {
    onError(error);
    return 0;
  });
  let unreferenced = 0;
  for (const { prefix, referenced } of SWEPT) {
    let batch: string[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const kept = await referenced(db, batch);
      for (const key of batch) {
        if (kept.has(key)) continue;
        await storage.remove(key);
        unreferenced += 1;
      }
      batch = [];
    };
    try {
      for await (const file of storage.list(prefix)) {
        if (file.modified >= before) continue;
        batch.push(file.key);
        if (batch.length === 500) await flush();
      }
      await flush();
    } catch (error) {
      onError(error);
    }
  }
  return { partial, unreferenced };
}
