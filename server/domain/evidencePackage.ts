/**
 * The evidence package of a video call: a ZIP streamed to the caller with the recording,
 * the images taken during the call (document pages, step screenshots), `call.json`, `steps.json`, a PDF
 * report, `manifest.sha256` (the SHA-256 of every file, in `sha256sum` format), `manifest.sha256.sig` (the
 * server's Ed25519 signature of the manifest's exact bytes, base64) and `public_key.pem`. Files are hashed
 * while they stream: the recording is never held in memory. The format is described in docs/evidence.md.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, asc, eq, gte, inArray, lte, or } from 'drizzle-orm';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { type CallQuality, callIssues, QUALITY_THRESHOLDS, type QualitySummary } from '#contract/callQuality';
import type { CallWatcher, Whisper } from '#contract/callWatch';
import { CALL_STATUSES } from '#contract/common';
import type { MachineCheck } from '#contract/machineChecks';
import type { DbOrTx } from '../db/client';
import {
  auditLog,
  companies,
  documentPages,
  documents,
  profiles,
  users,
  videoCallSteps,
  type videoCalls,
} from '../db/schema';
import type { Storage } from '../storage/storage';
import { callAnswerRows } from './callEntries';
import { callQualityOf } from './callQuality';
import { screenshotRows } from './callScreenshots';
import { callWatchers, callWhispers } from './callWatch';
import { type EvidenceFile, recordHashMismatch } from './evidence';
import type { EvidenceSigner } from './evidenceKey';
import { renderReport } from './evidenceReport';
import { fullName, iso } from './format';
import { checksOf } from './machineChecks/checks';
import { machineCheckLines } from './machineChecks/report';
import { requireCall } from './videocalls/calls';

/** One file of the package. */
export interface PackageFile {
  /** Where it lies in the ZIP: relative, forward slashes, no `..` (checked by safePath). */
  path: string;
  /** The bytes, or a stream opened when the file's turn comes. */
  body: Uint8Array | (() => Readable);
  /** Deflate it (text); media is stored as it is. */
  compress: boolean;
  /** A stored file checked against the hash it was stored with (a mismatch is audited, as /storage does). */
  stored?: { key: string; evidence: EvidenceFile };
}

/** Everything the package says about the call, read once before anything is sent. */
export interface CallFacts {
  call: typeof videoCalls.$inferSelect;
  company: { id: number; name: string };
  agent: { id: number; name: string; email: string } | null;
  profile: { id: number; legalHold: boolean };
  /** What each side received. */
  quality: CallQuality;
  entries: {
    id: number;
    question_id: number | null;
    question: { 'en-US': string; tr: string } | null;
    value: string | null;
    note: string | null;
    author_id: number | null;
    created_at: string;
  }[];
  /** The step results recorded in the call, in the order of the recording, with who recorded them. */
  steps: {
    id: number;
    kind: string;
    result: string;
    details: Record<string, unknown>;
    offset_ms: number;
    time: string | null;
    agent: { id: number; name: string; email: string } | null;
  }[];
  /** The screenshots taken for the steps, in the order they were taken, with their place in the package. */
  screenshots: {
    id: number;
    kind: string;
    path: string;
    key: string | null;
    content_type: string;
    sha256: string;
    taken_at: string | null;
    /** The user who took it (the call's agent: only they may). */
    created_by: number | null;
  }[];
  /** The machine checks of the screenshots (face match, MRZ), with their engines: hints beside the agent. */
  checks: MachineCheck[];
  /** Who watched the call live, from when to when (docs/decisions/0208-supervisors-watch-calls.md). */
  watchers: CallWatcher[];
  /** What the watchers whispered to the agent. */
  whispers: Whisper[];
}

/** A user named in the package. */
export interface NamedUser {
  id: number;
  name: string;
  email: string;
}

/**
 * Who put a file into the call's evidence: the call's agent, another user (an API user for an upload through the
 * company's integration), the customer (a write with no staff user), or unknown (no record says).
 */
