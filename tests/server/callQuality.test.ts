/**
 * The quality of a call: both sides send samples of what they received, kept per call and
 * side (bounded), summarised with min / median / max and the issues, read with the call's steps' permission.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallQuality, MAX_QUALITY_SAMPLES, type QualitySample } from '#contract/callQuality';
import { videoCallQuality, videoCalls } from '../../server/db/schema';
import { callQualityOf } from '../../server/domain/callQuality';
import { answerCall } from '../../server/domain/videocalls/lifecycle';
import { bearer, get, PASSWORDS, startTestApp, type TestApp, tokenFor, userId } from './helpers';

let t: TestApp;
const tokens = { admin: '', agent: '', viewer: '' };
let agentId = 0;

const good: QualitySample = { width: 640, height: 480, fps: 30, loss_pct: 0, kbps: 900, audio_level: 0.2 };
const poor: QualitySample = { width: 320, height: 240, fps: 8, loss_pct: 12, kbps: 150, audio_level: 0.2 };

beforeAll(async () => {
  t = await startTestApp();
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.viewer = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
  agentId = await userId(t.app, 'agent@acme.test');
});
afterAll(async () => t?.close());

/** A call the customer joined with a link (as the join page does), answered by the agent unless told not. */
async function customerCall(profile: number, answered = true) {
  const customer = await t.app.ctx.tokens.signCustomer({ profile_id: profile, company_id: 1 }, 3600);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v2/videocall',
    headers: bearer(customer),
    payload: { profile, status: 0 },
  });
  const callId = (created.json() as { id: number }).id;
  if (answered) await answerCall(t.app.ctx.db, 1, callId, agentId);
  return { callId, customer };
}

const send = (token: string, callId: number, payload: unknown, who: 'agent' | 'customer' = 'agent') =>
  t.app.inject({
    method: 'POST',
    url: `/api/v2/videocall/${callId}/quality${who === 'customer' ? '/customer' : ''}`,
    payload: payload as object,
    headers: { ...bearer(token), 'content-type': 'application/json' },
  });

const stored = async (callId: number) =>
  (await t.app.ctx.db.select().from(videoCallQuality).where(eq(videoCallQuality.callId, callId))).length;

