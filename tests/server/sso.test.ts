/**
 * Single sign-on against a real OpenID provider (tests/support/oidcProvider.ts): the Admin's settings, the test
 * of the connection, a sign-in that creates its user with the mapped role, a role that follows the provider's
 * groups, SSO only with its break-glass Admin, and the provider's logout. Each test has a company and people of
 * its own (newCompany, newPerson), so the tests pass in any order.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSO_DETAILS } from '#contract/sso';
import { auditLog, ssoConnections, users } from '../../server/db/schema';
import type { OidcProviderFixture } from '../support/oidcProvider';
import { bearer, get, login, PASSWORDS, post, startTestApp, type TestApp, tokenFor } from './helpers';
import { configureSso, newCompany, newPerson, providerFor, ssoSignIn, startFor } from './ssoSupport';

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

const userNamed = async (email: string) =>
  (await t.app.ctx.db.select().from(users).where(eq(users.email, email)))[0];

describe('the Admin’s settings', () => {
  it('stores the client secret sealed and never sends it back', async () => {
    const company = await newCompany(t);
    const saved = await configureSso(t.app, company, provider, {
      domains: [company.ssoDomain, `other-${company.domain}`],
    });
    expect(saved).toMatchObject({
      enabled: true,
      issuer: provider.issuer,
      client_id: provider.clientId,
      client_secret_set: true,
      domains: [company.ssoDomain, `other-${company.domain}`].sort(),
      sso_only: false,
    });
    expect(JSON.stringify(saved)).not.toContain(provider.clientSecret);
    const [row] = await t.app.ctx.db
      .select()
      .from(ssoConnections)
      .where(eq(ssoConnections.companyId, company.id));
    expect(row?.clientSecret).toBeTruthy();
    expect(row?.clientSecret).not.toContain(provider.clientSecret);
    expect(t.app.ctx.secrets.open(row?.clientSecret ?? '')).toBe(provider.clientSecret);
    const read = await get<Record<string, unknown>>(t.app, '/api/v2/company/sso', company.admin.token);
    expect(read.body).toMatchObject({
      client_secret_set: true,
      redirect_uri: expect.stringMatching(/\/login$/),
    });
    expect(JSON.stringify(read.body)).not.toContain(provider.clientSecret);
  });

  it('is for Admins only', async () => {
    const company = await newCompany(t);
    const agent = await tokenFor(t.app, company.agent.email, company.agent.password);
    expect((await get(t.app, '/api/v2/company/sso', agent)).status).toBe(403);
  });

  it('gives a domain to one company only', async () => {
    const first = await newCompany(t);
    const second = await newCompany(t);
    await configureSso(t.app, first, provider);
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/v2/company/sso',
      headers: bearer(second.admin.token),
      payload: {
        enabled: true,
        issuer: provider.issuer,
        client_id: 'x',
        client_secret: 'y',
        domains: [first.ssoDomain],
      },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ detail: SSO_DETAILS.duplicateDomain });
  });

  it('turns SSO only on only with an enabled Admin as break-glass account', async () => {
    const company = await newCompany(t);
    for (const [ids, detail] of [
      [[], SSO_DETAILS.breakGlassRequired],
      [[company.agent.id], SSO_DETAILS.breakGlassUnknown],
    ] as const) {
      const response = await t.app.inject({
        method: 'PUT',
        url: '/api/v2/company/sso',
        headers: bearer(company.admin.token),
        payload: {
          enabled: true,
          issuer: provider.issuer,
          client_id: provider.clientId,
          client_secret: provider.clientSecret,
          domains: [company.ssoDomain],
          sso_only: true,
          break_glass_user_ids: ids,
        },
      });
      expect(response.json()).toEqual({ detail });
    }
  });

  it('tests the connection: what discovery found, or why not', async () => {
    const company = await newCompany(t);
    await configureSso(t.app, company, provider);
    const token = company.admin.token;
    const report = await post<Record<string, unknown>>(t.app, '/api/v2/company/sso/test', {}, token);
    expect(report.body).toMatchObject({
      ok: true,
      issuer: provider.issuer,
      authorization_endpoint: `${provider.issuer}/auth`,
      token_endpoint: `${provider.issuer}/token`,
      end_session_endpoint: `${provider.issuer}/session/end`,
      keys: 1,
      problem: null,
    });
    expect(report.body.code_challenge_methods).toContain('S256');
    const wrong = await post<Record<string, unknown>>(
      t.app,
      '/api/v2/company/sso/test',
      { issuer: 'http://127.0.0.1:9/nothing' },
      token,
    );
    expect(wrong.body).toMatchObject({ ok: false, issuer: null });
    expect(wrong.body.problem).toMatch(/^Discovery failed/);
    const plain = await post<Record<string, unknown>>(
      t.app,
      '/api/v2/company/sso/test',
      { issuer: 'http://idp.example.com' },
      token,
    );
    expect(plain.body.problem).toMatch(/https/);
  });
});

describe('signing in', () => {
  it('starts with the e-mail: an SSO domain goes to its provider with PKCE, state and nonce', async () => {
    const company = await newCompany(t);
    await configureSso(t.app, company, provider);
    const person = newPerson(provider, company.ssoDomain, ['idv-agents']);
    expect((await post(t.app, '/api/v2/sso/start', { email: company.agent.email })).body).toEqual({
      sso: false,
    });
    const check = await post(t.app, '/api/v2/sso/start', { email: person.email, check_only: true });
    expect(check.body).toEqual({ sso: true });
    const url = await startFor(t.app, person.email);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('login_hint')).toBe(person.email);
    expect(url.searchParams.get('scope')?.split(' ')).toEqual(['openid', 'email', 'profile', 'groups']);
  });

  it('creates a first-time user with the mapped role, and signs them in', async () => {
    const company = await newCompany(t);
    await configureSso(t.app, company, provider);
    const person = newPerson(provider, company.ssoDomain, ['idv-agents']);
    expect(await userNamed(person.email)).toBeUndefined();
    const response = await ssoSignIn(t.app, provider, person.email);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { access: string; company_id: number };
    expect(body.company_id).toBe(company.id);
    const created = await userNamed(person.email);
    expect(created).toMatchObject({
      role: 'User',
      firstName: person.given_name,
      lastName: person.family_name,
      isActive: true,
      companyId: company.id,
    });
    const me = await get<{ username: string; role: string }>(
      t.app,
      `/api/v2/user/${created?.id}`,
      body.access,
    );
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username: person.email, role: 'User' });
    const entries = await t.app.ctx.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.objectId, String(created?.id))));
    expect(entries.map((e) => e.action)).toEqual(expect.arrayContaining(['user_created', 'sso_signed_in']));
  });

  it('gives the new role at the next sign-in when the provider’s groups changed', async () => {
    const company = await newCompany(t);
    await configureSso(t.app, company, provider);
    const person = newPerson(provider, company.ssoDomain, ['idv-agents']);
    const account = provider.accounts.get(person.sub);
    if (!account) throw new Error('no account');
    expect((await ssoSignIn(t.app, provider, person.email)).statusCode).toBe(200);
    expect((await userNamed(person.email))?.role).toBe('User');
    account.groups = ['idv-admins'];
    expect((await ssoSignIn(t.app, provider, person.email)).statusCode).toBe(200);
    expect((await userNamed(person.email))?.role).toBe('Admin');
    account.groups = [];
    expect((await ssoSignIn(t.app, provider, person.email)).statusCode).toBe(200);
    expect((await userNamed(person.email))?.role).toBe('Restricted User');
  });

  it('ends the session on logout and gives the provider’s logout address', async () => {
    const company = await newCompany(t);
    await configureSso(t.app, company, provider);
    const person = newPerson(provider, company.ssoDomain, ['idv-admins']);
    const { access } = (await ssoSignIn(t.app, provider, person.email)).json() as { access: string };
    expect((await userNamed(person.email))?.role).toBe('Admin');
    const out = await post<{ logout_url: string }>(t.app, '/api/v2/sso/logout', {}, access);
    expect(out.status).toBe(200);
    const url = new URL(out.body.logout_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.issuer}/session/end`);
    expect(url.searchParams.get('id_token_hint')).toBeTruthy();
    expect(url.searchParams.get('post_logout_redirect_uri')).toMatch(/\/login$/);
    expect((await get(t.app, '/api/v2/session', access)).status).toBe(401);
    // A password session has no provider to leave.
    const local = await tokenFor(t.app, company.viewer.email, company.viewer.password);
    expect((await post(t.app, '/api/v2/sso/logout', {}, local)).body).toEqual({ logout_url: null });
  });
});

describe('SSO only', () => {
  it('refuses passwords but the break-glass Admin’s, and audits the refusal', async () => {
    const company = await newCompany(t);
    const other = await newCompany(t);
    await configureSso(t.app, company, provider, {
      domains: [company.ssoDomain, company.domain],
      sso_only: true,
      break_glass_user_ids: [company.admin.id],
    });
    const refused = await login(t.app, company.agent.email, company.agent.password);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ detail: SSO_DETAILS.passwordOff });
    // A wrong password learns nothing more than before.
    expect((await login(t.app, company.agent.email, 'Wrong@2026')).json()).toEqual({
      detail: 'Invalid Credentials',
    });
    expect((await login(t.app, company.admin.email, company.admin.password)).statusCode).toBe(200);
    const [entry] = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.action, 'sso_sign_in_refused')));
    expect(entry?.after).toMatchObject({ email: company.agent.email, reason: 'sso_only' });
    // Another company's users keep their passwords.
    expect((await login(t.app, other.agent.email, PASSWORDS.user)).statusCode).toBe(200);
    await configureSso(t.app, company, provider, {
      sso_only: false,
      break_glass_user_ids: [company.admin.id],
    });
    expect((await login(t.app, company.agent.email, company.agent.password)).statusCode).toBe(200);
  });
});
