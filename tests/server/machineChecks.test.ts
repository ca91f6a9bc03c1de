/**
 * The machine checks beside the agent, with the real engines: the face screenshot against the ID front's
 * portrait (the shipped face model) and the ID back's MRZ (tesseract.js), on a synthetic ID card drawn by
 * scripts/sampleDocuments.ts (fixtures/id-card-*.jpg: sample face a2, and a document number whose check digit
 * is wrong). Hints only: passing the face step against "faces differ" needs a reason.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaceMatchResult, MachineCheck, MrzResult } from '#contract/machineChecks';
import { profiles } from '../../server/db/schema';
import { sampleFacePhoto } from '../../server/integrations/faceSamples';
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

const FRONT = readFileSync(join(import.meta.dirname, 'fixtures', 'id-card-front.jpg'));
const BACK = readFileSync(join(import.meta.dirname, 'fixtures', 'id-card-back.jpg'));

let t: TestApp;
const tokens = { agent: '', admin: '', other: '' };
let agentId = 0;

beforeAll(async () => {
  t = await startTestApp();
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.other = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
  agentId = await userId(t.app, 'agent@acme.test');
  // The card's holder, as on file: the name with its Turkish letters, the date of birth, the nationality.
  await t.app.ctx.db
    .update(profiles)
    .set({ name: 'Ayşe Gül Yılmaz', dateOfBirth: '1990-02-15', nationality: 'TR' })
    .where(eq(profiles.id, 1));
});
afterAll(async () => t?.close());

async function checksOf(callId: number): Promise<MachineCheck[]> {
  await t.app.machineChecks.settled();
  const response = await get<MachineCheck[]>(t.app, `/api/v2/videocall/${callId}/checks`, tokens.admin);
  expect(response.status).toBe(200);
  return response.body;
}

const faceOf = (checks: MachineCheck[]) =>
  checks.filter((c) => c.kind === 'face_match').at(-1)?.result as FaceMatchResult | undefined;

describe('a guided call with an ID card', () => {
  it('hints the same person, reads the MRZ, catches its wrong check digit and compares it with the profile', async () => {
    const { callId } = await talkingCall(t.app, agentId);
    await takeScreenshot(t.app, tokens.agent, callId, 'face_screenshot', sampleFacePhoto('a1'));
    await takeScreenshot(t.app, tokens.agent, callId, 'id_front', FRONT);
    const backId = await takeScreenshot(t.app, tokens.agent, callId, 'id_back', BACK);
    const checks = await checksOf(callId);

    const face = faceOf(checks);
    expect(face?.outcome).toBe('likely_same');
    expect(face?.similarity).toBeGreaterThanOrEqual(face?.threshold ?? 1);

    const mrz = checks.find((c) => c.kind === 'mrz' && c.screenshots.includes(backId));
    expect(mrz?.status).toBe('done');
    expect(mrz?.engine.name).toBe('tesseract.js');
    const result = mrz?.result as MrzResult;
    expect(result.outcome).toBe('read');
    expect(result.reading?.fields).toMatchObject({
      document_number: 'A12B34567',
      last_name: 'YILMAZ',
      first_names: 'AYSE GUL',
      birth_date: '1990-02-15',
      expiry_date: '2031-01-01',
      nationality: 'TUR',
    });
    expect(result.reading?.check_digits).toMatchObject({
      document_number: false,
      birth_date: true,
      expiry_date: true,
    });
    expect(result.reading?.expired).toBe(false);
    const cross = Object.fromEntries(result.cross_checks.map((c) => [c.field, c.result]));
    expect(cross).toMatchObject({
      last_name: 'agrees',
      first_names: 'agrees',
      birth_date: 'agrees',
      nationality: 'agrees',
      typed_serial: 'not_read',
    });
  });

  it('a pass of the face step against "faces differ" needs a reason', async () => {
    const { callId } = await talkingCall(t.app, agentId);
    const face = await takeScreenshot(t.app, tokens.agent, callId, 'face_screenshot', sampleFacePhoto('c'));
    await takeScreenshot(t.app, tokens.agent, callId, 'id_front', FRONT);
    expect(faceOf(await checksOf(callId))?.outcome).toBe('differ');
    const step = (details: object) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v2/videocall/${callId}/steps`,
        headers: bearer(tokens.agent),
        payload: { kind: 'face_screenshot', result: 'passed', offset_ms: 1000, details },
      });
    const refused = await step({ screenshots: [face] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().detail).toMatch(/faces differ/);
    const failed = await t.app.inject({
      method: 'POST',
      url: `/api/v2/videocall/${callId}/steps`,
      headers: bearer(tokens.agent),
      payload: { kind: 'face_screenshot', result: 'failed', offset_ms: 1000, details: {} },
    });
    expect(failed.statusCode).toBe(201);
    const passed = await step({
      screenshots: [face],
      override_reason: 'Portrait is 12 years old; checked ears',
    });
    expect(passed.statusCode, passed.body).toBe(201);
  });

  it('an image that is no picture says so instead of failing', async () => {
    const { callId } = await talkingCall(t.app, agentId);
    await takeScreenshot(t.app, tokens.agent, callId, 'face_screenshot', sampleFacePhoto('a1'));
    await takeScreenshot(t.app, tokens.agent, callId, 'id_front', TEST_JPEG);
    await takeScreenshot(t.app, tokens.agent, callId, 'id_back', TEST_JPEG);
    const checks = await checksOf(callId);
    expect(faceOf(checks)?.outcome).toBe('no_face_on_id');
    const mrz = checks.filter((c) => c.kind === 'mrz');
    expect(mrz.map((c) => c.status)).toEqual(['done', 'done']);
    expect(mrz.map((c) => (c.result as MrzResult).outcome)).toEqual(['not_found', 'not_found']);
  });

  it("another company's call is 404", async () => {
    const { callId } = await talkingCall(t.app, agentId);
    const response = await get(t.app, `/api/v2/videocall/${callId}/checks`, tokens.other);
    expect(response.status).toBe(404);
  });
});
