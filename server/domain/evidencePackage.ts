/**
 * The evidence package of a video call (issue 29, point 3): a ZIP streamed to the caller with the recording,
 * the images taken during the call (document pages, step screenshots), `call.json`, `steps.json`, a PDF
 * report, `manifest.sha256` (the SHA-256 of every file, in `sha256sum` format), `manifest.sha256.sig` (the
 * server's Ed25519 signature of the manifest's exact bytes, base64) and `public_key.pem`. Files are hashed
 * while they stream: the recording is never held in memory. The format is described in docs/evidence.md.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, asc, eq, gte, isNull, lte } from 'drizzle-orm';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { type CallQuality, callIssues, QUALITY_THRESHOLDS, type QualitySummary } from '#contract/callQuality';
import { CALL_STATUSES } from '#contract/common';
import type { DbOrTx } from '../db/client';
import {
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
import { type EvidenceFile, recordHashMismatch } from './evidence';
import type { EvidenceSigner } from './evidenceKey';
import { renderReport } from './evidenceReport';
import { fullName, iso } from './format';
import { requireCall } from './videocalls';

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
  /** What each side received (issue 29 point 6). */
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
  }[];
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
  };
}

/**
 * The stored files of a call, as package files: its recording, and the pages of the profile's documents
 * uploaded while the call was running (ID snapshots and face photos taken in the call), and the screenshots
 * taken for the guided procedure's steps (`images/step-<kind>-<n>.<ext>`, n counting per kind from 1).
 * A file missing from storage (or deleted by retention) is left out and named in `missing`.
 */
export async function callFiles(
  db: DbOrTx,
  storage: Storage,
  facts: CallFacts,
): Promise<{ files: PackageFile[]; missing: string[] }> {
  const { call } = facts;
  const candidates: (PackageFile & { stored: NonNullable<PackageFile['stored']> })[] = [];
  if (call.recordingKey) {
    const key = call.recordingKey;
    candidates.push({
      path: 'recording.webm',
      body: () => storage.open(key),
      compress: false,
      stored: {
        key,
        evidence: {
          companyId: call.companyId,
          object: 'videocall',
          objectId: call.id,
          sha256: call.recordingSha256 ?? '',
        },
      },
    });
  }
  if (call.callStartTime && call.callEndTime) {
    const pages = await db
      .select({ page: documentPages, documentClass: documents.documentClass })
      .from(documentPages)
      .innerJoin(documents, eq(documents.id, documentPages.documentId))
      .where(
        and(
          eq(documents.profileId, call.profileId),
          eq(documents.companyId, call.companyId),
          isNull(documents.deletedAt),
          gte(documents.createdAt, call.callStartTime),
          lte(documents.createdAt, call.callEndTime),
        ),
      )
      .orderBy(asc(documents.id), asc(documentPages.pageNumber));
    for (const { page, documentClass } of pages) {
      const ext = EXTENSIONS[page.contentType] ?? 'bin';
      const cls = documentClass.replace(/[^A-Za-z0-9]/g, '') || 'XX';
      candidates.push({
        path: `images/document-${page.documentId}-${cls}-page-${page.pageNumber}.${ext}`,
        body: () => storage.open(page.storageKey),
        compress: false,
        stored: {
          key: page.storageKey,
          evidence: {
            companyId: call.companyId,
            object: 'document',
            objectId: page.documentId,
            sha256: page.sha256 ?? '',
          },
        },
      });
    }
  }
  const missing: string[] = [];
  for (const shot of facts.screenshots) {
    const key = shot.key;
    if (key === null) {
      missing.push(shot.path);
      continue;
    }
    candidates.push({
      path: shot.path,
      body: () => storage.open(key),
      compress: false,
      stored: {
        key,
        evidence: { companyId: call.companyId, object: 'videocall', objectId: call.id, sha256: shot.sha256 },
      },
    });
  }
  const files: PackageFile[] = [];
  for (const file of candidates) {
    if ((await storage.size(file.stored.key)) === null) missing.push(file.path);
    else files.push(file);
  }
  return { files, missing };
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
    files: meta.files,
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
        title: 'Package',
        lines: [
          { label: 'Package id', value: json.package_id },
          { label: 'Generated', value: `${json.generated_at} by ${json.generated_by.email}` },
          { label: 'Files', value: json.files.join(', ') },
          ...(json.missing_files.length
            ? [{ label: 'Missing from storage', value: json.missing_files.join(', ') }]
            : []),
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
`;

/** The ZIP of `files` followed by the manifest, its signature and the public key; streamed, hashed on the way. */
export function zipPackage(
  files: PackageFile[],
  options: {
    signer: EvidenceSigner;
    publicKeyPem: string;
    mtime: Date;
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
      { path: 'README.txt', body: Buffer.from(README), compress: true },
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
  const { files, missing } = await callFiles(deps.db, deps.storage, facts);
  const paths = [
    'call.json',
    'steps.json',
    'report.pdf',
    ...files.map((f) => f.path),
    'README.txt',
    'public_key.pem',
  ];
  const json = callJson(facts, { packageId, generatedAt, by, files: paths, missing });
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
