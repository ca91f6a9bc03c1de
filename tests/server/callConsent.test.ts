/**
 * The customer's consent on the join page: asked before the camera starts, stored on the call with
 * time, address, language and text, recorded as the procedure's consent step at offset 0, and in the evidence.
 */
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_IDENT_PROCEDURE } from '#contract/identProcedure';
import { bearer, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

let t: TestApp;
let admin: string;
let agent: string;

beforeAll(async () => {
  t = await startTestApp();
  [admin, agent] = await Promise.all([
    tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin),
    tokenFor(t.app, 'agent@acme.test', PASSWORDS.user),
  ]);
});
afterAll(async () => {
  await t?.close();
});

const customerToken = (profile: number, company = 1) =>
  t.app.ctx.tokens.signCustomer({ profile_id: profile, company_id: company }, 3600);

async function join(token: string, body: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/v2/videocall',
    headers: bearer(token),
    payload: body,
    remoteAddress: '203.0.113.7',
  });
}

const callRow = async (id: number) =>
  (await t.app.ctx.db.query.videoCalls.findFirst({ where: (c, { eq }) => eq(c.id, id) })) ?? null;

const steps = async (id: number) =>
  (
    await t.app.inject({ method: 'GET', url: `/api/v2/videocall/${id}/steps`, headers: bearer(admin) })
  ).json() as { kind: string; result: string; offset_ms: number; details: Record<string, unknown> }[];

describe('consent on the join page', () => {
  it('the join page reads the consent text in both languages, and that the procedure asks for it', async () => {
    const answer = await t.app.inject({
      method: 'GET',
      url: '/api/v2/videocall/consent',
      headers: bearer(await customerToken(2)),
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ required: true, text: DEFAULT_IDENT_PROCEDURE.consent_text });
  });

  it('only a join link reads it: no token 401, a staff token refused', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v2/videocall/consent' })).statusCode).toBe(401);
    const staff = await t.app.inject({
      method: 'GET',
      url: '/api/v2/videocall/consent',
      headers: bearer(agent),
    });
    expect([401, 403]).toContain(staff.statusCode);
  });

  it('a call joined with consent stores time, address, language and text, once, and the step passed at 0', async () => {
    const token = await customerToken(2);
    const before = Date.now();
    const created = await join(token, { profile: 2, consent: { language: 'tr' } });
    expect(created.statusCode).toBe(201);
    const id = (created.json() as { id: number }).id;
    const row = await callRow(id);
    expect(row?.consentAt?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(row?.consentIp).toBe('203.0.113.7');
    expect(row?.consentLanguage).toBe('tr');
    expect(row?.consentText).toBe(DEFAULT_IDENT_PROCEDURE.consent_text.tr);
    const first = row?.consentAt?.getTime();

    // The page joins again (a reload): the same call, the first consent kept, one step.
    const again = await join(token, { profile: 2, consent: { language: 'en-US' } });
    expect(again.statusCode).toBe(200);
    expect((await callRow(id))?.consentAt?.getTime()).toBe(first);
    expect((await callRow(id))?.consentLanguage).toBe('tr');
    const recorded = await steps(id);
    expect(recorded).toEqual([
      expect.objectContaining({
        kind: 'consent',
        result: 'passed',
        offset_ms: 0,
        details: { language: 'tr', source: 'join_page' },
      }),
    ]);
  });

  it('a call joined without consent stores none', async () => {
    const created = await join(await customerToken(4), { profile: 4 });
    expect(created.statusCode).toBe(201);
    const id = (created.json() as { id: number }).id;
    expect((await callRow(id))?.consentAt).toBeNull();
    expect(await steps(id)).toEqual([]);
  });

  it.each([
    ['an unknown language', { language: 'de' }],
    ['an extra field', { language: 'tr', at: '2026-01-01' }],
    ['a NUL byte', { language: 'tr\u0000' }],
    ['a huge value', { language: 'x'.repeat(10_000) }],
    ['not an object', 'yes'],
  ])('%s in consent: 400, and no call', async (_name, consent) => {
    const token = await customerToken(5);
    const answer = await join(token, { profile: 5, consent });
    expect(answer.statusCode).toBe(400);
    const open = await t.app.ctx.db.query.videoCalls.findMany({
      where: (c, { and, eq }) => and(eq(c.profileId, 5), eq(c.status, 0)),
    });
    expect(open).toEqual([]);
  });

  it('the evidence package holds the consent as given', async () => {
    const created = await join(await customerToken(6), { profile: 6, consent: { language: 'en-US' } });
    const id = (created.json() as { id: number }).id;
    const zip = await t.app.inject({
      method: 'GET',
      url: `/api/v2/videocall/${id}/evidence`,
      headers: bearer(admin),
    });
    expect(zip.statusCode).toBe(200);
    const files = unzipSync(new Uint8Array(zip.rawPayload));
    const json = JSON.parse(new TextDecoder().decode(files['call.json'])) as { consent: unknown };
    expect(json.consent).toEqual({
      given_at: expect.any(String),
      address: '203.0.113.7',
      language: 'en-US',
      text: DEFAULT_IDENT_PROCEDURE.consent_text.en,
    });
  });
});
