/**
 * Every refusal of a single sign-on, against a real OpenID provider that misbehaves on request
 * (tests/support/oidcProvider.ts): an ID token from another issuer, for another client, expired, signed by a key
 * the provider never published, with another nonce; a state used twice, unknown or mismatched; a code used
 * twice; an e-mail outside the company's domains. Each is a 400 with its own detail, audited, and starts no
 * session. A key the provider rotates to is accepted, and the break-glass Admin gets in whatever the provider does.
 * Each test signs in to a company of its own (newCompany), so the tests pass in any order.
 */
import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SSO_DETAILS } from '#contract/sso';
import { auditLog, sessions, users } from '../../server/db/schema';
import { login, startTestApp, type TestApp } from '../server/helpers';
import {
  callbackBody,
  configureSso,
  finish,
  newCompany,
  newPerson,
  providerFor,
  ssoSignIn,
  startFor,
  type TestCompany,
} from '../server/ssoSupport';
import type { OidcAccount, OidcProviderFixture } from '../support/oidcProvider';

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

/** A company on "SSO only" (its own addresses too, its Admin as break-glass account) and one of its people. */
async function ssoCompany(): Promise<{ company: TestCompany; person: OidcAccount }> {
  const company = await newCompany(t);
  await configureSso(t.app, company, provider, {
    domains: [company.ssoDomain, company.domain],
    sso_only: true,
    break_glass_user_ids: [company.admin.id],
  });
  return { company, person: newPerson(provider, company.ssoDomain, ['idv-admins']) };
}

/** Sessions in the company but its Admin's (signed in with a password to configure it). */
const sessionCount = async (company: TestCompany) =>
  (
    await t.app.ctx.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.companyId, company.id), ne(sessions.userId, company.admin.id)))
  ).length;

/** The newest refusal in the company's audit log. */
async function lastRefusal(companyId: number) {
  const rows = await t.app.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.companyId, companyId), eq(auditLog.action, 'sso_sign_in_refused')))
    .orderBy(auditLog.id);
  return rows.at(-1)?.after as { reason?: string; email?: string } | undefined;
}

/** A sign-in whose ID token the provider changes: refused with `detail`, audited with `reason`, no session. */
async function expectRefused(
  change: (claims: Record<string, unknown>) => Record<string, unknown>,
  detail: string,
  reason: string,
  key: 'own' | 'foreign' = 'own',
) {
  const { company, person } = await ssoCompany();
  provider.tamperNext(change, key);
  const response = await ssoSignIn(t.app, provider, person.email);
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json()).toEqual({ detail });
  expect((await lastRefusal(company.id))?.reason).toBe(reason);
  expect(await sessionCount(company)).toBe(0);
}

