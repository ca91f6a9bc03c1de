/**
 * How long a call's evidence is kept: each company's retention in days, a legal hold on a
 * profile that keeps its calls' evidence past it, and the job that deletes what is past it.
 *
 * The job claims a batch of calls in one UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED), so several
 * server processes running it at once never take the same call; the claim, the cleared keys and one audit
 * entry per call commit together; the stored files are removed after the commit (a removal that fails leaves
 * an unreferenced file, which the start-up storage sweep removes).
 */
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { EvidenceRetention, LegalHold } from '#contract/evidence';
import type { DbOrTx } from '../db/client';
import { companies, profiles, videoCallScreenshots } from '../db/schema';
import { notFound } from '../errors';
import type { Storage } from '../storage/storage';
import { recordAudit } from './audit';
import { rowsOf } from './callReport';
import { iso } from './format';
import { periodicJob } from './periodicJob';

export async function getRetention(db: DbOrTx, companyId: number): Promise<EvidenceRetention> {
  const [row] = await db
    .select({ days: companies.evidenceRetentionDays })
    .from(companies)
    .where(eq(companies.id, companyId));
  if (!row) throw notFound();
  return { evidence_retention_days: row.days };
}

/** Sets the company's retention (bounds checked by the contract), audited with before and after. */
export async function setRetention(
  db: DbOrTx,
  companyId: number,
  actorId: number,
  days: number,
): Promise<EvidenceRetention> {
  return db.transaction(async (tx) => {
    const before = await getRetention(tx, companyId);
    if (before.evidence_retention_days === days) return before;
    await tx.update(companies).set({ evidenceRetentionDays: days }).where(eq(companies.id, companyId));
    await recordAudit(tx, {
      companyId,
      actorId,
      object: 'company',
      objectId: companyId,
      action: 'evidence_retention_changed',
      before,
      after: { evidence_retention_days: days },
    });
    return { evidence_retention_days: days };
  });
}

type ProfileHold = Pick<
  typeof profiles.$inferSelect,
  'legalHold' | 'legalHoldReason' | 'legalHoldBy' | 'legalHoldAt'
>;

const toHold = (row: ProfileHold): LegalHold => ({
  hold: row.legalHold,
  reason: row.legalHoldReason,
  changed_by: row.legalHoldBy,
  changed_at: iso(row.legalHoldAt),
});

const holdColumns = {
  legalHold: profiles.legalHold,
  legalHoldReason: profiles.legalHoldReason,
  legalHoldBy: profiles.legalHoldBy,
  legalHoldAt: profiles.legalHoldAt,
};

/** The legal hold of a profile of the company, or 404. */
export async function getLegalHold(db: DbOrTx, companyId: number, profileId: number): Promise<LegalHold> {
  const [row] = await db
    .select(holdColumns)
    .from(profiles)
    .where(sql`${profiles.id} = ${profileId} and ${profiles.companyId} = ${companyId}`);
  if (!row) throw notFound();
  return toHold(row);
}

/**
 * Sets or lifts a profile's legal hold with a reason (Admins; the route checks the role). The profile row is
 * locked, so a retention job or an evidence write (`assertNoHold`, server/domain/legalHold.ts) running now either
 * sees the hold or finished before it. Audited; setting the same state again changes nothing and writes nothing.
 */
export async function setLegalHold(
  db: DbOrTx,
  companyId: number,
  profileId: number,
  actorId: number,
  body: { hold: boolean; reason: string },
): Promise<LegalHold> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select(holdColumns)
      .from(profiles)
      .where(sql`${profiles.id} = ${profileId} and ${profiles.companyId} = ${companyId}`)
      .for('update');
    if (!row) throw notFound();
    if (row.legalHold === body.hold) return toHold(row);
    const [after] = await tx
      .update(profiles)
      .set({
        legalHold: body.hold,
        legalHoldReason: body.reason,
        legalHoldBy: actorId,
        legalHoldAt: new Date(),
      })
      .where(eq(profiles.id, profileId))
      .returning(holdColumns);
    if (!after) throw notFound();
    await recordAudit(tx, {
      companyId,
      actorId,
      object: 'profile',
      objectId: profileId,
      action: body.hold ? 'legal_hold_set' : 'legal_hold_lifted',
      before: { legal_hold: row.legalHold, reason: row.legalHoldReason },
      after: { legal_hold: body.hold, reason: body.reason },
    });
    return toHold(after);
  });
}

