/**
 * Erasure of a person (GDPR Art. 17) within the retention the law sets. Asked for by an Admin, it removes at once
 * what no duty keeps (contact details, notes and the reviewers' notes, activity, answers, transactions, device data)
 * and the evidence whose retention has already ended; the identification evidence of the last
 * `evidence_retention_days` (calls with their recordings, screenshots and whispers, documents with their pages) and
 * the AML screening records wait for their day, and with them the identity fields that make them evidence of
 * someone. The erasure job removes each on its day; when nothing is left, the profile becomes an anonymised stub
 * (status, dates and check results, which the statistics count) and `profile.erased` is sent. A legal hold refuses
 * the request and stops the job for that profile. Stored files are removed after the transaction commits. Why this
 * split: docs/decisions/0220-erasure-within-retention.md (staff text: 0225-staff-text-and-data-access-view.md).
 */
import { and, eq, inArray, isNotNull, notInArray, type SQLWrapper, sql } from 'drizzle-orm';
import { type Erasure, erasureRefused } from '#contract/privacy';
import { DAY_MS } from '#contract/time';
import type { DbOrTx, Tx } from '../db/client';
import {
  amlHistory,
  amlResults,
  auditLog,
  checklistAnswers,
  companies,
  deviceData,
  documentAlerts,
  documentPages,
  documents,
  notes,
  notifications,
  type PendingErasure,
  profileErasures,
  profileLogs,
  profiles,
  questionnaireAnswers,
  reviewCaseEvents,
  reviewCases,
  reviewPendingDecisions,
  transactions,
  videoCallAnswers,
  videoCallScreenshots,
  videoCallSteps,
  videoCalls,
  videoCallWhispers,
} from '../db/schema';
import { conflict, notFound } from '../errors';
import type { Storage } from '../storage/storage';
import { recordAudit } from './audit';
import { rowsOf } from './callReport';
import { iso } from './format';
import { LegalHoldError } from './legalHold';
import { periodicJob } from './periodicJob';
import { enqueueWebhookEvent } from './webhooks';

/** The audit actions about the erasure itself, which name no one and so are kept as written. */
const ERASURE_ACTIONS = [
  'profile_erasure_requested',
  'profile_erasure_continued',
  'profile_erased',
  'legal_hold_set',
  'legal_hold_lifted',
  'legal_hold_refused',
  'profile_exported',
];

/**
 * What stands in place of free text staff wrote about the person (a reviewer's note, a supervisor's whisper): that
 * there was one, and who wrote it when, stays for the desk's figures and the supervision record; what it said goes.
 */
const ERASED_TEXT = '[erased]';

/** A JSON column with its `key` replaced by ERASED_TEXT where it holds a value. */
const withErasedKey = (column: SQLWrapper, key: string) =>
  sql`case when ${column} ->> ${key} is not null
      then jsonb_set(${column}, array[${key}]::text[], to_jsonb(${ERASED_TEXT}::text)) else ${column} end`;

/** The free text `key` erased in the audit entries of these objects (the entries themselves stay). */
async function eraseAuditTexts(tx: Tx, objectType: string, objectIds: number[], key: string): Promise<void> {
  if (objectIds.length === 0) return;
  await tx
    .update(auditLog)
    .set({ before: withErasedKey(auditLog.before, key), after: withErasedKey(auditLog.after, key) })
    .where(
      and(
        eq(auditLog.objectType, objectType),
        inArray(auditLog.objectId, objectIds.map(String)),
        sql`(${auditLog.before} ->> ${key} is not null or ${auditLog.after} ->> ${key} is not null)`,
      ),
    );
}

/**
 * The notes reviewers wrote on the profile's cases (timeline steps, decisions waiting for a second reviewer, their
 * audit entries): erased at once like the profile's own notes. The cases keep their decisions and reason codes,
 * which the review desk's figures count.
 */