export type Uploader =
  | { kind: 'call_agent' | 'user'; user: NamedUser }
  | { kind: 'customer' | 'unknown'; user: null };

/**
 * One file the call's records say its evidence holds or held (the recording, a document page, a step screenshot),
 * whether or not it is in this package: who uploaded it and when, and, when it is not in the package, why.
 */
export interface EvidenceEntry {
  path: string;
  kind: 'recording' | 'document_page' | 'screenshot';
  /** The document or screenshot row it comes from (null for the recording: the call). */
  source_id: number | null;
  page: number | null;
  upload_source: string | null;
  sha256_at_upload: string | null;
  uploaded_at: string | null;
  uploaded_by: Uploader;
  /** False for a file the call's agent did not take (a document uploaded by someone else during the call). */
  taken_by_call_agent: boolean;
  /** Null: the file is in the package. */
  missing: {
    /** deleted by a user, deleted by the retention job, or absent from storage though its row holds it. */
    reason: 'deleted' | 'retention' | 'not_in_storage';
    at: string | null;
    by: NamedUser | null;
  } | null;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
};

const SAFE_PATH = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** A ZIP path that cannot leave the folder it is unpacked in: relative, no `..`, no backslash, no drive. */
export function safePath(path: string): string {
  if (!SAFE_PATH.test(path) || path.split('/').includes('..'))
    throw new Error(`unsafe path in package: ${path}`);
  return path;
}

/** The call of the company with what the package states about it, or 404. */
export async function callFacts(db: DbOrTx, companyId: number, callId: number): Promise<CallFacts> {
  const call = await requireCall(db, companyId, callId);
  const [company] = await db
    .select({ id: companies.id, name: companies.name })
    .from(companies)
    .where(eq(companies.id, companyId));
  const [agent] = call.agentId
    ? await db
        .select({ id: users.id, first: users.firstName, last: users.lastName, email: users.email })
        .from(users)
        .where(eq(users.id, call.agentId))
    : [];
  const [profile] = await db
    .select({ id: profiles.id, legalHold: profiles.legalHold })
    .from(profiles)
    .where(eq(profiles.id, call.profileId));
  const rows = await callAnswerRows(db, callId);
  const stepRows = await db
    .select({ step: videoCallSteps, first: users.firstName, last: users.lastName, email: users.email })
    .from(videoCallSteps)
    .leftJoin(users, eq(users.id, videoCallSteps.createdBy))
    .where(eq(videoCallSteps.callId, callId))
    .orderBy(asc(videoCallSteps.offsetMs), asc(videoCallSteps.id));
  const taken: Record<string, number> = {};
  const screenshots = (await screenshotRows(db, callId)).map((shot) => {
    taken[shot.kind] = (taken[shot.kind] ?? 0) + 1;
    const ext = EXTENSIONS[shot.contentType] ?? 'bin';
    return {
      id: shot.id,
      kind: shot.kind,
      path: `images/step-${shot.kind}-${taken[shot.kind]}.${ext}`,
      key: shot.storageKey,
      content_type: shot.contentType,
      sha256: shot.sha256,
      taken_at: iso(shot.createdAt),
      created_by: shot.createdBy,
    };
  });
  return {
    call,
    company: company ?? { id: companyId, name: '' },
    agent: agent ? { id: agent.id, name: fullName(agent.first, agent.last), email: agent.email } : null,
    profile: profile ?? { id: call.profileId, legalHold: false },
    quality: await callQualityOf(db, callId),
    entries: rows.map(({ entry, en, tr }) => ({
      id: entry.id,
      question_id: entry.questionId,
      question: en !== null && tr !== null ? { 'en-US': en, tr } : null,
      value: entry.value,
      note: entry.note,
      author_id: entry.authorId,
      created_at: iso(entry.createdAt),
    })),
    steps: stepRows.map(({ step, first, last, email }) => ({
      id: step.id,
      kind: step.kind,
      result: step.result,
      details: step.details,
      offset_ms: step.offsetMs,
      time: iso(step.createdAt),
      agent:
        step.createdBy !== null && email !== null
          ? { id: step.createdBy, name: fullName(first ?? '', last ?? ''), email }
          : null,
    })),
    screenshots,
    checks: await checksOf(db, callId),
    watchers: await callWatchers(db, callId),
    whispers: await callWhispers(db, companyId, callId),
  };
}