interface ClaimedCall {
  id: number;
  company_id: number;
  profile_id: number;
  recording_key: string | null;
  recording_sha256: string | null;
  ended: string | Date;
  retention_days: number;
}

/**
 * One batch of the retention job: claims up to `batch` calls whose evidence is older than their company's
 * retention and whose profile has no legal hold (the job skips a held profile where a write would be refused by
 * `assertNoHold`: the claim is one statement over many profiles), marks them `evidence_deleted_at`, clears their recording key
 * and their screenshots' keys (the hashes stay: the call never takes another recording), audits each, commits,
 * then removes the files.
 */
async function deleteBatch(db: DbOrTx, storage: Storage, now: Date, batch: number): Promise<number> {
  const files: string[] = [];
  const claimed = await db.transaction(async (tx) => {
    const result = await tx.execute(sql`
      with due as (
        select vc.id, vc.recording_key, coalesce(vc.call_end_time, vc.created_at) as ended,
               c.evidence_retention_days as retention_days
        from video_calls vc
        join companies c on c.id = vc.company_id
        join profiles p on p.id = vc.profile_id
        where (vc.recording_key is not null or exists (
            select 1 from video_call_screenshots s where s.call_id = vc.id and s.storage_key is not null))
          and vc.evidence_deleted_at is null
          and not p.legal_hold
          and coalesce(vc.call_end_time, vc.created_at) < ${now.toISOString()}::timestamptz
            - make_interval(days => c.evidence_retention_days)
        order by vc.id
        limit ${batch}
        for update of vc skip locked
        for share of p skip locked
      )
      update video_calls set evidence_deleted_at = ${now.toISOString()}::timestamptz,
        recording_key = null, recording_size = null
      from due
      where video_calls.id = due.id
      returning video_calls.id, video_calls.company_id, video_calls.profile_id, due.recording_key,
        video_calls.recording_sha256, due.ended, due.retention_days
    `);
    const rows = rowsOf<ClaimedCall>(result);
    // The calls' screenshots go with their recordings: the keys cleared now, the files removed after commit.
    const callIds = rows.map((row) => row.id);
    const stored = and(
      inArray(videoCallScreenshots.callId, callIds),
      isNotNull(videoCallScreenshots.storageKey),
    );
    const shots =
      callIds.length === 0
        ? []
        : await tx
            .select({ callId: videoCallScreenshots.callId, key: videoCallScreenshots.storageKey })
            .from(videoCallScreenshots)
            .where(stored)
            .for('update');
    if (shots.length > 0)
      await tx.update(videoCallScreenshots).set({ storageKey: null, size: null }).where(stored);
    for (const row of rows) {
      const keys = shots.filter((shot) => shot.callId === row.id).map((shot) => shot.key as string);
      files.push(...(row.recording_key ? [row.recording_key] : []), ...keys);
      await recordAudit(tx, {
        companyId: row.company_id,
        actorId: null,
        object: 'videocall',
        objectId: row.id,
        action: 'evidence_deleted',
        before: { recording: row.recording_key, sha256: row.recording_sha256, screenshots: keys.length },
        after: {
          recording: null,
          screenshots: 0,
          reason: 'retention',
          retention_days: row.retention_days,
          call_ended: new Date(row.ended).toISOString(),
        },
      });
    }
    return rows;
  });
  for (const key of files) await storage.remove(key);
  return claimed.length;
}

/** Runs the retention job until nothing is due; answers how many calls' evidence it deleted. */
export async function runEvidenceRetention(
  db: DbOrTx,
  storage: Storage,
  now = new Date(),
  batch = 100,
): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch(db, storage, now, batch);
    total += deleted;
    if (deleted < batch) return total;
  }
}

/**
 * Runs the retention job every `everyMs` in this process (0: never), one run at a time; the first run comes
 * after one interval, so starting a server stays fast. Several processes may each run it (the claim is atomic).
 */
export function startRetentionJob(
  db: DbOrTx,
  storage: Storage,
  everyMs: number,
  onError: (error: unknown) => void,
): { stop(): Promise<void> } {
  return periodicJob(() => runEvidenceRetention(db, storage), everyMs, onError);
}