async function eraseReviewNotes(tx: Tx, profileId: number): Promise<void> {
  const caseIds = (
    await tx.select({ id: reviewCases.id }).from(reviewCases).where(eq(reviewCases.profileId, profileId))
  ).map((row) => row.id);
  if (caseIds.length === 0) return;
  await tx
    .update(reviewCaseEvents)
    .set({ data: withErasedKey(reviewCaseEvents.data, 'note') })
    .where(
      and(inArray(reviewCaseEvents.caseId, caseIds), sql`${reviewCaseEvents.data} ->> 'note' is not null`),
    );
  await tx
    .update(reviewPendingDecisions)
    .set({
      note: sql`case when ${reviewPendingDecisions.note} is null then null else ${ERASED_TEXT} end`,
      resolveNote: sql`case when ${reviewPendingDecisions.resolveNote} is null then null else ${ERASED_TEXT} end`,
    })
    .where(inArray(reviewPendingDecisions.caseId, caseIds));
  await eraseAuditTexts(tx, 'review_case', caseIds, 'note');
}

const untilOf = (item: PendingErasure, days: number) => new Date(Date.parse(item.since) + days * DAY_MS);
const reasonOf = (item: PendingErasure) =>
  item.object === 'aml' ? 'aml_records' : 'identification_evidence';

/** The profile's evidence and screening records, each with the time its retention counts from. */
async function retainable(tx: Tx, profileId: number): Promise<PendingErasure[]> {
  const calls = await tx
    .select({
      id: videoCalls.id,
      since: sql<string>`coalesce(${videoCalls.callEndTime}, ${videoCalls.createdAt})`,
    })
    .from(videoCalls)
    .where(eq(videoCalls.profileId, profileId));
  const docs = await tx
    .select({ id: documents.id, since: documents.createdAt })
    .from(documents)
    .where(eq(documents.profileId, profileId));
  const [screened] = await tx
    .select({ since: sql<string | null>`max(${amlHistory.createdAt})` })
    .from(amlHistory)
    .where(eq(amlHistory.profileId, profileId));
  const [result] = await tx
    .select({ at: amlResults.updatedAt })
    .from(amlResults)
    .where(eq(amlResults.profileId, profileId));
  const amlSince = screened?.since ?? result?.at ?? null;
  return [
    ...calls.map((call) => ({
      object: 'videocall' as const,
      id: call.id,
      since: new Date(call.since).toISOString(),
    })),
    ...docs.map((doc) => ({ object: 'document' as const, id: doc.id, since: doc.since.toISOString() })),
    ...(amlSince ? [{ object: 'aml' as const, id: profileId, since: new Date(amlSince).toISOString() }] : []),
  ];
}

/** Empties calls down to what the call statistics count (status, agent, times); answers their stored files. */
async function eraseCalls(tx: Tx, callIds: number[], now: Date): Promise<string[]> {
  if (callIds.length === 0) return [];
  const recordings = await tx
    .select({ key: videoCalls.recordingKey })
    .from(videoCalls)
    .where(and(inArray(videoCalls.id, callIds), isNotNull(videoCalls.recordingKey)));
  const shots = await tx
    .delete(videoCallScreenshots)
    .where(inArray(videoCallScreenshots.callId, callIds))
    .returning({ key: videoCallScreenshots.storageKey });
  await tx.delete(videoCallSteps).where(inArray(videoCallSteps.callId, callIds));
  await tx.delete(videoCallAnswers).where(inArray(videoCallAnswers.callId, callIds));
  // Whispers are kept with the call as evidence of its supervision; their text goes with the call.
  await tx
    .update(videoCallWhispers)
    .set({ text: ERASED_TEXT })
    .where(inArray(videoCallWhispers.callId, callIds));
  await eraseAuditTexts(tx, 'videocall', callIds, 'text');
  await tx
    .update(videoCalls)
    .set({
      recordingKey: null,
      recordingSize: null,
      recordingSha256: null,
      joinLink: null,
      consentIp: null,
      consentText: null,
      evidenceDeletedAt: sql`coalesce(${videoCalls.evidenceDeletedAt}, ${now.toISOString()}::timestamptz)`,
    })
    .where(inArray(videoCalls.id, callIds));
  return [...recordings, ...shots].flatMap((row) => (row.key ? [row.key] : []));
}

/**
 * Empties documents down to what the dashboard counts (class, status, the check results, dates): pages, read
 * fields, overrides, alerts and device data go. Answers the pages' stored files.
 */