/** A write on the call or its documents that the audit log holds, with its author. */
interface AuditFact {
  objectType: string;
  objectId: string;
  action: string;
  actorId: number | null;
  at: string | null;
}

/**
 * The audit entries that say who stored and who deleted the call's recording and its documents: the audit log is
 * where every staff write is recorded with its author, in the write's own transaction.
 */
async function auditFacts(
  db: DbOrTx,
  companyId: number,
  callId: number,
  documentIds: number[],
): Promise<AuditFact[]> {
  const ofCall = and(
    eq(auditLog.objectType, 'videocall'),
    eq(auditLog.objectId, String(callId)),
    inArray(auditLog.action, ['recording_stored', 'video_deleted']),
  );
  const ofDocuments =
    documentIds.length === 0
      ? undefined
      : and(
          eq(auditLog.objectType, 'document'),
          inArray(auditLog.objectId, documentIds.map(String)),
          inArray(auditLog.action, ['document_uploaded', 'document_deleted']),
        );
  const rows = await db
    .select({
      objectType: auditLog.objectType,
      objectId: auditLog.objectId,
      action: auditLog.action,
      actorId: auditLog.actorId,
      createdAt: auditLog.createdAt,
    })
    .from(auditLog)
    .where(and(eq(auditLog.companyId, companyId), ofDocuments ? or(ofCall, ofDocuments) : ofCall))
    .orderBy(asc(auditLog.id));
  return rows.map((row) => ({ ...row, at: iso(row.createdAt) }));
}

/** The named users among `ids`, by id. */
async function namedUsers(db: DbOrTx, ids: (number | null)[]): Promise<Map<number, NamedUser>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, first: users.firstName, last: users.lastName, email: users.email })
    .from(users)
    .where(inArray(users.id, wanted));
  return new Map(
    rows.map((row) => [row.id, { id: row.id, name: fullName(row.first, row.last), email: row.email }]),
  );
}

/**
 * The stored files of a call, as package files, and every file its records say it should hold: its recording
 * (stored once: a SHA-256 on the call), the pages of the profile's documents uploaded while the call was running
 * (deleted documents too: ID snapshots and face photos taken in the call), and the screenshots taken for the
 * guided procedure's steps (`images/step-<kind>-<n>.<ext>`, n counting per kind from 1). A file the records name
 * that is not in the package (deleted, removed by retention, gone from storage) is named in `missing`, and its
 * entry in `evidence` says why, when and by whom: a gap never passes as a complete package.
 */
