/**
 * The company's call routing is an Admin's setting, and bad input changes nothing (a 400 with a
 * detail, never a 500); an agent's languages are set by an Admin only; a server running distributed refuses
 * one-at-a-time routing rather than offering a call on two processes at once.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, companies, users } from '../../server/db/schema';
import { ONE_AT_A_TIME_NEEDS_ONE_PROCESS, setCallRouting } from '../../server/domain/callRouting';
import { bearer, PASSWORDS, startTestApp, type TestApp, tokenFor, userId } from '../server/helpers';

let t: TestApp;
let admin = '';
let agent = '';

beforeAll(async () => {
  t = await startTestApp();
  admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
}, 180_000);
afterAll(async () => {
  await t.close();
});

const put = (token: string, payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/v2/call_routing',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

async function stored() {
  const [row] = await t.app.ctx.db
    .select({ routing: companies.callRouting, seconds: companies.offerSeconds })
    .from(companies)
    .where(eq(companies.id, 1));
  const audits = await t.app.ctx.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, 'call_routing_changed'));
  return { ...row, audits: audits.length };
}

describe('call routing setting', () => {
  it('a non-admin may not change it (403), and nothing changes', async () => {
    const before = await stored();
    const refused = await put(agent, { call_routing: 'one_at_a_time', offer_seconds: 15 });
    expect(refused.statusCode).toBe(403);
    expect(await stored()).toEqual(before);
  });

  it('refuses extreme and malformed input with a 400 and a detail; nothing changes', async () => {
    const before = await stored();
    const bodies: unknown[] = [
      { call_routing: 'one_at_a_time', offer_seconds: 2 ** 53 },
      { call_routing: 'one_at_a_time', offer_seconds: -1 },
      { call_routing: 'one_at_a_time', offer_seconds: 4 },
      { call_routing: 'one_at_a_time', offer_seconds: 121 },
      { call_routing: 'one_at_a_time', offer_seconds: 7.5 },
      { call_routing: 'one_at_a_time', offer_seconds: '15' },
      { call_routing: 'one_at_a_time', offer_seconds: null },
      { call_routing: 'one_at_a_time\u0000', offer_seconds: 15 },
      { call_routing: 'round_robin', offer_seconds: 15 },
      { call_routing: 'ONE_AT_A_TIME', offer_seconds: 15 },
      { call_routing: 'one_at_a_time' },
      { offer_seconds: 15 },
      { call_routing: 'one_at_a_time', offer_seconds: 15, extra: true },
      [],
      'null',
      '{"call_routing":"one_at_a_time","offer_seconds":1e400}',
    ];
    for (const body of bodies) {
      const answer = await put(admin, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer.json().detail, JSON.stringify(body)).toEqual(expect.any(String));
    }
    expect(await stored()).toEqual(before);
  });

  it('an agent’s languages are an Admin’s to set: the agent’s own change is 403, unknown languages 400', async () => {
    const id = await userId(t.app, 'agent@acme.test');
    const own = await t.app.inject({
      method: 'PATCH',
      url: `/api/v2/user/${id}`,
      headers: bearer(agent),
      payload: { password: PASSWORDS.user, languages: ['tr'] },
    });
    expect(own.statusCode).toBe(403);
    for (const languages of [['de'], ['tr\u0000'], 'tr', ['en-US', 'tr', 'tr'], [1]]) {
      const answer = await t.app.inject({
        method: 'PATCH',
        url: `/api/v2/user/${id}`,
        headers: bearer(admin),
        payload: { password: PASSWORDS.admin, languages },
      });
      expect(answer.statusCode, JSON.stringify(languages)).toBe(400);
    }
    const [row] = await t.app.ctx.db
      .select({ languages: users.languages })
      .from(users)
      .where(eq(users.id, id));
    expect(row?.languages).toEqual([]);
  });

  it('a distributed server refuses one-at-a-time routing (one offer per call across processes is not kept)', async () => {
    const before = await stored();
    const adminId = await userId(t.app, 'admin@acme.test');
    await expect(
      setCallRouting(t.app.ctx.db, 1, adminId, { call_routing: 'one_at_a_time', offer_seconds: 15 }, true),
    ).rejects.toMatchObject({ statusCode: 400, message: ONE_AT_A_TIME_NEEDS_ONE_PROCESS });
    expect(await stored()).toEqual(before);
  });
});