async function eraseDocuments(tx: Tx, documentIds: number[]): Promise<string[]> {
  if (documentIds.length === 0) return [];
  const pages = await tx
    .delete(documentPages)
    .where(inArray(documentPages.documentId, documentIds))
    .returning({ key: documentPages.storageKey });
  await tx.delete(documentAlerts).where(inArray(documentAlerts.documentId, documentIds));
  await tx.delete(deviceData).where(inArray(deviceData.documentId, documentIds));
  await tx
    .update(documents)
    .set({
      content: {},
      contentOverrides: {},
      expiryDate: null,
      reviewReason: null,
      // Only the four results the check statistics read (the generated check_results stays as it was).
      checks: sql`jsonb_strip_nulls(jsonb_build_object(
        'document', jsonb_build_object('result', ${documents.checks} #>> '{document,result}'),
        'fraud', jsonb_build_object('result', ${documents.checks} #>> '{fraud,result}'),
        'biometric', jsonb_build_object('result', ${documents.checks} #>> '{biometric,result}'),
        'cross', jsonb_build_object('result', ${documents.checks} #>> '{cross,result}')))`,
      version: sql`${documents.version} + 1`,
    })
    .where(inArray(documents.id, documentIds));
  return pages.map((page) => page.key);
}

/** The screening records: the result goes, each screening keeps its status, date and count of matches. */
async function eraseAml(tx: Tx, profileId: number): Promise<void> {
  await tx.delete(amlResults).where(eq(amlResults.profileId, profileId));
  await tx.update(amlHistory).set({ records: [] }).where(eq(amlHistory.profileId, profileId));
}

/** What no retention duty keeps: erased at once. */
async function eraseUnretained(tx: Tx, profileId: number): Promise<void> {
  await tx
    .update(profiles)
    .set({
      email: null,
      phone: null,
      addressProvince: null,
      addressCity: null,
      addressStreet: null,
      extraData: {},
      qualityCheck: null,
      aliases: [],
      riskScores: null,
      summary: null,
      rejectReason: null,
      version: sql`${profiles.version} + 1`,
      updatedAt: new Date(),
    })
    .where(eq(profiles.id, profileId));
  await tx.delete(deviceData).where(eq(deviceData.profileId, profileId));
  await tx.delete(notes).where(eq(notes.profileId, profileId));
  await eraseReviewNotes(tx, profileId);
  await tx.delete(profileLogs).where(eq(profileLogs.profileId, profileId));
  await tx.delete(questionnaireAnswers).where(eq(questionnaireAnswers.profileId, profileId));
  await tx.delete(checklistAnswers).where(eq(checklistAnswers.profileId, profileId));
  await tx.delete(transactions).where(eq(transactions.profileId, profileId));
  await tx.delete(notifications).where(eq(notifications.profileId, profileId));
}

/** Erases the due items; answers the stored files to remove after commit. */
async function eraseItems(tx: Tx, profileId: number, items: PendingErasure[], now: Date): Promise<string[]> {
  const ids = (object: PendingErasure['object']) => items.filter((i) => i.object === object).map((i) => i.id);
  const files = [
    ...(await eraseCalls(tx, ids('videocall'), now)),
    ...(await eraseDocuments(tx, ids('document'))),
  ];
  if (ids('aml').length > 0) await eraseAml(tx, profileId);
  return files;
}

/**
 * The last step: the identity fields go (the stub keeps its id, status, risk level, source and dates), the audit
 * entries about the profile, its documents and its calls keep which fields changed but not their values, and
 * `profile.erased` is sent, all in the caller's transaction.
 */
