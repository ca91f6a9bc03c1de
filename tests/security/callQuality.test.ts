/**
 * A call's quality samples are bound to the call's parties. Only its agent writes the agent's
 * side, only the join link the call was created with writes the customer's side; another company reads and
 * writes nothing (404), another user of the company may read but never write in the agent's name (403).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallQuality } from '#contract/callQuality';
import type { ServerToClientEvents } from '#contract/socket';
import { answerCall } from '../../server/domain/videocalls/lifecycle';
import { bearer, get, PASSWORDS, type TestApp, tokenFor, userId } from '../server/helpers';
import { type LiveApp, liveApp } from '../server/liveSockets';

type CustomerQualityEvent = Parameters<ServerToClientEvents['call.customer_quality']>[0];

let live: LiveApp;
let t: TestApp;
const tokens = { admin: '', agent: '', viewer: '', globex: '' };
const sample = { width: 640, height: 480, fps: 30, loss_pct: 0, kbps: 900, audio_level: 0.2 };

beforeAll(async () => {
  live = await liveApp();
  t = live.t;
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.viewer = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
  tokens.globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
});
afterAll(async () => live?.close());

let links = 0;
/**
 * Each test's own call of profile 3, made by the customer's own join link and answered by the agent: no test
 * reads the samples another one wrote. Every link has another lifetime, so never the same token twice.
 */
async function answeredCall(): Promise<{ callId: number; customer: string }> {
  links += 1;
  const customer = await t.app.ctx.tokens.signCustomer({ profile_id: 3, company_id: 1 }, 3600 + links);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v2/videocall',
    headers: bearer(customer),
    payload: { profile: 3, status: 0 },
  });
  const callId = (created.json() as { id: number }).id;
  await answerCall(t.app.ctx.db, 1, callId, await userId(t.app, 'agent@acme.test'));
  return { callId, customer };
}

const send = (token: string, side: 'agent' | 'customer', id: number) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v2/videocall/${id}/quality${side === 'customer' ? '/customer' : ''}`,
    payload: { samples: [sample] },
    headers: bearer(token),
  });

const sides = async (callId: number) =>
  (await get<CallQuality>(t.app, `/api/v2/videocall/${callId}/quality`, tokens.admin)).body.samples.map(
    (s) => s.side,
  );

describe('quality samples of a call', () => {
  it("are written by the call's agent only: an Admin or another user of the company gets 403", async () => {
    const { callId } = await answeredCall();
    expect((await send(tokens.agent, 'agent', callId)).statusCode).toBe(204);
    expect((await send(tokens.admin, 'agent', callId)).statusCode).toBe(403);
    expect((await send(tokens.viewer, 'agent', callId)).statusCode).toBe(403);
    expect(await sides(callId)).toEqual(['agent']);
  });

  it('are hidden from another company: 404 for reading and writing, and nothing is written', async () => {
    const { callId } = await answeredCall();
    expect((await send(tokens.agent, 'agent', callId)).statusCode).toBe(204);
    expect((await get(t.app, `/api/v2/videocall/${callId}/quality`, tokens.globex)).status).toBe(404);
    expect((await send(tokens.globex, 'agent', callId)).statusCode).toBe(404);
    expect(await sides(callId)).toEqual(['agent']);
  });

  it('take the customer side only from the join link the call was made with (404 for any other token)', async () => {
    const { callId, customer } = await answeredCall();
    expect((await send(tokens.agent, 'agent', callId)).statusCode).toBe(204);
    // Another link of the same profile (another lifetime: never the same token).
    const sameProfile = await t.app.ctx.tokens.signCustomer({ profile_id: 3, company_id: 1 }, 1800);
    const otherProfile = await t.app.ctx.tokens.signCustomer({ profile_id: 4, company_id: 1 }, 3600);
    const otherCompany = await t.app.ctx.tokens.signCustomer({ profile_id: 3, company_id: 2 }, 3600);
    for (const token of [sameProfile, otherProfile, otherCompany])
      expect((await send(token, 'customer', callId)).statusCode).toBe(404);
    // A staff token is no join link, and the join link is no staff token.
    expect((await send(tokens.agent, 'customer', callId)).statusCode).toBe(401);
    expect((await send(customer, 'agent', callId)).statusCode).toBe(401);
    expect((await send(customer, 'customer', callId)).statusCode).toBe(204);
    expect(await sides(callId)).toEqual(['agent', 'customer']);
  });
});

describe("the customer's figures told live", () => {
  it("reach the call's agent only: not another user of the company, nor another company", async () => {
    const { callId, customer } = await answeredCall();
    // One customer sample of the call before this batch, so that the summary covers more than the batch.
    expect((await send(customer, 'customer', callId)).statusCode).toBe(204);
    const heard = new Map<string, CustomerQualityEvent[]>();
    for (const who of ['agent', 'admin', 'viewer', 'globex'] as const) {
      const socket = await live.studio(tokens[who]);
      heard.set(who, []);
      socket.on('call.customer_quality', (event: CustomerQualityEvent) => heard.get(who)?.push(event));
    }
    const poor = { ...sample, width: 320, height: 240 };
    const posted = await t.app.inject({
      method: 'POST',
      url: `/api/v2/videocall/${callId}/quality/customer`,
      payload: { samples: [sample, poor] },
      headers: bearer(customer),
    });
    expect(posted.statusCode).toBe(204);
    await expect.poll(() => heard.get('agent')?.length, { timeout: 5000 }).toBe(1);
    const [event] = heard.get('agent') ?? [];
    expect(event?.call_id).toBe(callId);
    // The last sample of the batch, and the summary of every customer sample of the call so far.
    expect(event?.sample).toEqual(poor);
    expect(event?.summary).toMatchObject({ count: 3, height: { min: 240, max: 480 } });
    expect(event?.summary.issues).toEqual([]);
    // Whatever reached the agent had time to reach the others too.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard.get('admin')).toEqual([]);
    expect(heard.get('viewer')).toEqual([]);
    expect(heard.get('globex')).toEqual([]);
  });
});
