/**
 * The screenshots an agent takes of the customer's video for the face, ID front, ID back and security
 * features steps. Stored with their SHA-256 (POST /videocall/{id}/screenshots), required by a passed result of
 * those steps, in the evidence package with steps.json (manifest and signature cover them), and deleted by the
 * retention job with the recording unless a legal hold keeps them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallScreenshot, CallStep } from '#contract/identProcedure';
import { DAY_MS } from '#contract/time';
import { auditLog, videoCallScreenshots, videoCalls } from '../../server/db/schema';
import { runEvidenceRetention } from '../../server/domain/evidenceRetention';
import {
  bearer,
  get,
  PASSWORDS,
  startTestApp,
  TEST_JPEG,
  type TestApp,
  takeScreenshot,
  talkingCall,
  tokenFor,
  userId,
} from './helpers';

const PNG = readFileSync(join(import.meta.dirname, 'fixtures', 'page.png'));

let t: TestApp;
const tokens = { agent: '', admin: '', viewer: '' };
let agentId = 0;
const dirs: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.viewer = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
  agentId = await userId(t.app, 'agent@acme.test');
});
afterAll(async () => {
  await t?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const postShot = (callId: number, kind: string, payload: Buffer, type = 'image/jpeg', token = tokens.agent) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v2/videocall/${callId}/screenshots?kind=${kind}`,
    headers: { ...bearer(token), 'content-type': type },
    payload,
  });

const postStep = (callId: number, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v2/videocall/${callId}/steps`,
    headers: bearer(tokens.agent),
    payload,
  });

const endCall = (callId: number, endedAgo = 0) =>
  t.app.ctx.db
    .update(videoCalls)
    .set({
      status: 3,
      callStartTime: new Date(Date.now() - endedAgo - 120_000),
      callEndTime: new Date(Date.now() - endedAgo),
    })
    .where(eq(videoCalls.id, callId));

function unpack(zip: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'screenshots-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'package.zip'), zip);
  execFileSync('unzip', ['-q', 'package.zip', '-d', 'files'], { cwd: dir });
  return join(dir, 'files');
}

/** The text a pdf-lib PDF draws: its content streams inflated, their hex strings decoded, in order. */
function pdfText(pdf: Buffer): string {
  const text: string[] = [];
  const raw = pdf.toString('latin1');
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    const end = raw.indexOf('endstream', start);
    let content: string;
    try {
      content = inflateSync(pdf.subarray(start, end)).toString('latin1');
    } catch {
      continue;
    }
    for (const hex of content.matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g))
      text.push(Buffer.from(hex[1] as string, 'hex').toString('latin1'));
  }
  return text.join('\n');
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('taking a screenshot', () => {
  it('stores a JPEG or PNG of a talking call with its SHA-256, listed and served to reviewers', async () => {
    const { callId } = await talkingCall(t.app, agentId);
    const jpeg = await postShot(callId, 'id_front', TEST_JPEG);
    expect(jpeg.statusCode, jpeg.body).toBe(201);
    expect(jpeg.json<CallScreenshot>()).toMatchObject({
      call: callId,
      kind: 'id_front',
      content_type: 'image/jpeg',
      size: TEST_JPEG.length,
      sha256: sha256(TEST_JPEG),
      created_by: agentId,
      deleted: false,
    });
    const png = await postShot(callId, 'face_screenshot', PNG, 'image/png');
    expect(png.statusCode, png.body).toBe(201);
    expect(png.json<CallScreenshot>().content_type).toBe('image/png');

    const list = await get<CallScreenshot[]>(t.app, `/api/v2/videocall/${callId}/screenshots`, tokens.admin);
    expect(list.status).toBe(200);
    expect(list.body.map((s) => [s.kind, s.sha256])).toEqual([
      ['id_front', sha256(TEST_JPEG)],
      ['face_screenshot', sha256(PNG)],
    ]);
    const image = await t.app.inject({
      method: 'GET',
      url: `/api/v2/videocall/${callId}/screenshots/${png.json<CallScreenshot>().id}`,
      headers: bearer(tokens.admin),
    });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(PNG)).toBe(true);
    // The call permission is the recording's: a viewer without it sees neither list nor image.
    expect((await get(t.app, `/api/v2/videocall/${callId}/screenshots`, tokens.viewer)).status).toBe(403);
  });

  it('refuses a step that takes none, a call not talking, and keeps nothing', async () => {
    const { callId } = await talkingCall(t.app, agentId);
    const consent = await postShot(callId, 'consent', TEST_JPEG);
    expect(consent.statusCode).toBe(400);
    expect(consent.json<{ detail: string }>().detail).toContain('kind');
    await endCall(callId);
    const ended = await postShot(callId, 'id_front', TEST_JPEG);
    expect(ended.statusCode).toBe(409);
    expect(ended.json()).toEqual({ detail: 'Screenshots are taken while the call is talking' });
    const rows = await t.app.ctx.db
      .select()
      .from(videoCallScreenshots)
      .where(eq(videoCallScreenshots.callId, callId));
    expect(rows).toHaveLength(0);
  });
});

