/**
 * A person's data on request: an Admin's export of a profile is one ZIP whose manifest `sha256sum -c` accepts and
 * whose signature `openssl` verifies with the server's public key, offline; its JSON files say what the API says
 * for the same reads and its stored files are the bytes that were uploaded; the index is in the person's
 * language; the export is audited and in the access log; nobody but an Admin gets it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessPage } from '#contract/privacy';
import { auditLog, documentTypes, videoCalls } from '../../server/db/schema';
import { uploadDocument, uploadRecording } from './evidenceUploads';
import {
  bearer,
  get,
  PASSWORDS,
  startTestApp,
  type TestApp,
  takeScreenshot,
  talkingCall,
  tokenFor,
  userId,
} from './helpers';

const PROFILE = 6;
const RECORDING = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(100_000, 5)]);
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(96, 1),
]);

let t: TestApp;
const tokens = { agent: '', admin: '' };
const dirs: string[] = [];
let callId = 0;
let documentId = 0;

beforeAll(async () => {
  t = await startTestApp();
  [tokens.agent, tokens.admin] = await Promise.all([
    tokenFor(t.app, 'agent@acme.test', PASSWORDS.user),
    tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin),
  ]);
  const [type] = await t.app.ctx.db.select().from(documentTypes).limit(1);
  documentId = await uploadDocument(t.app, tokens.agent, {
    profile: PROFILE,
    type: type?.id ?? 1,
    page: PNG,
  });
  const agent = await userId(t.app, 'agent@acme.test');
  ({ callId } = await talkingCall(t.app, agent, PROFILE));
  await takeScreenshot(t.app, tokens.agent, callId, 'face_screenshot');
  await uploadRecording(t.app, tokens.agent, callId, RECORDING);
  // The customer agreed to the call in Turkish: the index speaks Turkish.
  await t.app.ctx.db
    .update(videoCalls)
    .set({ consentAt: new Date(), consentLanguage: 'tr', consentText: 'Onaylıyorum', consentIp: '192.0.2.7' })
    .where(eq(videoCalls.id, callId));
  await t.app.inject({
    method: 'POST',
    url: `/api/v2/profile/${PROFILE}/note`,
    headers: bearer(tokens.agent),
    payload: { note: 'Asked for the data we hold.' },
  });
});
afterAll(async () => {
  await t?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const exportOf = (profile: number, token = tokens.admin) =>
  t.app.inject({ method: 'GET', url: `/api/v2/profile/${profile}/export`, headers: bearer(token) });

/** The ZIP unpacked into a new temporary folder (the system's `unzip`). */
function unpack(zip: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'export-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'export.zip'), zip);
  execFileSync('unzip', ['-q', 'export.zip', '-d', 'files'], { cwd: dir });
  return join(dir, 'files');
}

