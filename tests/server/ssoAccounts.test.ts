/**
 * An account signed in by single sign-on is an account like any other for what the studio does with accounts:
 * it names its company's region as a password sign-in does, sits beside other signed-in accounts (the account
 * switcher) with a session of its own, and Logout All (the studio's POST /session/logout for every stored account)
 * ends it. Each test has companies of its own, so the tests pass in any order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OidcProviderFixture } from '../support/oidcProvider';
import { get, login, post, startTestApp, type TestApp, tokenFor } from './helpers';
import { configureSso, newCompany, newPerson, providerFor, ssoSignIn } from './ssoSupport';

let t: TestApp;
let provider: OidcProviderFixture;

beforeAll(async () => {
  t = await startTestApp();
  provider = await providerFor(t);
});

afterAll(async () => {
  await provider?.close();
  await t?.close();
});

interface SignedIn {
  access: string;
  company_id: number;
  server: string;
  regions: { name: string; server: string }[];
}

const claimsOf = (access: string) =>
  JSON.parse(Buffer.from(access.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;

/** A company on single sign-on in `region`, and a person of its provider signed in: the sign-in's answer. */
async function ssoAccount(region?: string) {
  const company = await newCompany(t, region);
  await configureSso(t.app, company, provider);
  const person = newPerson(provider, company.ssoDomain, ['idv-agents']);
  const response = await ssoSignIn(t.app, provider, person.email);
  expect(response.statusCode, response.body).toBe(200);
  return { company, person, answer: response.json() as SignedIn };
}

describe('regions', () => {
  it('names the company’s region and server, as a password sign-in of the company does', async () => {
    for (const [region, server] of [
      ['Europe', t.config.publicUrl],
      ['Türkiye', t.config.secondRegionUrl],
    ] as const) {
      const { company, person, answer } = await ssoAccount(region);
      expect(answer).toMatchObject({ company_id: company.id, server, regions: [{ name: region, server }] });
      const password = (await login(t.app, company.admin.email, company.admin.password)).json() as SignedIn;
      expect({ server: answer.server, regions: answer.regions }).toEqual({
        server: password.server,
        regions: password.regions,
      });
      expect(claimsOf(answer.access)).toMatchObject({ company_id: company.id, email: person.email });
      const sessions = await get<{ current: boolean }[]>(t.app, '/api/v2/session', answer.access);
      expect(sessions.status).toBe(200);
      expect(sessions.body.filter((s) => s.current)).toHaveLength(1);
    }
  });
});

describe('the account switcher', () => {
  it('keeps an SSO account beside other accounts, each with its own session', async () => {
    const { person, answer: first } = await ssoAccount();
    const other = await newCompany(t, 'Türkiye');
    const local = await tokenFor(t.app, other.agent.email, other.agent.password);
    // The same person again (another browser): a second session of the same account.
    const again = (await ssoSignIn(t.app, provider, person.email)).json() as SignedIn;
    expect(claimsOf(again.access).jti).not.toBe(claimsOf(first.access).jti);
    const mine = await get<{ id: string; current: boolean }[]>(t.app, '/api/v2/session', first.access);
    expect(mine.body.map((s) => s.id).sort()).toEqual(
      [claimsOf(first.access).jti, claimsOf(again.access).jti].sort(),
    );
    expect(mine.body.find((s) => s.current)?.id).toBe(claimsOf(first.access).jti);
    // Each token works in its own company only.
    const otherSessions = await get<{ id: string }[]>(t.app, '/api/v2/session', local);
    expect(otherSessions.body.map((s) => s.id)).toEqual([claimsOf(local).jti]);
    // Logout of the SSO account ends its session only.
    expect((await post(t.app, '/api/v2/sso/logout', {}, first.access)).status).toBe(200);
    expect((await get(t.app, '/api/v2/session', first.access)).status).toBe(401);
    expect((await get(t.app, '/api/v2/session', again.access)).status).toBe(200);
    expect((await get(t.app, '/api/v2/session', local)).status).toBe(200);
  });
});

describe('Logout All', () => {
  it('ends the SSO accounts as it ends the others, and they sign in again afterwards', async () => {
    const sso = await ssoAccount();
    const elsewhere = await ssoAccount('Türkiye');
    const local = await tokenFor(t.app, sso.company.viewer.email, sso.company.viewer.password);
    for (const access of [sso.answer.access, elsewhere.answer.access, local]) {
      const out = await t.app.inject({
        method: 'POST',
        url: '/api/v2/session/logout',
        headers: { authorization: `Bearer ${access}` },
      });
      expect(out.statusCode).toBe(204);
    }
    for (const access of [sso.answer.access, elsewhere.answer.access, local])
      expect((await get(t.app, '/api/v2/session', access)).status).toBe(401);
    // An ended SSO session has no provider logout left to ask for.
    expect((await post(t.app, '/api/v2/sso/logout', {}, sso.answer.access)).status).toBe(401);
    const back = await ssoSignIn(t.app, provider, sso.person.email);
    expect(back.statusCode, back.body).toBe(200);
    expect((await get(t.app, '/api/v2/session', (back.json() as SignedIn).access)).status).toBe(200);
  });
});
