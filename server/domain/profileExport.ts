/**
 * Everything held about a person, as one ZIP (GDPR Art. 15): the profile as the API gives it, its documents with
 * their page images, its calls with recordings and step screenshots, identification steps, AML results, notes and
 * activity, questionnaire answers, transactions, who read the person's data (the access log) and the audit entries
 * about the profile, its documents and calls. The JSON files hold what the API answers for the same reads, with
 * each signed address replaced by the file's path in the ZIP. Signed like a call's evidence package (the same key,
 * `manifest.sha256` and its signature; `zipPackage`), streamed, with every file hashed on the way: no recording is
 * ever held in memory. `index.html` says what is where, in the person's language. The format: docs/evidence.md.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { and, asc, desc, eq, inArray, isNotNull, isNull, or } from 'drizzle-orm';
import type { AuditEntry } from '#contract/audit';
import type { DbOrTx } from '../db/client';
import {
  auditLog,
  companies,
  deviceData,
  documentPages,
  documents,
  profiles,
  videoCalls,
} from '../db/schema';
import type { Storage } from '../storage/storage';
import { accessOfProfile } from './accessLog';
import { getAmlResult } from './aml';
import { toEntry as auditEntryOf } from './audit';
import { listDocuments } from './documents';
import { recordHashMismatch } from './evidence';
import type { EvidenceSigner } from './evidenceKey';
import { callFacts, type PackageFile, zipPackage } from './evidencePackage';
import { iso } from './format';
import { listLogs, listNotes } from './notes';
import { requireProfile, toProfile } from './profiles';
import { questionnaireAnswersOf } from './questionnaireAnswers';
import { listTransactions } from './transactions';
import { oneVideoCall } from './videocalls/lists';

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'application/pdf': 'pdf',
};

export type ExportLanguage = 'en-US' | 'tr';

/** The index's texts, in the languages the studio speaks. */
const INDEX_TEXT: Record<ExportLanguage, Record<string, string>> = {
  'en-US': {
    title: 'Your personal data',
    intro:
      'This archive holds everything {company} keeps about you (profile {profile}), as of {date}. Each file is listed below with what it holds.',
    'profile.json': 'Your profile: name, contact details, identity data, status, device data.',
    'documents.json':
      'Your identity documents and what was read from them; the page images are in documents/.',
    'calls.json':
      'Your video identification calls: times, the agent, your consent, the identification steps and answers; recordings and screenshots are in calls/.',
    'aml.json': 'Screening against sanctions and politically exposed persons lists.',
    'notes.json': 'Notes staff wrote about you, and the activity on your profile.',
    'questionnaires.json': 'Your answers to questionnaires.',
    'transactions.json': 'Your transactions.',
    'access_log.json': 'Who at {company} looked at your data, and when.',
    'audit.json': 'Every change staff made to your profile, documents and calls.',
    files: 'Files',
    check:
      'manifest.sha256 holds the SHA-256 of every file; manifest.sha256.sig is its signature by the key in public_key.pem. README.txt says how to check them.',
    absent: 'not kept (the service is not enabled)',
  },
  tr: {
    title: 'Kişisel verileriniz',
    intro:
      'Bu arşiv, {company} kuruluşunun {date} itibarıyla sizinle ilgili tuttuğu her şeyi içerir (profil {profile}). Her dosya, neyi içerdiğiyle birlikte aşağıda listelenmiştir.',
    'profile.json': 'Profiliniz: ad, iletişim bilgileri, kimlik verileri, durum, cihaz verileri.',
    'documents.json':
      'Kimlik belgeleriniz ve onlardan okunan bilgiler; sayfa görüntüleri documents/ klasöründedir.',
    'calls.json':
      'Görüntülü kimlik doğrulama görüşmeleriniz: saatler, temsilci, onayınız, kimlik doğrulama adımları ve yanıtlar; kayıtlar ve ekran görüntüleri calls/ klasöründedir.',
    'aml.json': 'Yaptırım ve siyasi nüfuz sahibi kişi listelerine karşı tarama.',
    'notes.json': 'Personelin sizinle ilgili yazdığı notlar ve profilinizdeki işlemler.',
    'questionnaires.json': 'Anketlere verdiğiniz yanıtlar.',
    'transactions.json': 'İşlemleriniz.',
    'access_log.json': '{company} içinde verilerinize kimin, ne zaman baktığı.',
    'audit.json': 'Personelin profilinizde, belgelerinizde ve görüşmelerinizde yaptığı her değişiklik.',
    files: 'Dosyalar',
    check:
      'manifest.sha256 her dosyanın SHA-256 özetini içerir; manifest.sha256.sig, public_key.pem içindeki anahtarla yapılmış imzasıdır. Nasıl doğrulanacağı README.txt dosyasındadır.',
    absent: 'tutulmuyor (hizmet etkin değil)',
  },
};