async function complete(
  tx: Tx,
  erasure: { companyId: number; profileId: number; requestedAt: Date },
  now: Date,
): Promise<void> {
  const { companyId, profileId } = erasure;
  await tx
    .update(profiles)
    .set({
      name: null,
      idCardNumber: '',
      gender: null,
      nationality: null,
      dateOfBirth: null,
      version: sql`${profiles.version} + 1`,
      updatedAt: now,
    })
    .where(eq(profiles.id, profileId));
  const docIds = (
    await tx.select({ id: documents.id }).from(documents).where(eq(documents.profileId, profileId))
  ).map((row) => String(row.id));
  const callIds = (
    await tx.select({ id: videoCalls.id }).from(videoCalls).where(eq(videoCalls.profileId, profileId))
  ).map((row) => String(row.id));
  const erasedValues = (column: typeof auditLog.before | typeof auditLog.after) =>
    sql`(select coalesce(jsonb_object_agg(key, to_jsonb(${ERASED_TEXT}::text)), '{}'::jsonb) from jsonb_each(${column}))`;
  await tx
    .update(auditLog)
    .set({ before: erasedValues(auditLog.before), after: erasedValues(auditLog.after) })
    .where(
      and(
        eq(auditLog.companyId, companyId),
        notInArray(auditLog.action, ERASURE_ACTIONS),
        sql`(${auditLog.objectType} = 'profile' and ${auditLog.objectId} = ${String(profileId)})
          or (${auditLog.objectType} = 'document' and ${auditLog.objectId} in ${docIds.length ? docIds : ['']})
          or (${auditLog.objectType} = 'videocall' and ${auditLog.objectId} in ${callIds.length ? callIds : ['']})`,
      ),
    );
  await tx
    .update(profileErasures)
    .set({ pending: [], completedAt: now })
    .where(eq(profileErasures.profileId, profileId));
  await recordAudit(tx, {
    companyId,
    actorId: null,
    object: 'profile',
    objectId: profileId,
    action: 'profile_erased',
    after: { requested_at: erasure.requestedAt.toISOString(), erased_at: now.toISOString() },
  });
  await enqueueWebhookEvent(tx, companyId, 'profile.erased', {
    profile_id: profileId,
    requested_at: erasure.requestedAt.toISOString(),
    erased_at: now.toISOString(),
  });
}

const retentionDays = async (tx: DbOrTx, companyId: number) => {
  const [row] = await tx
    .select({ days: companies.evidenceRetentionDays })
    .from(companies)
    .where(eq(companies.id, companyId));
  if (!row) throw notFound();
  return row.days;
};

/** The profile's erasure as the profile shows it: what is kept, why and until when. */
export async function getErasure(db: DbOrTx, companyId: number, profileId: number): Promise<Erasure> {
  const [profile] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.id, profileId), eq(profiles.companyId, companyId)));
  if (!profile) throw notFound();
  const [row] = await db.select().from(profileErasures).where(eq(profileErasures.profileId, profileId));
  if (!row)
    return {
      status: 'none',
      requested_at: null,
      requested_by: null,
      reason: null,
      completed_at: null,
      retained: [],
    };
  const days = await retentionDays(db, companyId);
  return {
    status: row.completedAt ? 'erased' : 'scheduled',
    requested_at: iso(row.requestedAt),
    requested_by: row.requestedBy,
    reason: row.reason,
    completed_at: iso(row.completedAt),
    retained: row.pending.map((item) => ({
      object: item.object,
      id: item.id,
      reason: reasonOf(item),
      until: untilOf(item, days).toISOString(),
    })),
  };
}

/**
 * Erases the person as far as the law allows now and schedules the rest (Admins; the route checks the role).
 * 409 under a legal hold (naming it; the refusal is audited by the error handler) or when an erasure was already
 * asked for; 404 for a profile not of the company.
 */
export async function requestErasure(
  deps: { db: DbOrTx; storage: Storage },
  companyId: number,
  profileId: number,
  actorId: number,
  reason: string,
  now = new Date(),
): Promise<Erasure> {
  const files = await deps.db.transaction(async (tx) => {
    // Locked as setLegalHold locks it: a hold set at the same moment either waits for this or is seen by it.
    const [profile] = await tx
      .select({ hold: profiles.legalHold, holdReason: profiles.legalHoldReason })
      .from(profiles)
      .where(and(eq(profiles.id, profileId), eq(profiles.companyId, companyId)))
      .for('update');
    if (!profile) throw notFound();
    if (profile.hold) {
      const holdReason = profile.holdReason ?? '';
      throw new LegalHoldError(holdReason, {
        companyId,
        actorId,
        object: 'profile',
        objectId: profileId,
        action: 'legal_hold_refused',
        before: { legal_hold: true, reason: holdReason },
        after: { refused: 'profile_erasure_requested', object: 'profile', object_id: profileId },
      });
    }
    const [existing] = await tx
      .select({ at: profileErasures.requestedAt })
      .from(profileErasures)
      .where(eq(profileErasures.profileId, profileId));
    if (existing) throw conflict(`${erasureRefused.already} on ${existing.at.toISOString().slice(0, 10)}`);
    const days = await retentionDays(tx, companyId);
    const items = await retainable(tx, profileId);
    const due = items.filter((item) => untilOf(item, days) <= now);
    const kept = items.filter((item) => untilOf(item, days) > now);
    await eraseUnretained(tx, profileId);
    const removed = await eraseItems(tx, profileId, due, now);
    await tx.insert(profileErasures).values({
      profileId,
      companyId,
      requestedBy: actorId,
      requestedAt: now,
      reason,
      pending: kept,
    });
    await recordAudit(tx, {
      companyId,
      actorId,
      object: 'profile',
      objectId: profileId,
      action: 'profile_erasure_requested',
      after: {
        reason,
        erased: due.map((item) => `${item.object}:${item.id}`),
        retained: kept.map((item) => ({
          object: item.object,
          id: item.id,
          reason: reasonOf(item),
          until: untilOf(item, days).toISOString(),
        })),
      },
    });
    if (kept.length === 0) await complete(tx, { companyId, profileId, requestedAt: now }, now);
    return removed;
  });
  for (const key of files) await deps.storage.remove(key);
  return getErasure(deps.db, companyId, profileId);
}

