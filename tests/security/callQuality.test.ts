/**
 * Issue 29 point 6: a call's quality samples are bound to the call's parties. Only its agent writes the agent's
 * side, only the join link the call was created with writes the customer's side; another company reads and
 * writes nothing (404), another user of the company may read but never write in the agent's name (403).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallQuality } from '#contract/callQuality';
import { answerCall } from '../../server/domain/videocalls';
import { bearer, get, PASSWORDS, startTestApp, type TestApp, tokenFor, userId } from '../server/helpers';

let t: TestApp;
const tokens = { admin: '', agent: '', viewer: '', globex: '' };
let callId = 0;
let customer = '';
const sample = { width: 640, height: 480, fps: 30, loss_pct: 0, kbps: 900, audio_level: 0.2 };

beforeAll(async () => {
  t = await startTestApp();
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.viewer = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
  tokens.globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
  customer = await t.app.ctx.tokens.signCustomer({ profile_id: 3, company_id: 1 }, 3600);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v2/videocall',
    headers: bearer(customer),
    payload: { profile: 3, status: 0 },
  });
  callId = (created.json() as { id: number }).id;
  await answerCall(t.app.ctx.db, 1, callId, await userId(t.app, 'agent@acme.test'));
});
afterAll(async () => t?.close());

const send = (token: string, side: 'agent' | 'customer' = 'agent', id = callId) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v2/videocall/${id}/quality${side === 'customer' ? '/customer' : ''}`,
    payload: { samples: [sample] },
    headers: bearer(token),
  });

const sides = async () =>
  (await get<CallQuality>(t.app, `/api/v2/videocall/${callId}/quality`, tokens.admin)).body.samples.map(
    (s) => s.side,
  );

describe('quality samples of a call', () => {
  it("are written by the call's agent only: an Admin or another user of the company gets 403", async () => {
    expect((await send(tokens.agent)).statusCode).toBe(204);
    expect((await send(tokens.admin)).statusCode).toBe(403);
    expect((await send(tokens.viewer)).statusCode).toBe(403);
    expect(await sides()).toEqual(['agent']);
  });

  it('are hidden from another company: 404 for reading and writing, and nothing is written', async () => {
    expect((await get(t.app, `/api/v2/videocall/${callId}/quality`, tokens.globex)).status).toBe(404);
    expect((await send(tokens.globex)).statusCode).toBe(404);
    expect(await sides()).toEqual(['agent']);
  });

  it('take the customer side only from the join link the call was made with (404 for any other token)', async () => {
    // Another link of the same profile (another lifetime: never the same token).
    const sameProfile = await t.app.ctx.tokens.signCustomer({ profile_id: 3, company_id: 1 }, 1800);
    const otherProfile = await t.app.ctx.tokens.signCustomer({ profile_id: 4, company_id: 1 }, 3600);
    const otherCompany = await t.app.ctx.tokens.signCustomer({ profile_id: 3, company_id: 2 }, 3600);
    for (const token of [sameProfile, otherProfile, otherCompany])
      expect((await send(token, 'customer')).statusCode).toBe(404);
    // A staff token is no join link, and the join link is no staff token.
    expect((await send(tokens.agent, 'customer')).statusCode).toBe(401);
    expect((await send(customer, 'agent')).statusCode).toBe(401);
    expect((await send(customer, 'customer')).statusCode).toBe(204);
    expect(await sides()).toEqual(['agent', 'customer']);
  });
});