export async function callFiles(
  db: DbOrTx,
  storage: Storage,
  facts: CallFacts,
): Promise<{ files: PackageFile[]; missing: string[]; evidence: EvidenceEntry[] }> {
  const { call } = facts;
  const pages =
    call.callStartTime && call.callEndTime
      ? await db
          .select({
            page: documentPages,
            documentClass: documents.documentClass,
            uploadSource: documents.uploadSource,
            createdAt: documents.createdAt,
            deletedAt: documents.deletedAt,
          })
          .from(documentPages)
          .innerJoin(documents, eq(documents.id, documentPages.documentId))
          .where(
            and(
              eq(documents.profileId, call.profileId),
              eq(documents.companyId, call.companyId),
              gte(documents.createdAt, call.callStartTime),
              lte(documents.createdAt, call.callEndTime),
            ),
          )
          .orderBy(asc(documents.id), asc(documentPages.pageNumber))
      : [];
  const audits = await auditFacts(db, call.companyId, call.id, [
    ...new Set(pages.map(({ page }) => page.documentId)),
  ]);
  const auditOf = (objectType: string, objectId: number, action: string) =>
    audits.findLast(
      (a) => a.objectType === objectType && a.objectId === String(objectId) && a.action === action,
    );
  const named = await namedUsers(db, [
    call.agentId,
    ...audits.map((a) => a.actorId),
    ...facts.screenshots.map((shot) => shot.created_by),
  ]);
  const userOf = (id: number | null) => (id === null ? null : (named.get(id) ?? null));
  const uploader = (recorded: boolean, actorId: number | null): Uploader => {
    const user = userOf(actorId);
    if (user) return { kind: actorId === call.agentId ? 'call_agent' : 'user', user };
    return { kind: recorded && actorId === null ? 'customer' : 'unknown', user: null };
  };
  const entries: { entry: EvidenceEntry; file: PackageFile | null }[] = [];
  /** An entry, and the stored file it is in the package as (null: it is not, and `missing` says why). */
  const add = (
    entry: Omit<EvidenceEntry, 'taken_by_call_agent'>,
    stored: { key: string; object: EvidenceFile['object']; objectId: number } | null,
  ) =>
    entries.push({
      entry: { ...entry, taken_by_call_agent: entry.uploaded_by.kind === 'call_agent' },
      file: stored && {
        path: entry.path,
        body: () => storage.open(stored.key),
        compress: false,
        stored: {
          key: stored.key,
          evidence: {
            companyId: call.companyId,
            object: stored.object,
            objectId: stored.objectId,
            sha256: entry.sha256_at_upload ?? '',
          },
        },
      },
    });
  const deletion = (audit: AuditFact | undefined, fallbackAt: Date | null) => ({
    reason: 'deleted' as const,
    at: audit?.at ?? iso(fallbackAt),
    by: userOf(audit?.actorId ?? null),
  });

  if (call.recordingKey || call.recordingSha256) {
    const stored = auditOf('videocall', call.id, 'recording_stored');
    const deleted = auditOf('videocall', call.id, 'video_deleted');
    const key = call.recordingKey;
    add(
      {
        path: 'recording.webm',
        kind: 'recording',
        source_id: null,
        page: null,
        upload_source: null,
        sha256_at_upload: call.recordingSha256,
        uploaded_at: stored?.at ?? null,
        // Only the call's agent may upload its recording (storeRecording).
        uploaded_by: uploader(stored !== undefined, stored ? stored.actorId : call.agentId),
        missing: key
          ? null
          : deleted || !call.evidenceDeletedAt
            ? deletion(deleted, null)
            : { reason: 'retention', at: iso(call.evidenceDeletedAt), by: null },
      },
      key ? { key, object: 'videocall', objectId: call.id } : null,
    );
  }
  for (const { page, documentClass, uploadSource, createdAt, deletedAt } of pages) {
    const ext = EXTENSIONS[page.contentType] ?? 'bin';
    const cls = documentClass.replace(/[^A-Za-z0-9]/g, '') || 'XX';
    const path = `images/document-${page.documentId}-${cls}-page-${page.pageNumber}.${ext}`;
    const uploaded = auditOf('document', page.documentId, 'document_uploaded');
    add(
      {
        path,
        kind: 'document_page',
        source_id: page.documentId,
        page: page.pageNumber,
        upload_source: uploadSource,
        sha256_at_upload: page.sha256,
        uploaded_at: iso(createdAt),
        uploaded_by: uploader(uploaded !== undefined, uploaded?.actorId ?? null),
        missing: deletedAt
          ? deletion(auditOf('document', page.documentId, 'document_deleted'), deletedAt)
          : null,
      },
      deletedAt ? null : { key: page.storageKey, object: 'document', objectId: page.documentId },
    );
  }
  for (const shot of facts.screenshots) {
    const key = shot.key;
    add(
      {
        path: shot.path,
        kind: 'screenshot',
        source_id: shot.id,
        page: null,
        upload_source: null,
        sha256_at_upload: shot.sha256,
        uploaded_at: shot.taken_at,
        uploaded_by: uploader(true, shot.created_by),
        // Only the retention job clears a screenshot's key.
        missing: key ? null : { reason: 'retention', at: iso(call.evidenceDeletedAt), by: null },
      },
      key ? { key, object: 'videocall', objectId: call.id } : null,
    );
  }
  const files: PackageFile[] = [];
  for (const { entry, file } of entries) {
    if (!file?.stored) continue;
    if ((await storage.size(file.stored.key)) === null)
      entry.missing = { reason: 'not_in_storage', at: null, by: null };
    else files.push(file);
  }
  const evidence = entries.map(({ entry }) => entry);
  return { files, missing: evidence.filter((e) => e.missing).map((e) => e.path), evidence };
}

