/**
 * A join link is bound to the calls it created: every customer route and the customer's socket refuse a call of
 * another link of the same profile (404, nothing recorded). And a link starts one call; after a technical abort
 * (MISSED, BAD QUALITY, CONNECTION ERROR, DISCONNECTED) as many more as the company's `join_link_retries` allow;
 * any other ending uses it up (409 with JOIN_LINK_USED), also under a burst of concurrent starts.
 */
import { and, count, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOIN_LINK_USED } from '#contract/constants';
import { auditLog, videoCallSteps, videoCalls } from '../../server/db/schema';
import { answerCall, hangUpCall, missCall } from '../../server/domain/videocalls/lifecycle';
import { bearer, get, PASSWORDS, type TestApp, tokenFor, userId } from '../server/helpers';
import { type LiveApp, liveApp } from '../server/liveSockets';
import { testConfig } from '../server/testConfig';

let live: LiveApp;
let t: TestApp;
const tokens = { admin: '', agent: '' };
let agentId = 0;
const PROFILE = 2;

beforeAll(async () => {
  // Many calls come from one test address: the per-address limit is not what is tested here.
  const limits = { ...testConfig('/tmp').limits, callsPerAddressPerHour: 10_000 };
  live = await liveApp({ limits });
  t = live.t;
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  agentId = await userId(t.app, 'agent@acme.test');
});
afterAll(() => live?.close());

/** A new join link of the profile, as the studio makes it. */
async function newLink(profile = PROFILE): Promise<string> {
  const made = await t.app.inject({
    method: 'POST',
    url: '/api/v2/profile/url',
    payload: { profile },
    headers: bearer(tokens.admin),
  });
  expect(made.statusCode).toBe(200);
  return made.json<{ token: string }>().token;
}

/** The customer page starts (or takes up again) the link's call. */
const start = (link: string, profile = PROFILE) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v2/videocall',
    payload: { profile, status: 0 },
    headers: bearer(link),
  });

async function started(link: string): Promise<number> {
  const answer = await start(link);
  expect(answer.statusCode).toBe(201);
  return answer.json<{ id: number }>().id;
}

/** The agent answers the call and ends it with `status`. */
async function endWith(callId: number, status: number) {
  expect(await answerCall(t.app.ctx.db, 1, callId, agentId)).not.toBeNull();
  const set = await t.app.inject({
    method: 'PUT',
    url: `/api/v2/videocall/${callId}`,
    payload: { status },
    headers: bearer(tokens.agent),
  });
  expect(set.statusCode, set.body).toBe(200);
}

const callsOf = async (profile = PROFILE) =>
  (
    await t.app.ctx.db
      .select({ n: count() })
      .from(videoCalls)
      .where(and(eq(videoCalls.companyId, 1), eq(videoCalls.profileId, profile)))
  )[0]?.n ?? 0;

const setRetries = (joinLinkRetries: unknown, token = tokens.admin) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/v2/call_routing',
    payload: { call_routing: 'ring_all', offer_seconds: 15, join_link_retries: joinLinkRetries },
    headers: bearer(token),
  });

async function retries(value: number) {
  const set = await setRetries(value);
  expect(set.statusCode, set.body).toBe(200);
  expect(set.json<{ join_link_retries: number }>().join_link_retries).toBe(value);
}

describe('a call answers only the link that created it', () => {
  it('another link of the same profile gets 404 on every guided route and on quality, and its socket is refused', async () => {
    const own = await newLink();
    const other = await newLink();
    const callId = await started(own);
    expect(await answerCall(t.app.ctx.db, 1, callId, agentId)).not.toBeNull();
    const steps = async () =>
      (
        await t.app.ctx.db
          .select({ n: count() })
          .from(videoCallSteps)
          .where(eq(videoCallSteps.callId, callId))
      )[0]?.n;
    const before = await steps();

    const routes = (link: string) => [
      t.app.inject({
        method: 'GET',
        url: `/api/v2/videocall/guide?call_id=${callId}`,
        headers: bearer(link),
      }),
      t.app.inject({
        method: 'POST',
        url: '/api/v2/videocall/serial_number',
        payload: { call_id: callId, serial_number: 'A12345678' },
        headers: bearer(link),
      }),
      t.app.inject({
        method: 'POST',
        url: '/api/v2/videocall/code',
        payload: { call_id: callId, code: '123456' },
        headers: bearer(link),
      }),
      t.app.inject({
        method: 'POST',
        url: `/api/v2/videocall/${callId}/quality/customer`,
        payload: {
          samples: [{ width: 640, height: 480, fps: 25, loss_pct: 0, kbps: 800, audio_level: 0.2 }],
        },
        headers: bearer(link),
      }),
    ];
    for (const answer of await Promise.all(routes(other))) {
      expect(answer.statusCode, answer.body).toBe(404);
      expect(answer.json()).toEqual({ detail: 'Not found.' });
    }
    expect(await steps()).toBe(before);
    await expect(live.connect({ customer: other, call_id: callId })).rejects.toThrow(
      'Token is invalid or expired',
    );

    // The call's own link passes the same gate (whatever the step rules then answer), so the 404s mean the link.
    const mine = await Promise.all(routes(own));
    expect(mine.map((answer) => answer.statusCode)).not.toContain(404);
    expect(mine[0]?.statusCode).toBe(200);
    expect(mine[1]?.statusCode).toBe(200);
    expect(mine[3]?.statusCode).toBe(204);
    const socket = await live.connect({ customer: own, call_id: callId });
    expect(socket.connected).toBe(true);
  });
});