describe('a passed step that needs a screenshot', () => {
  it('is refused with 400 without a screenshot of this call, and recorded with one', async () => {
    const { callId } = await talkingCall(t.app, agentId);
    const bare = await postStep(callId, { kind: 'id_back', result: 'passed', offset_ms: 1000 });
    expect(bare.statusCode).toBe(400);
    expect(bare.json()).toEqual({
      detail:
        'A passed id_back needs a screenshot of this call in details.screenshots (POST /videocall/{id}/screenshots first)',
    });
    // A failed result needs none.
    expect((await postStep(callId, { kind: 'id_back', result: 'failed', offset_ms: 1200 })).statusCode).toBe(
      201,
    );
    // A screenshot taken for another step does not prove this one.
    const front = await takeScreenshot(t.app, tokens.agent, callId, 'id_front');
    const wrongKind = await postStep(callId, {
      kind: 'id_back',
      result: 'passed',
      details: { screenshots: [front] },
      offset_ms: 1500,
    });
    expect(wrongKind.statusCode).toBe(400);
    expect(wrongKind.json<{ detail: string }>().detail).toBe(
      `details.screenshots: ${front} is not a id_back screenshot of this call`,
    );
    const back = await takeScreenshot(t.app, tokens.agent, callId, 'id_back');
    const ok = await postStep(callId, {
      kind: 'id_back',
      result: 'passed',
      details: { screenshots: [back] },
      offset_ms: 2000,
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const steps = await get<CallStep[]>(t.app, `/api/v2/videocall/${callId}/steps`, tokens.agent);
    expect(steps.body.map((s) => [s.kind, s.result])).toEqual([
      ['id_back', 'failed'],
      ['id_back', 'passed'],
    ]);
  });

  it('needs one screenshot per ticked security-feature category', async () => {
    const { callId } = await talkingCall(t.app, agentId);
    const shots = [
      await takeScreenshot(t.app, tokens.agent, callId, 'security_features'),
      await takeScreenshot(t.app, tokens.agent, callId, 'security_features'),
    ];
    const categories = ['holograms_kinegrams', 'material', 'security_printing'];
    const short = await postStep(callId, {
      kind: 'security_features',
      result: 'passed',
      details: { categories, screenshots: shots },
      offset_ms: 3000,
    });
    expect(short.statusCode).toBe(400);
    expect(short.json<{ detail: string }>().detail).toContain('needs 3 screenshots');
    shots.push(await takeScreenshot(t.app, tokens.agent, callId, 'security_features'));
    const ok = await postStep(callId, {
      kind: 'security_features',
      result: 'passed',
      details: { categories, screenshots: shots },
      offset_ms: 3500,
    });
    expect(ok.statusCode, ok.body).toBe(201);
  });
});

describe('the evidence package of a call with screenshots', () => {
  it('holds every screenshot and steps.json, all in the signed manifest that `sha256sum -c` accepts', async () => {
    const { callId } = await talkingCall(t.app, agentId, 2);
    const face = await takeScreenshot(t.app, tokens.agent, callId, 'face_screenshot', PNG);
    const front1 = await takeScreenshot(t.app, tokens.agent, callId, 'id_front');
    const front2 = await takeScreenshot(t.app, tokens.agent, callId, 'id_front');
    expect(
      (
        await postStep(callId, {
          kind: 'face_screenshot',
          result: 'passed',
          details: { screenshots: [face] },
          offset_ms: 4_000,
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await postStep(callId, {
          kind: 'id_front',
          result: 'passed',
          details: { screenshots: [front1, front2] },
          offset_ms: 9_500,
        })
      ).statusCode,
    ).toBe(201);
    await endCall(callId);

    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v2/videocall/${callId}/evidence`,
      headers: bearer(tokens.admin),
    });
    expect(response.statusCode).toBe(200);
    const dir = unpack(response.rawPayload);
    const check = spawnSync('sha256sum', ['-c', 'manifest.sha256'], { cwd: dir, encoding: 'utf8' });
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
      'images/step-face_screenshot-1.png',
      'images/step-id_front-1.jpg',
      'images/step-id_front-2.jpg',
      'README.txt',
      'public_key.pem',
    ]);
    expect(readFileSync(join(dir, 'images/step-face_screenshot-1.png')).equals(PNG)).toBe(true);
    expect(readFileSync(join(dir, 'images/step-id_front-2.jpg')).equals(TEST_JPEG)).toBe(true);

    const steps = JSON.parse(readFileSync(join(dir, 'steps.json'), 'utf8'));
    expect(steps.call).toBe(callId);
    expect(steps.steps).toEqual([
      {
        id: expect.any(Number),
        kind: 'face_screenshot',
        result: 'passed',
        details: { screenshots: [face] },
        offset_ms: 4_000,
        time: expect.any(String),
        agent: { id: agentId, name: expect.any(String), email: 'agent@acme.test' },
      },
      expect.objectContaining({
        kind: 'id_front',
        offset_ms: 9_500,
        details: { screenshots: [front1, front2] },
      }),
    ]);
    expect(steps.screenshots).toEqual([
      expect.objectContaining({ id: face, path: 'images/step-face_screenshot-1.png', sha256: sha256(PNG) }),
      expect.objectContaining({ id: front1, path: 'images/step-id_front-1.jpg', deleted: false }),
      expect.objectContaining({ id: front2, path: 'images/step-id_front-2.jpg', sha256: sha256(TEST_JPEG) }),
    ]);
    const call = JSON.parse(readFileSync(join(dir, 'call.json'), 'utf8'));
    expect(call.files).toEqual(expect.arrayContaining(['steps.json', 'images/step-id_front-2.jpg']));

    const key = await get<{ public_key_pem: string }>(t.app, '/api/v2/evidence/public_key');
    const signature = Buffer.from(readFileSync(join(dir, 'manifest.sha256.sig'), 'utf8').trim(), 'base64');
    expect(verify(null, manifest, createPublicKey(key.body.public_key_pem), signature)).toBe(true);
    // The report lists the steps with their offsets, results and screenshots.
    const report = pdfText(readFileSync(join(dir, 'report.pdf')));
    expect(report).toContain('0:04.000 in the recording');
    expect(report).toContain('face_screenshot: passed');
    expect(report).toContain('0:09.500 in the recording');
    expect(report).toContain('id_front: passed');
  });
});

describe('retention of screenshots', () => {
  it('deletes the screenshots of a call past the retention with it, keeps those of a held profile', async () => {
    const shotsOf = (callId: number) =>
      t.app.ctx.db.select().from(videoCallScreenshots).where(eq(videoCallScreenshots.callId, callId));
    const { callId: old } = await talkingCall(t.app, agentId, 4);
    const { callId: held } = await talkingCall(t.app, agentId, 5);
    for (const id of [old, held]) await takeScreenshot(t.app, tokens.agent, id, 'id_front');
    for (const id of [old, held]) await endCall(id, 1827 * DAY_MS);
    const oldKey = (await shotsOf(old))[0]?.storageKey as string;
    const hold = await t.app.inject({
      method: 'PUT',
      url: '/api/v2/profile/5/legal_hold',
      headers: bearer(tokens.admin),
      payload: { hold: true, reason: 'Court order 2026/18 keeps this file' },
    });
    expect(hold.statusCode).toBe(200);

    // Neither call has a recording: the screenshots alone make them due.
    expect(await runEvidenceRetention(t.app.ctx.db, t.app.ctx.storage)).toBeGreaterThanOrEqual(1);
    const [gone] = await shotsOf(old);
    expect(gone).toMatchObject({ storageKey: null, size: null, sha256: sha256(TEST_JPEG) });
    expect(await t.app.ctx.storage.size(oldKey)).toBeNull();
    expect((await shotsOf(held))[0]?.storageKey).not.toBeNull();
    const [audit] = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'evidence_deleted'), eq(auditLog.objectId, String(old))));
    expect(audit?.before).toMatchObject({ screenshots: 1 });
    // Listed as deleted, the image is 404, the package names it missing and still checks.
    const list = await get<CallScreenshot[]>(t.app, `/api/v2/videocall/${old}/screenshots`, tokens.admin);
    expect(list.body[0]?.deleted).toBe(true);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v2/videocall/${old}/screenshots/${gone?.id}`,
          headers: bearer(tokens.admin),
        })
      ).statusCode,
    ).toBe(404);
    const dir = unpack(
      (
        await t.app.inject({
          method: 'GET',
          url: `/api/v2/videocall/${old}/evidence`,
          headers: bearer(tokens.admin),
        })
      ).rawPayload,
    );
    expect(spawnSync('sha256sum', ['-c', 'manifest.sha256'], { cwd: dir }).status).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'call.json'), 'utf8')).missing_files).toEqual([
      'images/step-id_front-1.jpg',
    ]);
  });
});
