/**
 * The screenshots of a call. Only the call's own agent stores one, only a JPEG or PNG by its first
 * bytes and within the size limit; another company's call is 404; extreme ids answer 4xx, never 500; a step
 * result naming a screenshot of another call or company is refused; nothing is stored on any refusal.
 */
import { Readable } from 'node:stream';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SCREENSHOT_BYTES } from '#contract/identProcedure';
import { videoCallScreenshots, videoCallSteps } from '../../server/db/schema';
import { createCall } from '../../server/domain/videocalls/lifecycle';
import {
  bearer,
  PASSWORDS,
  startTestApp,
  TEST_JPEG,
  type TestApp,
  takeScreenshot,
  talkingCall,
  tokenFor,
  userId,
} from '../server/helpers';

let t: TestApp;
const tokens = { agent: '', admin: '', globex: '', other: '' };
let callId = 0;

beforeAll(async () => {
  t = await startTestApp();
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
  ({ callId } = await talkingCall(t.app, await userId(t.app, 'agent@acme.test')));
});
afterAll(async () => t?.close());

const shoot = (
  id: number | string,
  payload: Buffer | string,
  { token = tokens.agent, type = 'image/jpeg', kind = 'id_front' } = {},
) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v2/videocall/${id}/screenshots?kind=${kind}`,
    headers: { ...bearer(token), 'content-type': type },
    payload,
  });

const stored = async () => {
  const [row] = await t.app.ctx.db.select({ n: count() }).from(videoCallScreenshots);
  return row?.n ?? 0;
};

describe('storing a screenshot', () => {
  it("is the call's agent's only: the company's Admin gets 403, another company 404, and nothing is stored", async () => {
    const before = await stored();
    const admin = await shoot(callId, TEST_JPEG, { token: tokens.admin });
    expect(admin.statusCode).toBe(403);
    expect(admin.json()).toEqual({ detail: 'Only the agent of the call can take its screenshots' });
    const globex = await shoot(callId, TEST_JPEG, { token: tokens.globex });
    expect(globex.statusCode).toBe(404);
    expect(globex.json()).toEqual({ detail: 'Not found.' });
    // A call of the company not answered by this agent (waiting): 403 as well.
    const waiting = await createCall(t.app.ctx.db, 1, 2);
    expect((await shoot(waiting.id, TEST_JPEG)).statusCode).toBe(403);
    expect(await stored()).toBe(before);
  });

  it('refuses a body that is not a JPEG or PNG by its first bytes, whatever its content type', async () => {
    const before = await stored();
    for (const [body, type] of [
      ['<svg xmlns="http://www.w3.org/2000/svg"/>', 'image/jpeg'],
      [Buffer.from('%PDF-1.7 not an image'), 'image/png'],
      [Buffer.from('RIFF\0\0\0\0WEBPVP8 '), 'image/jpeg'],
      [Buffer.alloc(0), 'image/jpeg'],
      ['{"image":"x"}', 'application/json'],
      ['plain text', 'text/plain'],
    ] as const) {
      const response = await shoot(callId, body, { type });
      expect(response.statusCode, type).toBe(400);
      expect(response.json<{ detail: string }>().detail).toBe(
        'The screenshot must be a JPEG or PNG image (checked by its first bytes)',
      );
    }
    const other = await shoot(callId, TEST_JPEG, { type: 'application/octet-stream' });
    expect(other.statusCode).toBe(415);
    expect(other.json()).toHaveProperty('detail');
    expect(await stored()).toBe(before);
  });

  it('refuses a body over the limit with 413, and stores nothing (nor leaves a file)', async () => {
    const before = await stored();
    const big = Buffer.concat([TEST_JPEG.subarray(0, 4), Buffer.alloc(MAX_SCREENSHOT_BYTES)]);
    const response = await shoot(callId, big);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ detail: 'A screenshot may be at most 5 MB' });
    expect(await stored()).toBe(before);
    const files = [];
    for await (const file of t.app.ctx.storage.list('screenshots/')) files.push(file.key);
    expect(files).toHaveLength(before);
  });

  it('answers 400 or 404, never 500, to extreme call, screenshot and kind values', async () => {
    for (const id of ['9007199254740992', '2147483648', '-1', '0', '1e3', '%00', '1%00', 'abc']) {
      const post = await shoot(id, TEST_JPEG);
      expect([400, 404], `POST ${id}`).toContain(post.statusCode);
      expect(post.json(), id).toHaveProperty('detail');
      for (const url of [
        `/api/v2/videocall/${id}/screenshots`,
        `/api/v2/videocall/${id}/screenshots/1`,
        `/api/v2/videocall/${callId}/screenshots/${id}`,
      ]) {
        const read = await t.app.inject({ method: 'GET', url, headers: bearer(tokens.admin) });
        expect([400, 404], url).toContain(read.statusCode);
        expect(read.json(), url).toHaveProperty('detail');
      }
    }
    for (const kind of ['decision', 'ID_FRONT', '%00', 'x'.repeat(10_000)]) {
      const response = await shoot(callId, TEST_JPEG, { kind });
      expect(response.statusCode, kind.slice(0, 20)).toBe(400);
    }
  });
});

describe('a step result naming screenshots', () => {
  it('refuses the screenshot of another call, of another company, unknown or extreme ids: 400, nothing stored', async () => {
    const agentId = await userId(t.app, 'agent@acme.test');
    const { callId: otherCall } = await talkingCall(t.app, agentId, 2);
    const foreign = await takeScreenshot(t.app, tokens.agent, otherCall, 'id_front');
    // A screenshot of a Globex call, stored directly (Globex has no agent seeded in a talking call here), its
    // file too: every screenshot row has its file, which the size-limit test counts.
    const globexCall = await createCall(t.app.ctx.db, 2, await globexProfile());
    await t.app.ctx.storage.put('screenshots/globex.jpg', Readable.from([TEST_JPEG]));
    const [globexShot] = await t.app.ctx.db
      .insert(videoCallScreenshots)
      .values({
        callId: globexCall.id,
        kind: 'id_front',
        storageKey: 'screenshots/globex.jpg',
        contentType: 'image/jpeg',
        size: 1,
        sha256: '0'.repeat(64),
      })
      .returning({ id: videoCallScreenshots.id });
    const [stepsBefore] = await t.app.ctx.db
      .select({ n: count() })
      .from(videoCallSteps)
      .where(eq(videoCallSteps.callId, callId));
    for (const screenshots of [
      [foreign],
      [globexShot?.id],
      [2147483647],
      [2 ** 53],
      [-1],
      [1.5],
      ['1e3'],
      ['1\u0000'],
      'not a list',
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/v2/videocall/${callId}/steps`,
        headers: bearer(tokens.agent),
        payload: { kind: 'id_front', result: 'passed', details: { screenshots }, offset_ms: 100 },
      });
      expect(response.statusCode, JSON.stringify(screenshots)).toBe(400);
      expect(response.json(), JSON.stringify(screenshots)).toHaveProperty('detail');
    }
    const [stepsAfter] = await t.app.ctx.db
      .select({ n: count() })
      .from(videoCallSteps)
      .where(eq(videoCallSteps.callId, callId));
    expect(stepsAfter?.n).toBe(stepsBefore?.n);
    // And another company never reads this call's screenshots.
    const mine = await takeScreenshot(t.app, tokens.agent, callId, 'id_front');
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/v2/videocall/${callId}/screenshots/${mine}`,
      headers: bearer(tokens.globex),
    });
    expect(read.statusCode).toBe(404);
    // Nor this company another call's screenshot through this call's address.
    const through = await t.app.inject({
      method: 'GET',
      url: `/api/v2/videocall/${callId}/screenshots/${foreign}`,
      headers: bearer(tokens.admin),
    });
    expect(through.statusCode).toBe(404);
  });
});

async function globexProfile(): Promise<number> {
  const { profiles } = await import('../../server/db/schema');
  const [row] = await t.app.ctx.db
    .select({ id: profiles.id })
    .from(profiles)
    .where(eq(profiles.companyId, 2));
  if (!row) throw new Error('no Globex profile in the seed');
  return row.id;
}