describe('the ID token', () => {
  it('is accepted as the provider issues it', async () => {
    const { company, person } = await ssoCompany();
    expect((await ssoSignIn(t.app, provider, person.email)).statusCode).toBe(200);
    expect(await sessionCount(company)).toBe(1);
  });

  it('is refused from another issuer', async () => {
    await expectRefused((c) => ({ ...c, iss: 'https://evil.example' }), SSO_DETAILS.wrongIssuer, 'issuer');
  });

  it('is refused for another audience', async () => {
    await expectRefused((c) => ({ ...c, aud: 'another-client' }), SSO_DETAILS.wrongAudience, 'audience');
  });

  it('is refused once expired', async () => {
    const past = Math.floor(Date.now() / 1000) - 3600;
    await expectRefused((c) => ({ ...c, iat: past - 600, exp: past }), SSO_DETAILS.tokenExpired, 'expired');
  });

  it('is refused with another sign-in’s nonce', async () => {
    await expectRefused((c) => ({ ...c, nonce: 'another-nonce' }), SSO_DETAILS.nonceMismatch, 'nonce');
  });

  it('is refused when signed by a key the provider never published', async () => {
    await expectRefused((c) => c, SSO_DETAILS.badSignature, 'signature', 'foreign');
  });

  it('is accepted when the provider rotates to a new published key', async () => {
    const { person } = await ssoCompany();
    // The first sign-in keeps the provider's keys as they are before the rotation.
    expect((await ssoSignIn(t.app, provider, person.email)).statusCode).toBe(200);
    // The keys are fetched again for an unknown key once the kept ones are a minute old (no refetch storm).
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      provider.tamperNext((c) => c, 'rotated');
      const response = await ssoSignIn(t.app, provider, person.email);
      expect(response.statusCode, response.body).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the answer of the provider', () => {
  it('is used once: the same answer again is refused as a replay', async () => {
    const { company, person } = await ssoCompany();
    const back = await provider.signIn((await startFor(t.app, person.email)).href, person.email);
    expect((await finish(t.app, callbackBody(back))).statusCode).toBe(200);
    const again = await finish(t.app, callbackBody(back));
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ detail: SSO_DETAILS.stateInvalid });
    expect((await lastRefusal(company.id))?.reason).toBe('replayed');
  });

  it('refuses a code used before, even under a new state', async () => {
    const { company, person } = await ssoCompany();
    const first = await provider.signIn((await startFor(t.app, person.email)).href, person.email);
    expect((await finish(t.app, callbackBody(first))).statusCode).toBe(200);
    const fresh = await startFor(t.app, person.email);
    const stolen = { ...callbackBody(first), state: fresh.searchParams.get('state') as string };
    const response = await finish(t.app, stolen);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: SSO_DETAILS.providerRefused });
    expect((await lastRefusal(company.id))?.reason).toBe('invalid_grant');
  });

  it('refuses an unknown state, and a state that is not the one the provider answered', async () => {
    const { company, person } = await ssoCompany();
    const back = await provider.signIn((await startFor(t.app, person.email)).href, person.email);
    const unknown = await finish(t.app, { ...callbackBody(back), state: 'made-up-state' });
    expect(unknown.json()).toEqual({ detail: SSO_DETAILS.stateInvalid });
    // Another sign-in's live state with this answer: its verifier and nonce do not fit the code.
    const other = await startFor(t.app, person.email);
    const mixed = await finish(t.app, {
      ...callbackBody(back),
      state: other.searchParams.get('state') as string,
    });
    expect(mixed.statusCode).toBe(400);
    expect(await sessionCount(company)).toBe(0);
  });

  it('refuses what the provider refused', async () => {
    const { company, person } = await ssoCompany();
    const url = await startFor(t.app, person.email);
    const response = await finish(t.app, {
      state: url.searchParams.get('state') as string,
      error: 'access_denied',
      error_description: 'The user said no',
    });
    expect(response.json()).toEqual({ detail: SSO_DETAILS.providerRefused });
    expect((await lastRefusal(company.id))?.reason).toBe('access_denied');
  });
});

describe('who signs in', () => {
  it('refuses an e-mail outside the company’s domains', async () => {
    const { company, person } = await ssoCompany();
    const outsider = newPerson(provider, `elsewhere-${company.domain}`, ['idv-agents']);
    // Started with an address of the company's domain, answered by the provider for someone else's.
    const response = await ssoSignIn(t.app, provider, outsider.email, person.email);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: SSO_DETAILS.emailOutsideDomains });
    expect(await lastRefusal(company.id)).toMatchObject({ reason: 'domain', email: outsider.email });
    expect((await t.app.ctx.db.select().from(users).where(eq(users.email, outsider.email))).length).toBe(0);
  });

  it('refuses a user the studio disabled', async () => {
    const { company, person } = await ssoCompany();
    expect((await ssoSignIn(t.app, provider, person.email)).statusCode).toBe(200);
    await t.app.ctx.db.update(users).set({ isActive: false }).where(eq(users.email, person.email));
    const response = await ssoSignIn(t.app, provider, person.email);
    expect(response.statusCode).toBe(400);
    expect((await lastRefusal(company.id))?.reason).toBe('disabled');
  });

  it('keeps the break-glass Admin’s password whatever the provider does, and no one else’s', async () => {
    const { company, person } = await ssoCompany();
    // A provider that no longer answers: a mistyped issuer.
    await configureSso(t.app, company, provider, {
      issuer: 'http://127.0.0.1:9',
      domains: [company.ssoDomain, company.domain],
      sso_only: true,
      break_glass_user_ids: [company.admin.id],
    });
    expect((await login(t.app, company.admin.email, company.admin.password)).statusCode).toBe(200);
    const refused = await login(t.app, company.agent.email, company.agent.password);
    expect(refused.json()).toEqual({ detail: SSO_DETAILS.passwordOff });
    const start = await t.app.inject({
      method: 'POST',
      url: '/api/v2/sso/start',
      payload: { email: person.email },
    });
    expect(start.statusCode).toBe(400);
    expect(start.json()).toEqual({ detail: SSO_DETAILS.providerUnreachable });
  });
});
