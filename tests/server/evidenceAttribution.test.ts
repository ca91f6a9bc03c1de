/**
 * An evidence package names who uploaded each of its files and when, marks the files the call's agent did not
 * take, and names every file the call's records say it should hold but does not (a deleted document's pages, a
 * deleted recording, a file gone from storage) in call.json's `missing_files` and `evidence_files` and in the
 * report, while its manifest and signature still check.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { documentPages, documentTypes, videoCalls } from '../../server/db/schema';
import type { EvidenceEntry } from '../../server/domain/evidencePackage';
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

const PNG = readFileSync(join(import.meta.dirname, 'fixtures', 'page.png'));
const RECORDING = readFileSync(join(import.meta.dirname, 'fixtures', 'recording.webm'));
/**
 * Acme profiles, one for each test's call: a call's package holds every document of its profile uploaded
 * during the call, so two calls of one profile would share their documents.
 */
const PROFILES = [2, 4];
let profile = 0;

let t: TestApp;
const tokens = { agent: '', admin: '', api: '' };
const ids = { agent: 0, admin: 0, api: 0 };
let typeId = 0;
const dirs: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  [tokens.agent, tokens.admin, tokens.api] = await Promise.all([
    tokenFor(t.app, 'agent@acme.test', PASSWORDS.user),
    tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin),
    tokenFor(t.app, 'api@acme.test', PASSWORDS.api),
  ]);
  ids.agent = await userId(t.app, 'agent@acme.test');
  ids.admin = await userId(t.app, 'admin@acme.test');
  ids.api = await userId(t.app, 'api@acme.test');
  const types = await t.app.ctx.db.select().from(documentTypes);
  typeId = types.find((type) => type.documentClass === 'ID')?.id ?? types[0]?.id ?? 0;
});
afterAll(async () => {
  await t?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const upload = (token: string) => uploadDocument(t.app, token, { profile, type: typeId, page: PNG });

interface Package {
  dir: string;
  json: {
    files: string[];
    missing_files: string[];
    evidence_files: EvidenceEntry[];
  };
  report: string;
}

/** The call's package, unpacked, after checking its manifest (`sha256sum -c`) and its signature. */
async function downloadChecked(callId: number): Promise<Package> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/v2/videocall/${callId}/evidence`,
    headers: bearer(tokens.admin),
  });
  expect(response.statusCode).toBe(200);
  const root = mkdtempSync(join(tmpdir(), 'attribution-'));
  dirs.push(root);
  writeFileSync(join(root, 'package.zip'), response.rawPayload);
  execFileSync('unzip', ['-q', 'package.zip', '-d', 'files'], { cwd: root });
  const dir = join(root, 'files');
  const check = spawnSync('sha256sum', ['-c', 'manifest.sha256'], { cwd: dir, encoding: 'utf8' });
  expect(check.status, check.stdout + check.stderr).toBe(0);
  const key = await get<{ public_key_pem: string }>(t.app, '/api/v2/evidence/public_key');
  const signature = Buffer.from(readFileSync(join(dir, 'manifest.sha256.sig'), 'utf8').trim(), 'base64');
  expect(
    verify(
      null,
      readFileSync(join(dir, 'manifest.sha256')),
      createPublicKey(key.body.public_key_pem),
      signature,
    ),
  ).toBe(true);
  return {
    dir,
    json: JSON.parse(readFileSync(join(dir, 'call.json'), 'utf8')),
    report: await pdfText(readFileSync(join(dir, 'report.pdf'))),
  };
}

/** The text of a PDF, all pages joined (pdf.js). */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const task = getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, verbosity: 0 });
  const pdf = await task.promise;
  const pages: string[] = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const content = await (await pdf.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await task.destroy();
  return pages.join(' ').replace(/\s+/g, ' ');
}

describe('the evidence package of a call with files from several hands', () => {
  let callId = 0;
  const docs = { agent: 0, api: 0, admin: 0 };
  const pagePath = (documentId: number) => `images/document-${documentId}-ID-page-1.png`;
  const entryOf = (pkg: Package, path: string) => pkg.json.evidence_files.find((e) => e.path === path);

  let made = 0;
  // Each test has its own call and files: one deletes some of them.
  beforeEach(async () => {
    profile = PROFILES[made++ % PROFILES.length] as number;
    const call = await talkingCall(t.app, ids.agent, profile);
    callId = call.callId;
    // The call started a little before the uploads; it ends after them.
    await t.app.ctx.db
      .update(videoCalls)
      .set({ callStartTime: new Date(Date.now() - 60_000) })
      .where(eq(videoCalls.id, callId));
    await takeScreenshot(t.app, tokens.agent, callId, 'id_front');
    docs.agent = await upload(tokens.agent);
    docs.api = await upload(tokens.api);
    docs.admin = await upload(tokens.admin);
    await t.app.ctx.db
      .update(videoCalls)
      .set({ status: 3, callEndTime: new Date(Date.now() + 1000) })
      .where(eq(videoCalls.id, callId));
    await uploadRecording(t.app, tokens.agent, callId, RECORDING);
  });

  it('names the uploader and time of every file and marks those the call agent did not take', async () => {
    const pkg = await downloadChecked(callId);
    expect(pkg.json.missing_files).toEqual([]);
    const agent = { id: ids.agent, name: expect.any(String), email: 'agent@acme.test' };
    expect(entryOf(pkg, 'recording.webm')).toMatchObject({
      kind: 'recording',
      uploaded_by: { kind: 'call_agent', user: agent },
      uploaded_at: expect.any(String),
      taken_by_call_agent: true,
      missing: null,
    });
    expect(entryOf(pkg, 'images/step-id_front-1.jpg')).toMatchObject({
      kind: 'screenshot',
      uploaded_by: { kind: 'call_agent', user: agent },
      taken_by_call_agent: true,
    });
    expect(entryOf(pkg, pagePath(docs.agent))).toMatchObject({
      kind: 'document_page',
      source_id: docs.agent,
      page: 1,
      upload_source: 'studio',
      uploaded_by: { kind: 'call_agent', user: agent },
      uploaded_at: expect.any(String),
      taken_by_call_agent: true,
    });
    expect(entryOf(pkg, pagePath(docs.api))).toMatchObject({
      uploaded_by: { kind: 'user', user: { id: ids.api, email: 'api@acme.test' } },
      taken_by_call_agent: false,
      missing: null,
    });
    expect(entryOf(pkg, pagePath(docs.admin))).toMatchObject({
      uploaded_by: { kind: 'user', user: { id: ids.admin, email: 'admin@acme.test' } },
      taken_by_call_agent: false,
    });
    // Every file in the ZIP has its entry, and every entry not missing is in the ZIP.
    const stored = pkg.json.evidence_files.filter((e) => e.missing === null).map((e) => e.path);
    expect(pkg.json.files.filter((path) => path.startsWith('images/') || path === 'recording.webm')).toEqual(
      stored,
    );
    expect(pkg.report).toContain('Evidence files');
    expect(pkg.report).toContain("NOT taken by the call's agent");
    expect(pkg.report).toContain('api@acme.test');
    expect(pkg.report).toContain('None: every file the records name is in the package');
  });

  it('names a deleted document page, a deleted recording and a file gone from storage as missing', async () => {
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/v2/document/${docs.admin}`,
      headers: bearer(tokens.admin),
    });
    expect(deleted.statusCode).toBe(204);
    const video = await t.app.inject({
      method: 'DELETE',
      url: `/api/v2/videocall/${callId}`,
      headers: bearer(tokens.api),
    });
    expect(video.statusCode).toBe(204);
    const [page] = await t.app.ctx.db
      .select()
      .from(documentPages)
      .where(eq(documentPages.documentId, docs.api));
    await t.app.ctx.storage.remove(page?.storageKey as string);

    const pkg = await downloadChecked(callId);
    expect(pkg.json.missing_files).toEqual(['recording.webm', pagePath(docs.api), pagePath(docs.admin)]);
    for (const path of pkg.json.missing_files) expect(pkg.json.files).not.toContain(path);
    expect(entryOf(pkg, 'recording.webm')?.missing).toMatchObject({
      reason: 'deleted',
      at: expect.any(String),
      by: { id: ids.api, email: 'api@acme.test' },
    });
    expect(entryOf(pkg, pagePath(docs.admin))?.missing).toMatchObject({
      reason: 'deleted',
      at: expect.any(String),
      by: { id: ids.admin, email: 'admin@acme.test' },
    });
    expect(entryOf(pkg, pagePath(docs.api))?.missing).toEqual({
      reason: 'not_in_storage',
      at: null,
      by: null,
    });
    // The page of the agent's document and the screenshot are still there.
    expect(readFileSync(join(pkg.dir, pagePath(docs.agent)))).toEqual(PNG);
    expect(pkg.report).toContain('Missing files 3:');
    expect(pkg.report).toContain('MISSING: deleted by');
    expect(pkg.report).toContain('MISSING: not found in storage');
  });
});