/** call.json: the call, its agent, its customer's profile, its questions and answers, its consent. */
export function callJson(
  facts: CallFacts,
  meta: {
    packageId: string;
    generatedAt: Date;
    by: { id: number; email: string };
    files: string[];
    missing: string[];
    evidence: EvidenceEntry[];
  },
) {
  const { call } = facts;
  const start = call.callStartTime?.getTime();
  const end = call.callEndTime?.getTime();
  return {
    format: 'idv-studio-evidence/1',
    package_id: meta.packageId,
    generated_at: meta.generatedAt.toISOString(),
    generated_by: meta.by,
    company: facts.company,
    call: {
      id: call.id,
      room_id: call.roomId,
      status: call.status,
      status_name: CALL_STATUSES[call.status] ?? null,
      end_reason: call.endReason,
      status_set_by: call.statusSetBy,
      created_at: iso(call.createdAt),
      call_start_time: iso(call.callStartTime),
      call_end_time: iso(call.callEndTime),
      duration_seconds: start !== undefined && end !== undefined ? Math.round((end - start) / 1000) : null,
      evidence_deleted_at: iso(call.evidenceDeletedAt),
    },
    agent: facts.agent,
    customer: { profile_id: facts.profile.id, legal_hold: facts.profile.legalHold },
    // What the customer agreed to on the join page, as it read then (null: no consent was given).
    consent: call.consentAt
      ? {
          given_at: iso(call.consentAt),
          address: call.consentIp,
          language: call.consentLanguage,
          text: call.consentText,
        }
      : null,
    // Each side's summary (null: no sample), the issues of either side, and the thresholds they were judged by.
    quality: {
      agent: facts.quality.agent,
      customer: facts.quality.customer,
      issues: callIssues(facts.quality.agent, facts.quality.customer),
      thresholds: QUALITY_THRESHOLDS,
    },
    recording: call.recordingKey
      ? { path: 'recording.webm', size: call.recordingSize, sha256_at_upload: call.recordingSha256 }
      : call.recordingSha256
        ? { path: null, size: null, sha256_at_upload: call.recordingSha256, deleted: true }
        : null,
    questions: facts.entries,
    // Who watched the call live and what they whispered to the agent (the customer saw neither).
    watchers: facts.watchers,
    whispers: facts.whispers,
    files: meta.files,
    // Every file the call's records name, in the package or not, with who uploaded it, when, and any gap.
    evidence_files: meta.evidence,
    missing_files: meta.missing,
  };
}

/** steps.json: every step result of the call and every screenshot taken for them (with its path in the ZIP). */
export function stepsJson(facts: CallFacts) {
  return {
    format: 'idv-studio-steps/1',
    call: facts.call.id,
    steps: facts.steps,
    screenshots: facts.screenshots.map(({ key, ...shot }) => ({ ...shot, deleted: key === null })),
    checks: facts.checks,
  };
}