interface OpenErasure {
  profile_id: number;
  company_id: number;
  pending: PendingErasure[] | string;
  requested_at: string | Date;
  days: number;
}

/**
 * One batch of the erasure job: the open erasures after `after` (by profile id), of profiles not on hold, locked
 * `FOR UPDATE SKIP LOCKED` so another process running the job at the same time takes others; each has its due
 * items erased, and is completed when nothing is left. Answers the last profile id seen (null: no more) and how
 * many items were erased; the files go after the commit.
 */
async function erasureBatch(
  db: DbOrTx,
  storage: Storage,
  now: Date,
  after: number,
  batch: number,
): Promise<{ last: number | null; erased: number }> {
  const files: string[] = [];
  const result = await db.transaction(async (tx) => {
    const claimed = rowsOf<OpenErasure>(
      await tx.execute(sql`
        select e.profile_id, e.company_id, e.pending, e.requested_at, c.evidence_retention_days as days
          from profile_erasures e
          join companies c on c.id = e.company_id
          join profiles p on p.id = e.profile_id
         where e.completed_at is null and not p.legal_hold and e.profile_id > ${after}
         order by e.profile_id
         limit ${batch}
           for update of e skip locked
           for share of p skip locked`),
    );
    let erased = 0;
    for (const row of claimed) {
      const pending: PendingErasure[] =
        typeof row.pending === 'string' ? JSON.parse(row.pending) : row.pending;
      const due = pending.filter((item) => untilOf(item, row.days) <= now);
      if (due.length === 0) continue;
      const left = pending.filter((item) => untilOf(item, row.days) > now);
      files.push(...(await eraseItems(tx, row.profile_id, due, now)));
      erased += due.length;
      await tx
        .update(profileErasures)
        .set({ pending: left })
        .where(eq(profileErasures.profileId, row.profile_id));
      await recordAudit(tx, {
        companyId: row.company_id,
        actorId: null,
        object: 'profile',
        objectId: row.profile_id,
        action: 'profile_erasure_continued',
        after: {
          erased: due.map((item) => `${item.object}:${item.id}`),
          reason: 'retention_ended',
          retention_days: row.days,
        },
      });
      if (left.length === 0)
        await complete(
          tx,
          { companyId: row.company_id, profileId: row.profile_id, requestedAt: new Date(row.requested_at) },
          now,
        );
    }
    return { last: claimed.length < batch ? null : (claimed.at(-1)?.profile_id ?? null), erased };
  });
  for (const key of files) await storage.remove(key);
  return result;
}

/** Runs the erasure job over every open erasure; answers how many retained items it erased. */
export async function runDueErasures(
  db: DbOrTx,
  storage: Storage,
  now = new Date(),
  batch = 50,
): Promise<number> {
  let total = 0;
  let after = 0;
  for (;;) {
    const { last, erased } = await erasureBatch(db, storage, now, after, batch);
    total += erased;
    if (last === null) return total;
    after = last;
  }
}

/** Runs the erasure job every `everyMs` in this process (0: never), one run at a time. */
export function startErasureJob(
  db: DbOrTx,
  storage: Storage,
  everyMs: number,
  onError: (error: unknown) => void,
): { stop(): Promise<void> } {
  return periodicJob(() => runDueErasures(db, storage), everyMs, onError);
}