describe('call quality', () => {
  it('keeps both sides’ samples and answers each side’s min / median / max and issues', async () => {
    const { callId, customer } = await customerCall(11);
    expect((await send(tokens.agent, callId, { samples: [good, good, poor] })).statusCode).toBe(204);
    expect((await send(customer, callId, { samples: [poor, poor, good] }, 'customer')).statusCode).toBe(204);
    const read = await get<CallQuality>(t.app, `/api/v2/videocall/${callId}/quality`, tokens.viewer);
    expect(read.status).toBe(200);
    expect(read.body.agent).toMatchObject({
      count: 3,
      height: { min: 240, median: 480, max: 480 },
      issues: [],
    });
    expect(read.body.customer).toMatchObject({
      count: 3,
      fps: { min: 8, median: 8, max: 30 },
      kbps: { min: 150, median: 150, max: 900 },
      issues: ['picture', 'connection'],
    });
    expect(read.body.samples.map((s) => s.side)).toEqual([
      'agent',
      'agent',
      'agent',
      'customer',
      'customer',
      'customer',
    ]);
    expect(read.body.samples[2]).toMatchObject({ ...poor, side: 'agent' });
    // The function the evidence package uses answers the same.
    expect(await callQualityOf(t.app.ctx.db, callId)).toEqual(read.body);
  });

  it('a call without samples answers null summaries; silence through the whole call is a sound issue', async () => {
    const { callId } = await customerCall(12);
    const empty = await get<CallQuality>(t.app, `/api/v2/videocall/${callId}/quality`, tokens.admin);
    expect(empty.body).toEqual({ agent: null, customer: null, samples: [] });
    const silent = { ...good, audio_level: 0 };
    await send(tokens.agent, callId, { samples: [silent, silent] });
    const two = await get<CallQuality>(t.app, `/api/v2/videocall/${callId}/quality`, tokens.admin);
    expect(two.body.agent?.issues).toEqual([]); // fewer than 3 samples: no verdict
    await send(tokens.agent, callId, { samples: [silent] });
    const three = await get<CallQuality>(t.app, `/api/v2/videocall/${callId}/quality`, tokens.admin);
    expect(three.body.agent?.issues).toEqual(['sound']);
  });

  it('refuses a call never answered (its customer 409), and one that ended more than a minute ago (409), writing nothing', async () => {
    const waiting = await customerCall(13, false);
    // Nobody answered it: no agent of it yet (403), and the customer is only waiting (409).
    expect((await send(tokens.agent, waiting.callId, { samples: [good] })).statusCode).toBe(403);
    expect((await send(waiting.customer, waiting.callId, { samples: [good] }, 'customer')).statusCode).toBe(
      409,
    );
    const ended = await customerCall(14);
    await t.app.ctx.db
      .update(videoCalls)
      .set({ status: 3, callEndTime: new Date(Date.now() - 61_000) })
      .where(eq(videoCalls.id, ended.callId));
    const late = await send(tokens.agent, ended.callId, { samples: [good] });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ detail: 'The call ended' });
    expect(await stored(waiting.callId)).toBe(0);
    expect(await stored(ended.callId)).toBe(0);
    // Within the minute after the end, the last samples in flight are kept.
    await t.app.ctx.db
      .update(videoCalls)
      .set({ callEndTime: new Date(Date.now() - 30_000) })
      .where(eq(videoCalls.id, ended.callId));
    expect((await send(tokens.agent, ended.callId, { samples: [good] })).statusCode).toBe(204);
  });

  it(`keeps at most ${MAX_QUALITY_SAMPLES} samples per side: a batch past it is 409 and nothing of it is kept`, async () => {
    const { callId, customer } = await customerCall(15);
    const row = {
      callId,
      side: 'agent',
      width: 640,
      height: 480,
      fps: 30,
      lossPct: 0,
      kbps: 900,
      audioLevel: 0.2,
    };
    await t.app.ctx.db
      .insert(videoCallQuality)
      .values(Array.from({ length: MAX_QUALITY_SAMPLES - 1 }, () => row));
    const over = await send(tokens.agent, callId, { samples: [good, good] });
    expect(over.statusCode).toBe(409);
    expect(over.json().detail).toContain(String(MAX_QUALITY_SAMPLES));
    expect(await stored(callId)).toBe(MAX_QUALITY_SAMPLES - 1);
    expect((await send(tokens.agent, callId, { samples: [good] })).statusCode).toBe(204);
    // The other side has its own bound.
    expect((await send(customer, callId, { samples: [good] }, 'customer')).statusCode).toBe(204);
  });

  it('refuses bad samples with 400 and a detail, writing nothing', async () => {
    const { callId } = await customerCall(16);
    const bad: unknown[] = [
      { samples: [] },
      { samples: Array.from({ length: 21 }, () => good) },
      { samples: [{ ...good, width: 2 ** 53 }] },
      { samples: [{ ...good, kbps: 2 ** 53 }] },
      { samples: [{ ...good, height: -1 }] },
      { samples: [{ ...good, loss_pct: -0.1 }] },
      { samples: [{ ...good, loss_pct: 100.1 }] },
      { samples: [{ ...good, audio_level: 1.5 }] },
      { samples: [{ ...good, fps: 'NaN' }] },
      { samples: [{ ...good, fps: null }] },
      { samples: [{ ...good, width: 640.5 }] },
      { samples: [{ ...good, 'side\u0000': 'customer' }] },
      { samples: [{ ...good, extra: 1 }] },
      { samples: 'good' },
      {},
    ];
    for (const payload of bad) {
      const response = await send(tokens.agent, callId, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(typeof response.json().detail).toBe('string');
    }
    // NaN and a NUL byte written raw: not JSON numbers or text the column could hold.
    for (const raw of ['{"samples":[{"width":640,"height":480,"fps":NaN}]}', '{"samples":"\u0000"}']) {
      const response = await send(tokens.agent, callId, raw);
      expect(response.statusCode).toBe(400);
    }
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/v2/videocall/${2 ** 53}/quality`,
          payload: { samples: [good] },
          headers: bearer(tokens.agent),
        })
      ).statusCode,
    ).toBe(400);
    expect(await stored(callId)).toBe(0);
  });
});
