/**
 * The signed evidence package of a call, the server's signing key, the retention job and
 * the legal hold.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, createPublicKey, randomUUID, verify } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUALITY_THRESHOLDS } from '#contract/callQuality';
import { DAY_MS } from '#contract/time';
import { buildApp } from '../../server/app';
import {
  auditLog,
  documentPages,
  documents,
  profiles,
  users,
  videoCallQuality,
  videoCalls,
} from '../../server/db/schema';
import { safePath } from '../../server/domain/evidencePackage';
import { runEvidenceRetention } from '../../server/domain/evidenceRetention';
import { bearer, FAST_CALLS, get, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

const RECORDING = readFileSync(join(import.meta.dirname, 'fixtures', 'recording.webm'));
const PNG = readFileSync(join(import.meta.dirname, 'fixtures', 'page.png'));

let t: TestApp;
let agentToken: string;
let adminToken: string;
let viewerToken: string;
let globexToken: string;
let agentId: number;
const dirs: string[] = [];

beforeAll(async () => {
  t = await startTestApp({ calls: { ...FAST_CALLS, maxRecordingBytes: 4 * 1024 * 1024 } });
  [agentToken, adminToken, viewerToken, globexToken] = await Promise.all([
    tokenFor(t.app, 'agent@acme.test', PASSWORDS.user),
    tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin),
    tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user),
    tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin),
  ]);
  const [agent] = await t.app.ctx.db.select().from(users).where(eq(users.email, 'agent@acme.test'));
  agentId = agent?.id as number;
});
afterAll(async () => {
  await t?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A finished call of `profile` answered by agent@acme.test, ended `endedAgo` ms ago, with no recording yet. */
async function endedCall(profile = 3, endedAgo = 0): Promise<number> {
  const end = new Date(Date.now() - endedAgo);
  const [row] = await t.app.ctx.db
    .insert(videoCalls)
    .values({
      companyId: 1,
      profileId: profile,
      agentId,
      roomId: randomUUID(),
      status: 3,
      callStartTime: new Date(end.getTime() - 120_000),
      callEndTime: end,
      createdAt: new Date(end.getTime() - 150_000),
    })
    .returning({ id: videoCalls.id });
  return row?.id as number;
}

