/**
 * Every refusal of a single sign-on, against a real OpenID provider that misbehaves on request
 * (tests/support/oidcProvider.ts): an ID token from another issuer, for another client, expired, signed by a key
 * the provider never published, with another nonce; a state used twice, unknown or mismatched; a code used
 * twice; an e-mail outside the company's domains. Each is a 400 with its own detail, audited, and starts no
 * session. A key the provider rotates to is accepted, and the break-glass Admin gets in whatever the provider does.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SSO_DETAILS } from '#contract/sso';
import { auditLog, sessions, users } from '../../server/db/schema';
import { login, PASSWORDS, startTestApp, type TestApp, tokenFor } from '../server/helpers';
import {
  ALICE,
  BOB,
  callbackBody,
  configureSso,
  finish,
  MALLORY,
  providerFor,
  ssoSignIn,
  startFor,
} from '../server/ssoSupport';
import type { OidcProviderFixture } from '../support/oidcProvider';

let t: TestApp;
let provider: OidcProviderFixture;

beforeAll(async () => {
  t = await startTestApp();
  provider = await providerFor(t);
  const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  const adminId = (await t.app.ctx.db.select().from(users).where(eq(users.email, 'admin@acme.test')))[0]?.id;
  await configureSso(t.app, admin, provider, {
    domains: ['acme-sso.test', 'acme.test'],
    sso_only: true,
    break_glass_user_ids: [adminId as number],
  });
});

afterAll(async () => {
  await provider?.close();
  await t?.close();
});

const sessionCount = async () => (await t.app.ctx.db.select().from(sessions)).length;

/** The newest refusal in Acme's audit log. */
async function lastRefusal() {
  const rows = await t.app.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.companyId, 1), eq(auditLog.action, 'sso_sign_in_refused')));
  return rows.at(-1)?.after as { reason?: string; email?: string } | undefined;
}

/** A sign-in whose ID token the provider changes: refused with `detail`, audited with `reason`, no session. */
async function expectRefused(
  change: (claims: Record<string, unknown>) => Record<string, unknown>,
  detail: string,
  reason: string,
  key: 'own' | 'foreign' = 'own',
) {
  const before = await sessionCount();
  provider.tamperNext(change, key);
  const response = await ssoSignIn(t.app, provider, ALICE.email);
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json()).toEqual({ detail });
  expect((await lastRefusal())?.reason).toBe(reason);
  expect(await sessionCount()).toBe(before);
}

describe('the ID token', () => {
  it('is accepted as the provider issues it', async () => {
    expect((await ssoSignIn(t.app, provider, ALICE.email)).statusCode).toBe(200);
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
    // The keys are fetched again for an unknown key once the kept ones are a minute old (no refetch storm).
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      vi.setSystemTime(Date.now() + 61_000);
      provider.tamperNext((c) => c, 'rotated');
      const response = await ssoSignIn(t.app, provider, ALICE.email);
      expect(response.statusCode, response.body).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the answer of the provider', () => {
  it('is used once: the same answer again is refused as a replay', async () => {
    const back = await provider.signIn((await startFor(t.app, BOB.email)).href, BOB.email);
    expect((await finish(t.app, callbackBody(back))).statusCode).toBe(200);
    const again = await finish(t.app, callbackBody(back));
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ detail: SSO_DETAILS.stateInvalid });
    expect((await lastRefusal())?.reason).toBe('replayed');
  });

  it('refuses a code used before, even under a new state', async () => {
    const first = await provider.signIn((await startFor(t.app, BOB.email)).href, BOB.email);
    expect((await finish(t.app, callbackBody(first))).statusCode).toBe(200);
    const fresh = await startFor(t.app, BOB.email);
    const stolen = { ...callbackBody(first), state: fresh.searchParams.get('state') as string };
    const response = await finish(t.app, stolen);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: SSO_DETAILS.providerRefused });
    expect((await lastRefusal())?.reason).toBe('invalid_grant');
  });

  it('refuses an unknown state, and a state that is not the one the provider answered', async () => {
    const back = await provider.signIn((await startFor(t.app, BOB.email)).href, BOB.email);
    const unknown = await finish(t.app, { ...callbackBody(back), state: 'made-up-state' });
    expect(unknown.json()).toEqual({ detail: SSO_DETAILS.stateInvalid });
    // Another sign-in's live state with this answer: its verifier and nonce do not fit the code.
    const other = await startFor(t.app, BOB.email);
    const mixed = await finish(t.app, {
      ...callbackBody(back),
      state: other.searchParams.get('state') as string,
    });
    expect(mixed.statusCode).toBe(400);
  });

  it('refuses what the provider refused', async () => {
    const url = await startFor(t.app, BOB.email);
    const response = await finish(t.app, {
      state: url.searchParams.get('state') as string,
      error: 'access_denied',
      error_description: 'The user said no',
    });
    expect(response.json()).toEqual({ detail: SSO_DETAILS.providerRefused });
    expect((await lastRefusal())?.reason).toBe('access_denied');
  });
});

describe('who signs in', () => {
  it('refuses an e-mail outside the company’s domains', async () => {
    // Started with an address of the company's domain, answered by the provider for someone else's.
    const response = await ssoSignIn(t.app, provider, MALLORY.email, BOB.email);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ detail: SSO_DETAILS.emailOutsideDomains });
    expect(await lastRefusal()).toMatchObject({ reason: 'domain', email: MALLORY.email });
    expect((await t.app.ctx.db.select().from(users).where(eq(users.email, MALLORY.email))).length).toBe(0);
  });

  it('refuses a user the studio disabled', async () => {
    await t.app.ctx.db.update(users).set({ isActive: false }).where(eq(users.email, BOB.email));
    const response = await ssoSignIn(t.app, provider, BOB.email);
    expect(response.statusCode).toBe(400);
    expect((await lastRefusal())?.reason).toBe('disabled');
    await t.app.ctx.db.update(users).set({ isActive: true }).where(eq(users.email, BOB.email));
  });

  it('keeps the break-glass Admin’s password whatever the provider does, and no one else’s', async () => {
    const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    const adminId = (await t.app.ctx.db.select().from(users).where(eq(users.email, 'admin@acme.test')))[0]
      ?.id;
    // A provider that no longer answers, and a mistyped issuer.
    await provider.close();
    await configureSso(t.app, admin, provider, {
      issuer: 'http://127.0.0.1:9',
      domains: ['acme-sso.test', 'acme.test'],
      sso_only: true,
      break_glass_user_ids: [adminId as number],
    });
    expect((await login(t.app, 'admin@acme.test', PASSWORDS.admin)).statusCode).toBe(200);
    const refused = await login(t.app, 'agent@acme.test', PASSWORDS.user);
    expect(refused.json()).toEqual({ detail: SSO_DETAILS.passwordOff });
    const start = await t.app.inject({
      method: 'POST',
      url: '/api/v2/sso/start',
      payload: { email: BOB.email },
    });
    expect(start.statusCode).toBe(400);
    expect(start.json()).toEqual({ detail: SSO_DETAILS.providerUnreachable });
  });
});