/** An offset in the recording as m:ss.mmm. */
export function offsetText(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  const seconds = ((ms % 60_000) / 1000).toFixed(3).padStart(6, '0');
  return `${minutes}:${seconds}`;
}

const QUALITY_ISSUE_TEXT = {
  picture: 'Picture quality was poor',
  sound: 'Sound was poor (nothing was heard)',
  connection: 'The connection was poor',
} as const;

/** One side's quality in the report: its medians (and the worst), or that nothing was measured. */
function qualityLine(side: QualitySummary | null): string {
  if (!side) return 'Not measured';
  const round = (n: number) => Math.round(n * 10) / 10;
  return (
    `${side.count} samples; median ${side.height.median} lines (lowest ${side.height.min}), ` +
    `${round(side.fps.median)} fps, loss ${round(side.loss_pct.median)} % (highest ${round(side.loss_pct.max)} %), ` +
    `${Math.round(side.kbps.median)} kbit/s`
  );
}

const MISSING_TEXT = {
  deleted: 'deleted',
  retention: 'deleted by the retention job',
  not_in_storage: 'not found in storage',
} as const;

const userText = (user: NamedUser) => `${user.name} <${user.email}> (${user.id})`;

/** One evidence file in the report: who uploaded it and when, whether the call's agent took it, and any gap. */
export function evidenceLine(entry: EvidenceEntry): string {
  const by = entry.uploaded_by;
  const who =
    by.kind === 'call_agent'
      ? `the call's agent ${userText(by.user)}`
      : by.kind === 'user'
        ? userText(by.user)
        : by.kind === 'customer'
          ? 'the customer'
          : 'unknown';
  const missing = entry.missing;
  return [
    `Uploaded by ${who}${entry.uploaded_at ? ` at ${entry.uploaded_at}` : ''}`,
    entry.taken_by_call_agent ? null : "NOT taken by the call's agent",
    missing
      ? `MISSING: ${MISSING_TEXT[missing.reason]}${missing.by ? ` by ${userText(missing.by)}` : ''}${missing.at ? ` at ${missing.at}` : ''}`
      : null,
  ]
    .filter(Boolean)
    .join(' - ');
}