const README = `Export of a person's data (IDV Studio)

Check it offline:
1. Every file is unchanged:        sha256sum -c manifest.sha256
2. The manifest is the server's:   base64 -d manifest.sha256.sig > manifest.sig.bin
                                   openssl pkeyutl -verify -pubin -inkey public_key.pem -rawin \\
                                     -in manifest.sha256 -sigfile manifest.sig.bin
3. The key is the server's: compare the SHA-256 of public_key.pem's key with the fingerprint that
   GET /api/v2/evidence/public_key answers (openssl pkey -pubin -in public_key.pem -outform DER | sha256sum).

index.html says what each file holds, in the person's language; export.json names the export.
`;

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** The person's language: the one they consented in at their latest call, else the company's e-mail language. */
async function languageOf(db: DbOrTx, companyId: number, profileId: number): Promise<ExportLanguage> {
  const [call] = await db
    .select({ language: videoCalls.consentLanguage })
    .from(videoCalls)
    .where(and(eq(videoCalls.profileId, profileId), isNotNull(videoCalls.consentLanguage)))
    .orderBy(desc(videoCalls.id))
    .limit(1);
  const [company] = await db
    .select({ language: companies.mailLanguage })
    .from(companies)
    .where(eq(companies.id, companyId));
  const language = call?.language ?? company?.language ?? 'en';
  return language.toLowerCase().startsWith('tr') ? 'tr' : 'en-US';
}