describe('a link starts one call', () => {
  it('after a completed call the link is refused with the message, and no call is made', async () => {
    const link = await newLink();
    await endWith(await started(link), 3);
    const before = await callsOf();
    const again = await start(link);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ detail: JOIN_LINK_USED });
    expect(await callsOf()).toBe(before);
    // A new link starts the next call.
    expect((await start(await newLink())).statusCode).toBe(201);
  });

  it('while its call waits or talks, the link takes it up again (200), as before', async () => {
    const link = await newLink();
    const callId = await started(link);
    const again = await start(link);
    expect(again.statusCode).toBe(200);
    expect(again.json<{ id: number }>().id).toBe(callId);
    await endWith(callId, 7);
  });

  it('after a technical abort one retry by default, the second refused', async () => {
    const link = await newLink();
    await endWith(await started(link), 7);
    const retry = await started(link);
    await endWith(retry, 8);
    const refused = await start(link);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ detail: JOIN_LINK_USED });
  });

  it('a retry that ends otherwise uses the link up, even with retries left', async () => {
    await retries(3);
    try {
      const link = await newLink();
      await endWith(await started(link), 6);
      await endWith(await started(link), 4);
      expect((await start(link)).statusCode).toBe(409);
    } finally {
      await retries(1);
    }
  });

  it('with the setting 0 no retry; with 2, two (a missed and a hung-up call count as aborts)', async () => {
    await retries(0);
    try {
      const none = await newLink();
      await endWith(await started(none), 7);
      expect((await start(none)).statusCode).toBe(409);

      await retries(2);
      const two = await newLink();
      const first = await started(two);
      expect(await missCall(t.app.ctx.db, first)).toBe(true);
      const second = await started(two);
      expect(await answerCall(t.app.ctx.db, 1, second, agentId)).not.toBeNull();
      expect(await hangUpCall(t.app.ctx.db, second)).toBe(true);
      const third = await started(two);
      await endWith(third, 8);
      const refused = await start(two);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({ detail: JOIN_LINK_USED });
    } finally {
      await retries(1);
    }
  });

  it('concurrent starts after an ended call make at most the allowed calls', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 }),
        fc.constantFrom(3, 4, 6, 7),
        fc.integer({ min: 2, max: 10 }),
        async (allowed, status, burst) => {
          await retries(allowed);
          const link = await newLink();
          await endWith(await started(link), status);
          const before = await callsOf();
          const answers = await Promise.all(Array.from({ length: burst }, () => start(link)));
          const made = answers.filter((a) => a.statusCode === 201);
          const retryable = status === 6 || status === 7;
          // A started call is open: the rest of the burst takes it up (200), never a call of its own.
          expect(made.length).toBe(retryable && allowed > 0 ? 1 : 0);
          expect(await callsOf()).toBe(before + made.length);
          for (const answer of answers) {
            if (answer.statusCode === 409) expect(answer.json()).toEqual({ detail: JOIN_LINK_USED });
            else expect(answer.statusCode === 200 || answer.statusCode === 201).toBe(true);
          }
          if (made.length === 0) expect(answers.every((a) => a.statusCode === 409)).toBe(true);
          else {
            const ids = new Set(answers.map((a) => a.json<{ id: number }>().id));
            expect(ids.size).toBe(1);
            await endWith([...ids][0] ?? 0, 8);
          }
        },
      ),
      { numRuns: 6 },
    );
    await retries(1);
  });
});

describe('the join_link_retries setting', () => {
  it('is in the call settings, 1 by default', async () => {
    const { status, body } = await get<{ join_link_retries: number }>(
      t.app,
      '/api/v2/call_routing',
      tokens.admin,
    );
    expect(status).toBe(200);
    expect(body.join_link_retries).toBe(1);
  });

  it('refuses bad input with 400 and a detail, changing nothing; only Admins change it, audited', async () => {
    const audits = async () =>
      (
        await t.app.ctx.db
          .select({ n: count() })
          .from(auditLog)
          .where(eq(auditLog.action, 'call_routing_changed'))
      )[0]?.n ?? 0;
    const before = await audits();
    for (const bad of [-1, 6, 1.5, '1', null, 2 ** 53, true]) {
      const refused = await setRetries(bad);
      expect(refused.statusCode, String(bad)).toBe(400);
      expect(refused.json<{ detail: string }>().detail).toMatch(/join_link_retries/);
    }
    expect((await setRetries(3, tokens.agent)).statusCode).toBe(403);
    expect(
      (await get<{ join_link_retries: number }>(t.app, '/api/v2/call_routing', tokens.admin)).body,
    ).toMatchObject({ join_link_retries: 1 });
    expect(await audits()).toBe(before);

    await retries(4);
    const [entry] = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'call_routing_changed'))
      .orderBy(auditLog.id)
      .limit(1)
      .offset(before);
    expect(entry?.before).toMatchObject({ join_link_retries: 1 });
    expect(entry?.after).toMatchObject({ join_link_retries: 4 });
    // Without the field the routing changes and the retries stay.
    const kept = await t.app.inject({
      method: 'PUT',
      url: '/api/v2/call_routing',
      payload: { call_routing: 'ring_all', offer_seconds: 20 },
      headers: bearer(tokens.admin),
    });
    expect(kept.json()).toEqual({ call_routing: 'ring_all', offer_seconds: 20, join_link_retries: 4 });
    await retries(1);
  });
});