/** The PDF report: the call's facts in the studio's default language (en-US). */
export function callReport(facts: CallFacts, json: ReturnType<typeof callJson>): Promise<Uint8Array> {
  const { call } = json;
  const none = '-';
  return renderReport(
    `Video call ${call.id}: evidence report`,
    [
      {
        title: 'Call',
        lines: [
          { label: 'Company', value: `${facts.company.name} (${facts.company.id})` },
          { label: 'Customer profile', value: String(json.customer.profile_id) },
          { label: 'Status', value: `${call.status_name ?? call.status}` },
          { label: 'End reason', value: call.end_reason ?? none },
          { label: 'Created', value: call.created_at ?? none },
          { label: 'Started', value: call.call_start_time ?? none },
          { label: 'Ended', value: call.call_end_time ?? none },
          {
            label: 'Duration',
            value: call.duration_seconds === null ? none : `${call.duration_seconds} s`,
          },
          {
            label: 'Agent',
            value: json.agent ? `${json.agent.name} <${json.agent.email}> (${json.agent.id})` : none,
          },
          {
            label: 'Consent',
            value: json.consent
              ? `Given ${json.consent.given_at} from ${json.consent.address} (${json.consent.language})`
              : 'Not recorded for this call',
          },
          { label: 'Evidence deleted', value: call.evidence_deleted_at ?? none },
        ],
      },
      {
        title: 'Recording',
        lines: json.recording
          ? [
              { label: 'File', value: json.recording.path ?? 'deleted' },
              { label: 'Size', value: json.recording.size === null ? none : `${json.recording.size} bytes` },
              { label: 'SHA-256 at upload', value: json.recording.sha256_at_upload ?? none },
            ]
          : [{ label: 'File', value: 'No recording' }],
      },
      {
        title: 'Steps',
        lines:
          facts.steps.length === 0
            ? [{ label: none, value: 'None recorded' }]
            : facts.steps.map((step) => {
                const shots = Array.isArray(step.details.screenshots)
                  ? facts.screenshots
                      .filter((shot) => (step.details.screenshots as unknown[]).includes(shot.id))
                      .map((shot) => shot.path)
                  : [];
                return {
                  label: `${offsetText(step.offset_ms)} in the recording`,
                  value: [
                    `${step.kind}: ${step.result}`,
                    step.agent ? `by ${step.agent.name} <${step.agent.email}>` : null,
                    step.time ? `at ${step.time}` : null,
                    shots.length ? `screenshots ${shots.join(', ')}` : null,
                  ]
                    .filter(Boolean)
                    .join(' - '),
                };
              }),
      },
      { title: 'Machine checks', lines: machineCheckLines(facts.checks) },
      {
        title: 'Call quality',
        lines: [
          { label: 'Agent received', value: qualityLine(json.quality.agent) },
          { label: 'Customer received', value: qualityLine(json.quality.customer) },
          {
            label: 'Issues',
            value: json.quality.issues.length
              ? json.quality.issues.map((issue) => QUALITY_ISSUE_TEXT[issue]).join('; ')
              : 'None found',
          },
        ],
      },
      {
        title: 'Questions and notes',
        lines:
          facts.entries.length === 0
            ? [{ label: none, value: 'None' }]
            : facts.entries.map((entry) => ({
                label: entry.created_at,
                value: [entry.question?.['en-US'], entry.value, entry.note].filter(Boolean).join(' - '),
              })),
      },
      {
        title: 'Supervisors watching',
        lines:
          facts.watchers.length === 0
            ? [{ label: none, value: 'Nobody watched the call' }]
            : [
                ...facts.watchers.map((watch) => ({
                  label: watch.name,
                  value: `From ${watch.started_at} to ${watch.ended_at ?? 'the end of the call'}${watch.end_reason ? ` (${watch.end_reason})` : ''}`,
                })),
                ...facts.whispers.map((whisper) => ({
                  label: `Whisper ${whisper.created_at}`,
                  value: `${whisper.author.name}: ${whisper.text}`,
                })),
              ],
      },
      {
        title: 'Evidence files',
        lines:
          json.evidence_files.length === 0
            ? [{ label: none, value: 'None recorded' }]
            : json.evidence_files.map((entry) => ({ label: entry.path, value: evidenceLine(entry) })),
      },
      {
        title: 'Package',
        lines: [
          { label: 'Package id', value: json.package_id },
          { label: 'Generated', value: `${json.generated_at} by ${json.generated_by.email}` },
          { label: 'Files', value: json.files.join(', ') },
          {
            label: 'Missing files',
            value: json.missing_files.length
              ? `${json.missing_files.length}: ${json.missing_files.join(', ')}`
              : 'None: every file the records name is in the package',
          },
        ],
      },
    ],
    `Package ${json.package_id}`,
  );
}

const README = `Evidence package of a video call (IDV Studio)

Check it offline:
1. Every file is unchanged:        sha256sum -c manifest.sha256
2. The manifest is the server's:   base64 -d manifest.sha256.sig > manifest.sig.bin
                                   openssl pkeyutl -verify -pubin -inkey public_key.pem -rawin \\
                                     -in manifest.sha256 -sigfile manifest.sig.bin
3. The key is the server's: compare the SHA-256 of public_key.pem's key with the fingerprint that
   GET /api/v2/evidence/public_key answers (openssl pkey -pubin -in public_key.pem -outform DER | sha256sum).

call.json holds the call's facts, steps.json the step results (with their offsets in the recording)
and the screenshots taken for them (images/step-*); report.pdf shows them for reading.
call.json's evidence_files names every file the call's records say it holds or held, who uploaded
it and when, and for each one not in this package (missing_files) why it is missing.
`;