const readJson = (dir: string, file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8'));
const api = async (url: string) => {
  const response = await get(t.app, `/api/v2${url}`, tokens.admin);
  expect(response.status, url).toBe(200);
  return response.body as never;
};
/** Without the signed file addresses of the API and the paths in the ZIP that the export puts in their place. */
const withoutAddresses = (value: unknown): unknown =>
  JSON.parse(
    JSON.stringify(value, (key, inner) =>
      ['url', 'recorded_file', 'file'].includes(key) ? undefined : inner,
    ),
  );

describe("a person's data on request", () => {
  let dir = '';
  beforeAll(async () => {
    const response = await exportOf(PROFILE);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toContain(`profile-${PROFILE}-export.zip`);
    dir = unpack(response.rawPayload);
  });

  it('verifies offline: every file against the manifest, the manifest against the signature and the key', async () => {
    const check = spawnSync('sha256sum', ['-c', 'manifest.sha256'], { cwd: dir, encoding: 'utf8' });
    expect(check.status, check.stdout + check.stderr).toBe(0);
    const signature = Buffer.from(readFileSync(join(dir, 'manifest.sha256.sig'), 'utf8').trim(), 'base64');
    writeFileSync(join(dir, '..', 'manifest.sig.bin'), signature);
    const verify = spawnSync(
      'openssl',
      ['pkeyutl', '-verify', '-pubin', '-inkey', 'public_key.pem', '-rawin', '-in', 'manifest.sha256'].concat(
        ['-sigfile', join(dir, '..', 'manifest.sig.bin')],
      ),
      { cwd: dir, encoding: 'utf8' },
    );
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
    const der = execFileSync('openssl', ['pkey', '-pubin', '-in', 'public_key.pem', '-outform', 'DER'], {
      cwd: dir,
    });
    const key = await api('/evidence/public_key');
    expect(createHash('sha256').update(der).digest('hex')).toBe(
      (key as { fingerprint_sha256: string }).fingerprint_sha256,
    );
    const listed = readFileSync(join(dir, 'manifest.sha256'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split('  ')[1]);
    expect(listed).toEqual(
      expect.arrayContaining([`calls/${callId}/recording.webm`, `documents/${documentId}/page-1.png`]),
    );
    expect(readJson(dir, 'export.json').files).toEqual(listed);
  });

  it('says what the API says, and holds the bytes that were uploaded', async () => {
    const profile = readJson(dir, 'profile.json');
    expect(profile).toMatchObject(await api(`/profile/${PROFILE}`));
    expect(readJson(dir, 'documents.json').map(withoutAddresses)).toEqual(
      withoutAddresses(await api(`/profile/${PROFILE}/documents`)),
    );
    const calls = (await api(`/videocall?profile=${PROFILE}&limit=100`)) as { results: { id: number }[] };
    const exported = readJson(dir, 'calls.json') as { id: number; recording_file: string | null }[];
    for (const call of calls.results)
      expect(exported.find((c) => c.id === call.id)).toMatchObject(withoutAddresses(call) as object);
    expect(readJson(dir, 'notes.json').notes).toEqual(await api(`/profile/${PROFILE}/note`));
    expect(readJson(dir, 'questionnaires.json')).toEqual(
      await api(`/questionnaire/answer?profile=${PROFILE}`),
    );
    expect(readJson(dir, 'transactions.json')).toEqual(await api(`/profile/${PROFILE}/transactions`));
    expect(readJson(dir, 'aml.json')).toEqual(await api(`/profile/${PROFILE}/aml`));
    const exportedCall = exported.find((c) => c.id === callId);
    expect(exportedCall).toMatchObject({
      recording_file: `calls/${callId}/recording.webm`,
      consent: { language: 'tr', address: '192.0.2.7' },
    });
    expect(readFileSync(join(dir, `calls/${callId}/recording.webm`)).equals(RECORDING)).toBe(true);
    expect(readFileSync(join(dir, `documents/${documentId}/page-1.png`)).equals(PNG)).toBe(true);
    const audit = readJson(dir, 'audit.json') as { object_type: string; object_id: string; action: string }[];
    expect(audit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          object_type: 'document',
          object_id: String(documentId),
          action: 'document_uploaded',
        }),
        expect.objectContaining({
          object_type: 'videocall',
          object_id: String(callId),
          action: 'recording_stored',
        }),
      ]),
    );
    expect(Array.isArray(readJson(dir, 'access_log.json'))).toBe(true);
  });

  it("has an index in the person's language", () => {
    const index = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(index).toContain('<html lang="tr">');
    expect(index).toContain('Kişisel verileriniz');
    expect(index).toContain(`calls/${callId}/recording.webm`);
    expect(readJson(dir, 'export.json')).toMatchObject({
      language: 'tr',
      profile_id: PROFILE,
      missing_files: [],
    });
  });

  it('is audited and in the access log, and is the Admins’ alone', async () => {
    const [audited] = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'profile_exported'), eq(auditLog.objectId, String(PROFILE))));
    expect(audited?.after).toMatchObject({ export_id: readJson(dir, 'export.json').export_id });
    await t.app.accessLog.flush();
    const reads = (await api(`/profile/${PROFILE}/access_log?kind=profile_exported`)) as AccessPage;
    expect(reads.results[0]?.detail).toEqual({ export_id: readJson(dir, 'export.json').export_id });
    expect((await exportOf(PROFILE, tokens.agent)).statusCode).toBe(403);
    expect((await exportOf(999_999)).statusCode).toBe(404);
  });
});