async function upload(callId: number) {
  const boundary = 'evidence-package-boundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="call.webm"\r\n` +
        'Content-Type: video/webm\r\n\r\n',
    ),
    RECORDING,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await t.app.inject({
    method: 'PATCH',
    url: `/api/v2/videocall/${callId}`,
    headers: { ...bearer(agentToken), 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { recording_sha256: string };
}

// Evidence packages are the Admins' to download (and of those granted `download_evidence`), not the agent's.
const download = (callId: number | string, token = adminToken) =>
  t.app.inject({ method: 'GET', url: `/api/v2/videocall/${callId}/evidence`, headers: bearer(token) });

/** The ZIP unpacked into a new temporary folder (the system's `unzip`). */
function unpack(zip: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'evidence-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'package.zip'), zip);
  execFileSync('unzip', ['-q', 'package.zip', '-d', 'files'], { cwd: dir });
  return join(dir, 'files');
}

const sha256sumCheck = (dir: string) =>
  spawnSync('sha256sum', ['-c', 'manifest.sha256'], { cwd: dir, encoding: 'utf8' });

describe('the evidence package', () => {
  let callId: number;
  let storedSha: string;
  beforeAll(async () => {
    callId = await endedCall();
    storedSha = (await upload(callId)).recording_sha256;
    await t.app.inject({
      method: 'POST',
      url: `/api/v2/videocall/${callId}/notes`,
      headers: bearer(agentToken),
      payload: { note: 'Customer showed the ID card front and back.' },
    });
  });

  it('is a ZIP whose manifest `sha256sum -c` accepts and whose signature the public key verifies', async () => {
    const response = await download(callId);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toContain(`call-${callId}-evidence.zip`);
    const dir = unpack(response.rawPayload);
    const check = sha256sumCheck(dir);
    expect(check.status, check.stdout + check.stderr).toBe(0);
    const manifest = readFileSync(join(dir, 'manifest.sha256'));
    const listed = manifest
      .toString()
      .trim()
      .split('\n')
      .map((line) => line.split('  ')[1]);
    expect(listed).toEqual([
      'call.json',
      'steps.json',
      'report.pdf',
      'recording.webm',
      'README.txt',
      'public_key.pem',
    ]);
    // The recording is the stored one, byte for byte.
    expect(
      createHash('sha256')
        .update(readFileSync(join(dir, 'recording.webm')))
        .digest('hex'),
    ).toBe(storedSha);

    const key = await get<{ public_key_pem: string; fingerprint_sha256: string; algorithm: string }>(
      t.app,
      '/api/v2/evidence/public_key',
    );
    expect(key.status).toBe(200);
    expect(key.body.algorithm).toBe('Ed25519');
    const publicKey = createPublicKey(key.body.public_key_pem);
    expect(
      createHash('sha256')
        .update(publicKey.export({ format: 'der', type: 'spki' }))
        .digest('hex'),
    ).toBe(key.body.fingerprint_sha256);
    expect(readFileSync(join(dir, 'public_key.pem'), 'utf8')).toBe(key.body.public_key_pem);
    const signature = Buffer.from(readFileSync(join(dir, 'manifest.sha256.sig'), 'utf8').trim(), 'base64');
    expect(verify(null, manifest, publicKey, signature)).toBe(true);
    // A manifest changed by one byte no longer verifies.
    const forged = Buffer.from(manifest);
    forged[0] = forged[0] === 0x61 ? 0x62 : 0x61;
    expect(verify(null, forged, publicKey, signature)).toBe(false);

    const call = JSON.parse(readFileSync(join(dir, 'call.json'), 'utf8'));
    expect(call.call).toMatchObject({
      id: callId,
      status: 3,
      status_name: 'COMPLETE',
      duration_seconds: 120,
    });
    expect(call.agent).toEqual({ id: agentId, name: expect.any(String), email: 'agent@acme.test' });
    expect(call.customer).toEqual({ profile_id: 3, legal_hold: false });
    expect(call.consent).toBeNull();
    expect(call.recording).toMatchObject({ path: 'recording.webm', sha256_at_upload: storedSha });
    expect(call.questions).toEqual([
      expect.objectContaining({ note: 'Customer showed the ID card front and back.' }),
    ]);
    expect(readFileSync(join(dir, 'report.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('fails `sha256sum -c` once one byte of a file changes', async () => {
    const dir = unpack((await download(callId)).rawPayload);
    const file = join(dir, 'recording.webm');
    const bytes = readFileSync(file);
    bytes.writeUInt8((bytes.at(-1) ?? 0) ^ 0xff, bytes.length - 1);
    writeFileSync(file, bytes);
    const check = sha256sumCheck(dir);
    expect(check.status).not.toBe(0);
    expect(check.stdout).toContain('recording.webm: FAILED');
  });

  it('holds the pages of documents uploaded during the call', async () => {
    const [call] = await t.app.ctx.db.select().from(videoCalls).where(eq(videoCalls.id, callId));
    const key = `documents/${randomUUID()}.png`;
    await t.app.ctx.storage.put(key, (await import('node:stream')).Readable.from([PNG]));
    const [doc] = await t.app.ctx.db
      .insert(documents)
      .values({
        companyId: 1,
        profileId: 3,
        documentClass: 'ID',
        stream: true,
        createdAt: new Date((call?.callStartTime?.getTime() ?? 0) + 30_000),
      })
      .returning({ id: documents.id });
    await t.app.ctx.db.insert(documentPages).values({
      documentId: doc?.id as number,
      pageNumber: 1,
      storageKey: key,
      contentType: 'image/png',
      size: PNG.length,
      sha256: createHash('sha256').update(PNG).digest('hex'),
    });
    const dir = unpack((await download(callId)).rawPayload);
    expect(sha256sumCheck(dir).status).toBe(0);
    expect(readFileSync(join(dir, `images/document-${doc?.id}-ID-page-1.png`))).toEqual(PNG);
  });

  it('audits each download with the package id that call.json names', async () => {
    const dir = unpack((await download(callId, adminToken)).rawPayload);
    const { package_id } = JSON.parse(readFileSync(join(dir, 'call.json'), 'utf8'));
    const rows = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'evidence_downloaded'), eq(auditLog.objectId, String(callId))));
    const entry = rows.find((row) => (row.after as { package_id?: string }).package_id === package_id);
    expect(entry).toMatchObject({ companyId: 1, objectType: 'videocall', actorEmail: 'admin@acme.test' });
  });

  it('is refused without download_evidence (403), to another company (404) and without a token (401)', async () => {
    expect((await download(callId, viewerToken)).statusCode).toBe(403);
    expect((await download(callId, agentToken)).statusCode).toBe(403);
    const other = await download(callId, globexToken);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ detail: 'Not found.' });
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/v2/videocall/${callId}/evidence` })).statusCode,
    ).toBe(401);
  });

  it('answers 400 or 404, never 500, to ids at and past the extremes', async () => {
    for (const id of ['9007199254740992', '2147483648', '-1', '0', 'abc', '%00', '1e3', '2147483647']) {
      const response = await download(id);
      expect([400, 404], id).toContain(response.statusCode);
      expect(response.json(), id).toHaveProperty('detail');
    }
  });

  it('keeps ZIP paths inside the folder', () => {
    expect(safePath('images/document-1-ID-page-1.png')).toBe('images/document-1-ID-page-1.png');
    for (const bad of ['../x', '/etc/passwd', 'a/../../b', 'a\\b', 'C:/x', '', '.hidden', 'a//b'])
      expect(() => safePath(bad), bad).toThrow();
  });
});

describe('the signing key', () => {
  it('is the same after a restart on the same database (generated once, kept sealed)', async () => {
    const before = await get<{ public_key_pem: string }>(t.app, '/api/v2/evidence/public_key');
    const again = await buildApp(t.config, {
      database: { db: t.app.ctx.db, kind: 'pglite', close: async () => {} },
    });
    try {
      const after = await again.inject({ method: 'GET', url: '/api/v2/evidence/public_key' });
      expect(after.json().public_key_pem).toBe(before.body.public_key_pem);
    } finally {
      await again.close();
    }
  });

  it('is EVIDENCE_SIGNING_KEY when it is set', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const pair = generateKeyPairSync('ed25519');
    const pem = pair.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const configured = await buildApp(
      { ...t.config, evidence: { ...t.config.evidence, signingKeyPem: pem } },
      { database: { db: t.app.ctx.db, kind: 'pglite', close: async () => {} } },
    );
    try {
      const answer = await configured.inject({ method: 'GET', url: '/api/v2/evidence/public_key' });
      expect(answer.json().public_key_pem).toBe(pair.publicKey.export({ format: 'pem', type: 'spki' }));
    } finally {
      await configured.close();
    }
  });
});

describe('EVIDENCE_SIGNING_KEY', () => {
  it('takes an Ed25519 key as PEM or base64 DER, and refuses any other key or text at start', async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const { readEvidenceKey } = await import('../../server/config');
    const ed = generateKeyPairSync('ed25519').privateKey;
    const pem = ed.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(readEvidenceKey(pem)).toBe(pem);
    expect(readEvidenceKey(pem.replace(/\n/g, '\\n'))).toBe(pem);
    expect(readEvidenceKey(ed.export({ format: 'der', type: 'pkcs8' }).toString('base64'))).toBe(pem);
    expect(readEvidenceKey(undefined)).toBeUndefined();
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    expect(() => readEvidenceKey(rsa.export({ format: 'pem', type: 'pkcs8' }).toString())).toThrow(/Ed25519/);
    expect(() => readEvidenceKey('not a key')).toThrow(/EVIDENCE_SIGNING_KEY/);
  });
});

describe('retention and legal hold', () => {
  const recordingOf = async (callId: number) =>
    (await t.app.ctx.db.select().from(videoCalls).where(eq(videoCalls.id, callId)))[0];

  it('deletes the evidence of calls past the retention, keeps held profiles and recent calls, audits each', async () => {
    const old = await endedCall(4, 1827 * DAY_MS);
    const held = await endedCall(5, 1827 * DAY_MS);
    const recent = await endedCall(4, 1825 * DAY_MS);
    for (const id of [old, held, recent]) await upload(id);
    const oldKey = (await recordingOf(old))?.recordingKey as string;
    const hold = await t.app.inject({
      method: 'PUT',
      url: '/api/v2/profile/5/legal_hold',
      headers: bearer(adminToken),
      payload: { hold: true, reason: 'Court order 2026/17 keeps this file' },
    });
    expect(hold.statusCode).toBe(200);
    expect(hold.json()).toMatchObject({ hold: true, reason: 'Court order 2026/17 keeps this file' });

    const deleted = await runEvidenceRetention(t.app.ctx.db, t.app.ctx.storage);
    expect(deleted).toBeGreaterThanOrEqual(1);
    const gone = await recordingOf(old);
    expect(gone?.recordingKey).toBeNull();
    expect(gone?.evidenceDeletedAt).not.toBeNull();
    expect(gone?.recordingSha256).not.toBeNull();
    expect(await t.app.ctx.storage.size(oldKey)).toBeNull();
    expect((await recordingOf(held))?.recordingKey).not.toBeNull();
    expect((await recordingOf(recent))?.recordingKey).not.toBeNull();
    const audits = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'evidence_deleted'), eq(auditLog.objectId, String(old))));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorId: null, objectType: 'videocall' });
    expect(audits[0]?.after).toMatchObject({ reason: 'retention', retention_days: 1826 });
    // Run again: nothing more to do, no second entry.
    await runEvidenceRetention(t.app.ctx.db, t.app.ctx.storage);
    expect(
      await t.app.ctx.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'evidence_deleted'), eq(auditLog.objectId, String(old)))),
    ).toHaveLength(1);
    // The package of a call whose evidence is gone still says what it was.
    const dir = unpack((await download(old)).rawPayload);
    expect(sha256sumCheck(dir).status).toBe(0);
    expect(existsSync(join(dir, 'recording.webm'))).toBe(false);
    const call = JSON.parse(readFileSync(join(dir, 'call.json'), 'utf8'));
    expect(call.call.evidence_deleted_at).not.toBeNull();
    expect(call.recording).toMatchObject({ path: null, deleted: true });

    // Lifting the hold lets the next run delete it.
    const lift = await t.app.inject({
      method: 'PUT',
      url: '/api/v2/profile/5/legal_hold',
      headers: bearer(adminToken),
      payload: { hold: false, reason: 'Court case closed in 2031' },
    });
    expect(lift.statusCode).toBe(200);
    await runEvidenceRetention(t.app.ctx.db, t.app.ctx.storage);
    expect((await recordingOf(held))?.recordingKey).toBeNull();
    const holds = await t.app.ctx.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.objectType, 'profile'), eq(auditLog.objectId, '5')));
    expect(holds.map((h) => h.action)).toEqual(
      expect.arrayContaining(['legal_hold_set', 'legal_hold_lifted']),
    );
  });

  it("follows the company's retention, within 365 to 3653 days, set by Admins only", async () => {
    const call = await endedCall(6, 400 * DAY_MS);
    await upload(call);
    expect((await get(t.app, '/api/v2/evidence/retention', adminToken)).body).toEqual({
      evidence_retention_days: 1826,
    });
    for (const days of [364, 3654, 1.5]) {
      const bad = await t.app.inject({
        method: 'PUT',
        url: '/api/v2/evidence/retention',
        headers: bearer(adminToken),
        payload: { evidence_retention_days: days },
      });
      expect(bad.statusCode, String(days)).toBe(400);
      expect(bad.json()).toHaveProperty('detail');
    }
    const byUser = await t.app.inject({
      method: 'PUT',
      url: '/api/v2/evidence/retention',
      headers: bearer(agentToken),
      payload: { evidence_retention_days: 365 },
    });
    expect(byUser.statusCode).toBe(403);
    const set = await t.app.inject({
      method: 'PUT',
      url: '/api/v2/evidence/retention',
      headers: bearer(adminToken),
      payload: { evidence_retention_days: 365 },
    });
    expect(set.json()).toEqual({ evidence_retention_days: 365 });
    try {
      await runEvidenceRetention(t.app.ctx.db, t.app.ctx.storage);
      expect((await recordingOf(call))?.evidenceDeletedAt).not.toBeNull();
    } finally {
      await t.app.inject({
        method: 'PUT',
        url: '/api/v2/evidence/retention',
        headers: bearer(adminToken),
        payload: { evidence_retention_days: 1826 },
      });
    }
  });

  it('refuses a hold from a non-Admin (403), without a reason (400), on another company’s profile (404)', async () => {
    const put = (token: string, url: string, payload: unknown) =>
      t.app.inject({ method: 'PUT', url, headers: bearer(token), payload: payload as object });
    expect(
      (await put(agentToken, '/api/v2/profile/7/legal_hold', { hold: true, reason: 'A long enough reason' }))
        .statusCode,
    ).toBe(403);
    const short = await put(adminToken, '/api/v2/profile/7/legal_hold', { hold: true, reason: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toHaveProperty('detail');
    expect((await put(adminToken, '/api/v2/profile/7/legal_hold', { hold: true })).statusCode).toBe(400);
    expect(
      (await put(globexToken, '/api/v2/profile/7/legal_hold', { hold: true, reason: 'A long enough reason' }))
        .statusCode,
    ).toBe(404);
    const [profile] = await t.app.ctx.db.select().from(profiles).where(eq(profiles.id, 7));
    expect(profile?.legalHold).toBe(false);
    expect((await get(t.app, '/api/v2/profile/7/legal_hold', agentToken)).body).toEqual({
      hold: false,
      reason: null,
      changed_by: null,
      changed_at: null,
    });
  });
});

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
  return pages.join(' ');
}

describe('the call quality in the package', () => {
  const good = { width: 640, height: 480, fps: 30, lossPct: 0, kbps: 900, audioLevel: 0.2 };

  it("holds both sides' summaries and the issues of either side in call.json, and names them in the report", async () => {
    const callId = await endedCall();
    await t.app.ctx.db.insert(videoCallQuality).values([
      ...[0, 1, 2].map(() => ({ callId, side: 'agent', ...good })),
      // The customer's picture was poor: 240 lines in every sample.
      ...[0, 1, 2].map((i) => ({ callId, side: 'customer', ...good, width: 320, height: 240, lossPct: i })),
    ]);
    const dir = unpack((await download(callId)).rawPayload);
    expect(sha256sumCheck(dir).status).toBe(0);
    const { quality } = JSON.parse(readFileSync(join(dir, 'call.json'), 'utf8'));
    expect(quality.agent).toMatchObject({
      count: 3,
      height: { min: 480, median: 480, max: 480 },
      issues: [],
    });
    expect(quality.customer).toMatchObject({
      count: 3,
      height: { min: 240, median: 240, max: 240 },
      loss_pct: { min: 0, median: 1, max: 2 },
      issues: ['picture'],
    });
    expect(quality.issues).toEqual(['picture']);
    expect(quality.thresholds).toEqual(QUALITY_THRESHOLDS);
    const report = await pdfText(readFileSync(join(dir, 'report.pdf')));
    expect(report).toContain('Call quality');
    expect(report).toContain('3 samples; median 240 lines');
    expect(report).toContain('Picture quality was poor');
  });

  it('says so when nothing was measured: null sides, no issues, "Not measured" in the report', async () => {
    const callId = await endedCall();
    const dir = unpack((await download(callId)).rawPayload);
    const { quality } = JSON.parse(readFileSync(join(dir, 'call.json'), 'utf8'));
    expect(quality).toEqual({ agent: null, customer: null, issues: [], thresholds: QUALITY_THRESHOLDS });
    const report = await pdfText(readFileSync(join(dir, 'report.pdf')));
    expect(report).toContain('Not measured');
    expect(report).toContain('None found');
  });
});