/** The ZIP of `files` followed by the manifest, its signature and the public key; streamed, hashed on the way. */
export function zipPackage(
  files: PackageFile[],
  options: {
    signer: EvidenceSigner;
    publicKeyPem: string;
    mtime: Date;
    /** README.txt: how to check this kind of package (default: the call's evidence package). */
    readme?: string;
    /** A stored file whose bytes differ from the hash it was stored with. */
    onMismatch: (file: EvidenceFile, key: string, actual: string) => Promise<void>;
  },
): Readable {
  async function* chunks(): AsyncGenerator<Uint8Array> {
    const out: Uint8Array[] = [];
    let failure: Error | null = null;
    const zip = new Zip((error, chunk) => {
      if (error) failure = error;
      else out.push(chunk);
    });
    const take = () => {
      if (failure) throw failure;
      return out.splice(0);
    };
    const manifest: string[] = [];
    const all: PackageFile[] = [
      ...files,
      { path: 'README.txt', body: Buffer.from(options.readme ?? README), compress: true },
      { path: 'public_key.pem', body: Buffer.from(options.publicKeyPem), compress: true },
    ];
    const add = (file: PackageFile) => {
      const entry = file.compress
        ? new ZipDeflate(safePath(file.path), { level: 6 })
        : new ZipPassThrough(safePath(file.path));
      entry.mtime = options.mtime;
      zip.add(entry);
      return entry;
    };
    for (const file of all) {
      const entry = add(file);
      const hash = createHash('sha256');
      if (file.body instanceof Uint8Array) {
        hash.update(file.body);
        entry.push(file.body, true);
      } else {
        for await (const chunk of file.body()) {
          hash.update(chunk as Buffer);
          entry.push(chunk as Buffer);
          yield* take();
        }
        entry.push(new Uint8Array(0), true);
      }
      yield* take();
      const digest = hash.digest('hex');
      manifest.push(`${digest}  ${file.path}\n`);
      if (file.stored && digest !== file.stored.evidence.sha256)
        await options.onMismatch(file.stored.evidence, file.stored.key, digest);
    }
    const manifestBytes = Buffer.from(manifest.join(''));
    add({ path: 'manifest.sha256', body: manifestBytes, compress: true }).push(manifestBytes, true);
    const signature = Buffer.from(`${await options.signer.sign(manifestBytes)}\n`);
    add({ path: 'manifest.sha256.sig', body: signature, compress: false }).push(signature, true);
    zip.end();
    yield* take();
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** A package of the call: its id, the files it holds (before the manifest) and the ZIP stream. */
export async function evidencePackage(
  deps: { db: DbOrTx; storage: Storage; signer: EvidenceSigner },
  facts: CallFacts,
  by: { id: number; email: string },
): Promise<{ packageId: string; paths: string[]; stream: Readable }> {
  const packageId = randomUUID();
  const generatedAt = new Date();
  const { files, missing, evidence } = await callFiles(deps.db, deps.storage, facts);
  const paths = [
    'call.json',
    'steps.json',
    'report.pdf',
    ...files.map((f) => f.path),
    'README.txt',
    'public_key.pem',
  ];
  const json = callJson(facts, { packageId, generatedAt, by, files: paths, missing, evidence });
  const report = await callReport(facts, json);
  const publicKey = await deps.signer.publicKey();
  const stream = zipPackage(
    [
      { path: 'call.json', body: Buffer.from(`${JSON.stringify(json, null, 2)}\n`), compress: true },
      {
        path: 'steps.json',
        body: Buffer.from(`${JSON.stringify(stepsJson(facts), null, 2)}\n`),
        compress: true,
      },
      { path: 'report.pdf', body: report, compress: false },
      ...files,
    ],
    {
      signer: deps.signer,
      publicKeyPem: publicKey.public_key_pem,
      mtime: generatedAt,
      onMismatch: (file, key, actual) => recordHashMismatch(deps.db, file, key, actual),
    },
  );
  return { packageId, paths, stream };
}