/** The index: each JSON file and folder with what it holds, the stored files, how to check them. */
function indexHtml(
  language: ExportLanguage,
  facts: { company: string; profile: number; date: string; files: string[]; absent: string[] },
): string {
  const text = INDEX_TEXT[language];
  const fill = (value: string) =>
    escapeHtml(
      value
        .replaceAll('{company}', facts.company)
        .replaceAll('{profile}', String(facts.profile))
        .replaceAll('{date}', facts.date),
    );
  const described = Object.keys(text).filter((key) => key.endsWith('.json'));
  const rows = described
    .map(
      (file) =>
        `<tr><td><code>${file}</code></td><td>${fill(text[file] ?? '')}${
          facts.absent.includes(file) ? ` (${fill(text.absent ?? '')})` : ''
        }</td></tr>`,
    )
    .join('\n');
  const stored = facts.files
    .filter((file) => file.includes('/'))
    .map((file) => `<li><code>${escapeHtml(file)}</code></li>`)
    .join('\n');
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><title>${fill(text.title ?? '')}</title></head>
<body>
<h1>${fill(text.title ?? '')}</h1>
<p>${fill(text.intro ?? '')}</p>
<table>
${rows}
</table>
<h2>${fill(text.files ?? '')}</h2>
<ul>
${stored}
</ul>
<p>${fill(text.check ?? '')}</p>
</body></html>
`;
}

const json = (path: string, value: unknown): PackageFile => ({
  path,
  body: Buffer.from(`${JSON.stringify(value, null, 2)}\n`),
  compress: true,
});

/** Staff-visible data that a service not enabled for the company does not keep: null instead of a 403. */
async function unlessDisabled<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 403) return null;
    throw error;
  }
}

/** The audit entries about the profile, its documents and its calls, oldest first. */
async function auditOf(
  db: DbOrTx,
  companyId: number,
  profileId: number,
  documentIds: number[],
  callIds: number[],
): Promise<AuditEntry[]> {
  const objects = [and(eq(auditLog.objectType, 'profile'), eq(auditLog.objectId, String(profileId)))];
  if (documentIds.length > 0)
    objects.push(
      and(eq(auditLog.objectType, 'document'), inArray(auditLog.objectId, documentIds.map(String))),
    );
  if (callIds.length > 0)
    objects.push(and(eq(auditLog.objectType, 'videocall'), inArray(auditLog.objectId, callIds.map(String))));
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.companyId, companyId), or(...objects)))
    .orderBy(asc(auditLog.id));
  return rows.map(auditEntryOf);
}

export interface ProfileExport {
  exportId: string;
  /** Every path in the ZIP but the manifest and its signature. */
  paths: string[];
  stream: Readable;
}

/**
 * Reads everything about the profile (404 for one not of the company), then answers the ZIP as a stream. Stored
 * files are opened one after the other as the stream reaches them; one missing from storage is named in
 * `export.json`'s `missing_files` instead.
 */
export async function exportProfile(
  deps: { db: DbOrTx; storage: Storage; signer: EvidenceSigner },
  companyId: number,
  profileId: number,
  by: { id: number; email: string },
): Promise<ProfileExport> {
  const { db, storage } = deps;
  const row = await requireProfile(db, companyId, profileId);
  const exportId = randomUUID();
  const generatedAt = new Date();
  const stored: PackageFile[] = [];
  const missing: string[] = [];
  const addStored = async (
    path: string,
    key: string,
    evidence: { object: 'videocall' | 'document'; objectId: number; sha256: string | null },
  ) => {
    if ((await storage.size(key)) === null) {
      missing.push(path);
      return;
    }
    stored.push({
      path,
      body: () => storage.open(key),
      compress: false,
      ...(evidence.sha256
        ? {
            stored: {
              key,
              evidence: {
                companyId,
                object: evidence.object,
                objectId: evidence.objectId,
                sha256: evidence.sha256,
              },
            },
          }
        : {}),
    });
  };

  // The profile, as GET /profile/{id} with its device data and government-check data.
  const devices = await db
    .select()
    .from(deviceData)
    .where(eq(deviceData.profileId, profileId))
    .orderBy(desc(deviceData.createdAt), desc(deviceData.id));
  const [hold] = await db
    .select({ hold: profiles.legalHold, reason: profiles.legalHoldReason })
    .from(profiles)
    .where(eq(profiles.id, profileId));

  // Documents with their pages (deleted ones are no longer held; archived ones are).
  const docs = await listDocuments(db, storage, companyId, profileId, {});
  const pageRows =
    docs.length === 0
      ? []
      : await db
          .select({ page: documentPages })
          .from(documentPages)
          .innerJoin(documents, eq(documents.id, documentPages.documentId))
          .where(
            and(
              inArray(
                documents.id,
                docs.map((doc) => doc.id),
              ),
              isNull(documents.deletedAt),
            ),
          )
          .orderBy(asc(documents.id), asc(documentPages.pageNumber));
  const pagePath = new Map<number, string>();
  for (const { page } of pageRows) {
    const path = `documents/${page.documentId}/page-${page.pageNumber}.${EXTENSIONS[page.contentType] ?? 'bin'}`;
    pagePath.set(page.id, path);
    await addStored(path, page.storageKey, {
      object: 'document',
      objectId: page.documentId,
      sha256: page.sha256,
    });
  }
  const documentsJson = docs.map((doc) => ({
    ...doc,
    pages: doc.pages.map(({ url: _url, ...page }) => ({ ...page, file: pagePath.get(page.id) ?? null })),
  }));

  // Calls with their recordings, steps, screenshots, answers and consent.
  const callIds = (
    await db
      .select({ id: videoCalls.id })
      .from(videoCalls)
      .where(and(eq(videoCalls.profileId, profileId), eq(videoCalls.companyId, companyId)))
      .orderBy(asc(videoCalls.id))
  ).map((call) => call.id);
  const callsJson = [];
  for (const callId of callIds) {
    const call = await oneVideoCall(db, storage, companyId, callId);
    const facts = await callFacts(db, companyId, callId);
    const recording = facts.call.recordingKey ? `calls/${callId}/recording.webm` : null;
    if (recording && facts.call.recordingKey)
      await addStored(recording, facts.call.recordingKey, {
        object: 'videocall',
        objectId: callId,
        sha256: facts.call.recordingSha256,
      });
    for (const shot of facts.screenshots)
      if (shot.key)
        await addStored(`calls/${callId}/${shot.path}`, shot.key, {
          object: 'videocall',
          objectId: callId,
          sha256: shot.sha256,
        });
    const { recorded_file: _url, ...listed } = call;
    callsJson.push({
      ...listed,
      recording_file: recording,
      consent: facts.call.consentAt
        ? {
            given_at: iso(facts.call.consentAt),
            address: facts.call.consentIp,
            language: facts.call.consentLanguage,
            text: facts.call.consentText,
          }
        : null,
      evidence_deleted_at: iso(facts.call.evidenceDeletedAt),
      steps: facts.steps,
      screenshots: facts.screenshots.map(({ key, path, ...shot }) => ({
        ...shot,
        file: key ? `calls/${callId}/${path}` : null,
      })),
      questions: facts.entries,
      quality: facts.quality,
    });
  }

  const [company] = await db
    .select({ name: companies.name, aml: companies.amlProvider })
    .from(companies)
    .where(eq(companies.id, companyId));
  const aml = company?.aml ? await getAmlResult(db, company.aml, profileId) : null;
  const transactions = await unlessDisabled(() => listTransactions(db, companyId, profileId));
  const logs = await listLogs(db, profileId, { limit: 1_000_000 });
  const absent = [...(aml ? [] : ['aml.json']), ...(transactions ? [] : ['transactions.json'])];

  const data: PackageFile[] = [
    json('profile.json', {
      ...toProfile(row),
      legal_hold: hold ? { hold: hold.hold, reason: hold.reason } : null,
      extra_data: row.extraData,
      device_data: devices.map(({ profileId: _profile, createdAt, ...device }) => ({
        ...device,
        created_at: iso(createdAt),
      })),
    }),
    json('documents.json', documentsJson),
    json('calls.json', callsJson),
    json('aml.json', aml),
    json('notes.json', { notes: await listNotes(db, profileId), activity: logs.results }),
    json('questionnaires.json', await questionnaireAnswersOf(db, profileId)),
    json('transactions.json', transactions),
    json('access_log.json', await accessOfProfile(db, companyId, profileId)),
    json(
      'audit.json',
      await auditOf(
        db,
        companyId,
        profileId,
        docs.map((doc) => doc.id),
        callIds,
      ),
    ),
  ];
  const language = await languageOf(db, companyId, profileId);
  const publicKey = await deps.signer.publicKey();
  const paths = [
    'export.json',
    'index.html',
    ...data.map((file) => file.path),
    ...stored.map((file) => file.path),
    'README.txt',
    'public_key.pem',
  ];
  const meta = json('export.json', {
    format: 'idv-studio-profile-export/1',
    export_id: exportId,
    generated_at: generatedAt.toISOString(),
    generated_by: by,
    company: { id: companyId, name: company?.name ?? '' },
    profile_id: profileId,
    language,
    files: paths,
    missing_files: missing,
  });
  const index: PackageFile = {
    path: 'index.html',
    body: Buffer.from(
      indexHtml(language, {
        company: company?.name ?? '',
        profile: profileId,
        date: generatedAt.toISOString().slice(0, 10),
        files: paths,
        absent,
      }),
    ),
    compress: true,
  };
  const stream = zipPackage([meta, index, ...data, ...stored], {
    signer: deps.signer,
    publicKeyPem: publicKey.public_key_pem,
    mtime: generatedAt,
    readme: README,
    onMismatch: (file, key, actual) => recordHashMismatch(db, file, key, actual),
  });
  return { exportId, paths, stream };
}
