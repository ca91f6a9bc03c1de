/**
 * Single sign-on against a real OpenID provider (tests/support/oidcProvider.ts): the Admin's settings, the test
 * of the connection, a sign-in that creates its user with the mapped role, a role that follows the provider's
 * groups, SSO only with its break-glass Admin, and the provider's logout.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSO_DETAILS } from '#contract/sso';
import { auditLog, ssoConnections, users } from '../../server/db/schema';
import type { OidcProviderFixture } from '../support/oidcProvider';
import { bearer, get, login, PASSWORDS, post, startTestApp, type TestApp, tokenFor } from './helpers';
import { ALICE, BOB, configureSso, providerFor, ssoSignIn, startFor } from './ssoSupport';

let t: TestApp;
let provider: OidcProviderFixture;
let admin: string;

beforeAll(async () => {
  t = await startTestApp();
  provider = await providerFor(t);
  admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
});

afterAll(async () => {
  await provider?.close();
  await t?.close();
});

const userNamed = async (email: string) =>
  (await t.app.ctx.db.select().from(users).where(eq(users.email, email)))[0];

describe('the Admin’s settings', () => {
  it('stores the client secret sealed and never sends it back', async () => {
    const saved = await configureSso(t.app, admin, provider);
    expect(saved).toMatchObject({
      enabled: true,
      issuer: provider.issuer,
      client_id: provider.clientId,
      client_secret_set: true,
      domains: ['acme-sso.test', 'elsewhere-allowed.test'],
      sso_only: false,
    });
    expect(JSON.stringify(saved)).not.toContain(provider.clientSecret);
    const [row] = await t.app.ctx.db.select().from(ssoConnections).where(eq(ssoConnections.companyId, 1));
    expect(row?.clientSecret).toBeTruthy();
    expect(row?.clientSecret).not.toContain(provider.clientSecret);
    expect(t.app.ctx.secrets.open(row?.clientSecret ?? '')).toBe(provider.clientSecret);
    const read = await get<Record<string, unknown>>(t.app, '/api/v2/company/sso', admin);
    expect(read.body).toMatchObject({
      client_secret_set: true,
      redirect_uri: expect.stringMatching(/\/login$/),
    });
    expect(JSON.stringify(read.body)).not.toContain(provider.clientSecret);
  });

  it('is for Admins only', async () => {
    const agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
    expect((await get(t.app, '/api/v2/company/sso', agent)).status).toBe(403);
  });

  it('gives a domain to one company only', async () => {
    const globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/v2/company/sso',
      headers: bearer(globex),
      payload: {
        enabled: true,
        issuer: provider.issuer,
        client_id: 'x',
        client_secret: 'y',
        domains: ['acme-sso.test'],
      },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ detail: SSO_DETAILS.duplicateDomain });
  });

  it('turns SSO only on only with an enabled Admin as break-glass account', async () => {
    const agentId = (await userNamed('agent@acme.test'))?.id;
    for (const [ids, detail] of [
      [[], SSO_DETAILS.breakGlassRequired],
      [[agentId], SSO_DETAILS.breakGlassUnknown],
    ] as const) {
      const response = await t.app.inject({
        method: 'PUT',
        url: '/api/v2/company/sso',
        headers: bearer(admin),
        payload: {
          enabled: true,
          issuer: provider.issuer,
          client_id: provider.clientId,
          domains: ['acme-sso.test'],
          sso_only: true,
          break_glass_user_ids: ids,
        },
      });
      expect(response.json()).toEqual({ detail });
    }
  });

  it('tests the connection: what discovery found, or why not', async () => {
    const report = await post<Record<string, unknown>>(t.app, '/api/v2/company/sso/test', {}, admin);
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
      admin,
    );
    expect(wrong.body).toMatchObject({ ok: false, issuer: null });
    expect(wrong.body.problem).toMatch(/^Discovery failed/);
    const plain = await post<Record<string, unknown>>(
      t.app,
      '/api/v2/company/sso/test',
      { issuer: 'http://idp.example.com' },
      admin,
    );
    expect(plain.body.problem).toMatch(/https/);
  });
});

describe('signing in', () => {
  it('starts with the e-mail: an SSO domain goes to its provider with PKCE, state and nonce', async () => {
    expect((await post(t.app, '/api/v2/sso/start', { email: 'agent@acme.test' })).body).toEqual({
      sso: false,
    });
    const check = await post(t.app, '/api/v2/sso/start', { email: BOB.email, check_only: true });
    expect(check.body).toEqual({ sso: true });
    const url = await startFor(t.app, BOB.email);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('login_hint')).toBe(BOB.email);
    expect(url.searchParams.get('scope')?.split(' ')).toEqual(['openid', 'email', 'profile', 'groups']);
  });

  it('creates a first-time user with the mapped role, and signs them in', async () => {
    expect(await userNamed(BOB.email)).toBeUndefined();
    const response = await ssoSignIn(t.app, provider, BOB.email);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { access: string; company_id: number };
    expect(body.company_id).toBe(1);
    const bob = await userNamed(BOB.email);
    expect(bob).toMatchObject({ role: 'User', firstName: 'Bob', lastName: 'Agent', isActive: true });
    const me = await get<{ username: string; role: string }>(t.app, `/api/v2/user/${bob?.id}`, body.access);
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ username: BOB.email, role: 'User' });
    const entries = await t.app.ctx.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.companyId, 1), eq(auditLog.objectId, String(bob?.id))));
    expect(entries.map((e) => e.action)).toEqual(expect.arrayContaining(['user_created', 'sso_signed_in']));
  });

  it('gives the new role at the next sign-in when the provider’s groups changed', async () => {
    const account = provider.accounts.get(BOB.sub);
    if (!account) throw new Error('no Bob');
    account.groups = ['idv-admins'];
    expect((await ssoSignIn(t.app, provider, BOB.email)).statusCode).toBe(200);
    expect((await userNamed(BOB.email))?.role).toBe('Admin');
    account.groups = [];
    expect((await ssoSignIn(t.app, provider, BOB.email)).statusCode).toBe(200);
    expect((await userNamed(BOB.email))?.role).toBe('Restricted User');
  });

  it('ends the session on logout and gives the provider’s logout address', async () => {
    const { access } = (await ssoSignIn(t.app, provider, ALICE.email)).json() as { access: string };
    expect((await userNamed(ALICE.email))?.role).toBe('Admin');
    const out = await post<{ logout_url: string }>(t.app, '/api/v2/sso/logout', {}, access);
    expect(out.status).toBe(200);
    const url = new URL(out.body.logout_url);
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.issuer}/session/end`);
    expect(url.searchParams.get('id_token_hint')).toBeTruthy();
    expect(url.searchParams.get('post_logout_redirect_uri')).toMatch(/\/login$/);
    expect((await get(t.app, '/api/v2/session', access)).status).toBe(401);
    // A password session has no provider to leave.
    const local = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
    expect((await post(t.app, '/api/v2/sso/logout', {}, local)).body).toEqual({ logout_url: null });
  });
});

describe('SSO only', () => {
  it('refuses passwords but the break-glass Admin’s, and audits the refusal', async () => {
    const adminId = (await userNamed('admin@acme.test'))?.id as number;
    await configureSso(t.app, admin, provider, {
      domains: ['acme-sso.test', 'acme.test'],
      sso_only: true,
      break_glass_user_ids: [adminId],
    });
    const refused = await login(t.app, 'agent@acme.test', PASSWORDS.user);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ detail: SSO_DETAILS.passwordOff });
    // A wrong password learns nothing more than before.
    expect((await login(t.app, 'agent@acme.test', 'Wrong@2026')).json()).toEqual({
      detail: 'Invalid Credentials',
    });
    expect((await login(t.app, 'admin@acme.test', PASSWORDS.admin)).statusCode).toBe(200);
    const [entry] = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, 1), eq(auditLog.action, 'sso_sign_in_refused')));
    expect(entry?.after).toMatchObject({ email: 'agent@acme.test', reason: 'sso_only' });
    // Another company's users keep their passwords.
    expect((await login(t.app, 'admin@globex.test', PASSWORDS.admin)).statusCode).toBe(200);
    await configureSso(t.app, admin, provider, { sso_only: false, break_glass_user_ids: [adminId] });
    expect((await login(t.app, 'agent@acme.test', PASSWORDS.user)).statusCode).toBe(200);
  });
});
