import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { totpCode } from '../../server/auth/totp';
import { passkeys, users } from '../../server/db/schema';
import { DEMO_MFA_SECRET } from '../../server/db/seed/demo';
import { bearer, get, login, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';
import { SoftAuthenticator } from './softAuthenticator';

let t: TestApp;
let origin: string;
/** Tokens taken before any passkey exists (afterwards a password alone no longer signs these users in). */
const tokens: Record<'admin' | 'agent' | 'viewer' | 'globex', string> = {
  admin: '',
  agent: '',
  viewer: '',
  globex: '',
};

beforeAll(async () => {
  t = await startTestApp();
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.viewer = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
  tokens.globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
  // The second demo region's address (a host name): browsers refuse WebAuthn on IP addresses.
  origin = new URL(t.config.secondRegionUrl).origin;
});
afterAll(() => t.close());
// Every test starts with no passkey anywhere and registers those it needs (whether a user has one decides how
// they sign in, and which list they see), and with no TOTP code used yet: a code is accepted once in its 30 s,
// and two tests signing in with one in the same 30 s would otherwise depend on which ran first.
beforeEach(async () => {
  await t.app.ctx.db.delete(passkeys);
  await t.app.ctx.db.update(users).set({ mfaLastStep: null });
});
afterEach(() => vi.useRealTimers());

interface Options {
  challenge_id: string;
  options: {
    challenge: string;
    rp: { id: string };
    rpId: string;
    user: { id: string };
    authenticatorSelection?: Record<string, unknown>;
    allowCredentials?: unknown[];
    userVerification?: string;
  };
}

function send(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  token?: string,
  from: string | null = origin,
) {
  return app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: { ...(token ? bearer(token) : {}), ...(from ? { origin: from } : {}) },
  });
}

async function registrationOptions(token: string): Promise<Options> {
  const response = await send(t.app, 'POST', '/api/v2/passkeys/options', undefined, token);
  expect(response.statusCode).toBe(200);
  return response.json() as Options;
}

/** Registers a new software passkey for the token's user; returns the authenticator. */
async function registerPasskey(
  token: string,
  password: string,
  name = 'Laptop',
  authenticator = new SoftAuthenticator(),
) {
  const { challenge_id, options } = await registrationOptions(token);
  const response = await send(
    t.app,
    'POST',
    '/api/v2/passkeys',
    { challenge_id, name, password, response: authenticator.register(options, { origin }) },
    token,
  );
  expect(response.statusCode, response.body).toBe(201);
  return { authenticator, passkey: response.json() as { id: number; name: string } };
}

async function loginOptions(): Promise<Options> {
  const response = await send(t.app, 'POST', '/api/v1/login/passkey/options');
  expect(response.statusCode).toBe(200);
  return response.json() as Options;
}

/** A fresh challenge answered by the authenticator: `{ challenge_id, response }`. */
async function assertion(
  authenticator: SoftAuthenticator,
  ceremony: { userVerified?: boolean; counter?: number } = {},
) {
  const { challenge_id, options } = await loginOptions();
  return { challenge_id, response: authenticator.assert(options, { origin, ...ceremony }) };
}

const auditOf = async (token: string, action: string) =>
  (
    await get<{ results: { action: string; object_type: string; after: unknown; before: unknown }[] }>(
      t.app,
      `/api/v2/audit?action=${action}&limit=50`,
      token,
    )
  ).body.results;

describe('registering a passkey', () => {
  it('derives the relying party from the studio origin and refuses IP addresses and other origins', async () => {
    const token = tokens.agent;
    const { options } = await registrationOptions(token);
    expect(options.rp.id).toBe('localhost');
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      userVerification: 'required',
    });
    for (const from of [new URL(t.config.publicUrl).origin, 'https://evil.example', null]) {
      const response = await send(t.app, 'POST', '/api/v2/passkeys/options', undefined, token, from);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ detail: 'Passkeys are not available on this address' });
    }
  });

  it('stores a verified attestation once, with the password, audited; challenges are single use', async () => {
    const token = tokens.agent;
    const authenticator = new SoftAuthenticator();
    const { challenge_id, options } = await registrationOptions(token);
    const body = { challenge_id, name: 'YubiKey', response: authenticator.register(options, { origin }) };

    const wrong = await send(t.app, 'POST', '/api/v2/passkeys', { ...body, password: 'Wrong@2026' }, token);
    expect(wrong.json()).toEqual({ detail: 'Wrong password' });
    const ok = await send(t.app, 'POST', '/api/v2/passkeys', { ...body, password: PASSWORDS.user }, token);
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ name: 'YubiKey', rp_id: 'localhost', last_used_at: null });
    const again = await send(t.app, 'POST', '/api/v2/passkeys', { ...body, password: PASSWORDS.user }, token);
    expect(again.json()).toEqual({ detail: 'Passkey Not Accepted' });

    const list = await get<{ name: string }[]>(t.app, '/api/v2/passkeys', token);
    expect(list.body.map((p) => p.name)).toContain('YubiKey');
    const admin = tokens.admin;
    const entries = await auditOf(admin, 'passkey_registered');
    expect(entries[0]).toMatchObject({
      object_type: 'passkey',
      after: { name: 'YubiKey', rp_id: 'localhost' },
    });
  });

  it('refuses an attestation from another origin, without user verification, or on an expired challenge', async () => {
    const token = tokens.agent;
    const attempt = async (ceremony: { origin: string; userVerified?: boolean }, later = 0) => {
      const authenticator = new SoftAuthenticator();
      const { challenge_id, options } = await registrationOptions(token);
      if (later) vi.useFakeTimers({ now: Date.now() + later, toFake: ['Date'] });
      const response = authenticator.register(options, ceremony);
      const result = await send(
        t.app,
        'POST',
        '/api/v2/passkeys',
        { challenge_id, name: 'Bad', password: PASSWORDS.user, response },
        token,
      );
      vi.useRealTimers();
      return result.json();
    };
    const refused = { detail: 'Passkey Not Accepted' };
    expect(await attempt({ origin: 'http://localhost:1' })).toEqual(refused);
    expect(await attempt({ origin, userVerified: false })).toEqual(refused);
    expect(await attempt({ origin }, 6 * 60_000)).toEqual(refused);
    const names = (await get<{ name: string }[]>(t.app, '/api/v2/passkeys', token)).body.map((p) => p.name);
    expect(names).not.toContain('Bad');
  });

  it('removes a passkey with the password only, audited; 404 for another user', async () => {
    const token = tokens.viewer;
    const { passkey } = await registerPasskey(token, PASSWORDS.user, 'Old phone');
    const other = tokens.agent;
    const foreign = await send(
      t.app,
      'DELETE',
      `/api/v2/passkeys/${passkey.id}`,
      { password: PASSWORDS.user },
      other,
    );
    expect(foreign.statusCode).toBe(404);
    const wrong = await send(
      t.app,
      'DELETE',
      `/api/v2/passkeys/${passkey.id}`,
      { password: 'Nope@2026' },
      token,
    );
    expect(wrong.json()).toEqual({ detail: 'Wrong password' });
    const ok = await send(
      t.app,
      'DELETE',
      `/api/v2/passkeys/${passkey.id}`,
      { password: PASSWORDS.user },
      token,
    );
    expect(ok.statusCode).toBe(204);
    expect((await get<unknown[]>(t.app, '/api/v2/passkeys', token)).body).toEqual([]);
    const admin = tokens.admin;
    expect((await auditOf(admin, 'passkey_removed'))[0]).toMatchObject({ before: { name: 'Old phone' } });
  });
});

describe('signing in with a passkey', () => {
  it('is the second factor after the password; a replayed assertion or counter is refused', async () => {
    // A user without TOTP: the passkey becomes the second factor once registered.
    const user = 'admin@globex.test';
    const password = PASSWORDS.admin;
    const own = tokens.globex;
    const { authenticator } = await registerPasskey(own, password);

    expect((await login(t.app, user, password)).json()).toEqual({ detail: 'Passkey Required', otp: false });
    const first = await assertion(authenticator);
    const ok = await login(t.app, user, password, { passkey: first });
    expect(ok.statusCode).toBe(200);
    const access = (ok.json() as { access: string }).access;
    expect((await get(t.app, '/api/v2/passkeys', access)).status).toBe(200);

    // The same assertion again: its challenge is used.
    expect((await login(t.app, user, password, { passkey: first })).json()).toEqual({
      detail: 'Passkey Not Accepted',
    });
    // A cloned authenticator whose counter went back.
    const replay = await assertion(authenticator, { counter: authenticator.counter });
    expect((await login(t.app, user, password, { passkey: replay })).json()).toEqual({
      detail: 'Passkey Not Accepted',
    });
    // Another user's passkey is not this user's second factor.
    const stranger = new SoftAuthenticator();
    const agent = tokens.agent;
    await registerPasskeyWith(stranger, agent);
    const foreign = await assertion(stranger);
    expect((await login(t.app, user, password, { passkey: foreign })).json()).toEqual({
      detail: 'Passkey Not Accepted',
    });
    // The wrong password fails before any passkey is looked at.
    expect(
      (await login(t.app, user, 'Wrong@2026', { passkey: await assertion(authenticator) })).json(),
    ).toEqual({
      detail: 'Invalid Credentials',
    });
  });

  it('lets a TOTP user choose the code or the passkey', async () => {
    const first = await login(t.app, 'mfa@acme.test', PASSWORDS.user, { otp: totpCode(DEMO_MFA_SECRET) });
    const token = (first.json() as { access: string }).access;
    const { authenticator } = await registerPasskey(token, PASSWORDS.user);
    expect((await login(t.app, 'mfa@acme.test', PASSWORDS.user)).json()).toEqual({
      detail: 'Passkey Required',
      otp: true,
    });
    const byPasskey = await login(t.app, 'mfa@acme.test', PASSWORDS.user, {
      passkey: await assertion(authenticator),
    });
    expect(byPasskey.statusCode).toBe(200);
  });

  it('signs in without a password: discoverable passkey, user verification required', async () => {
    const token = tokens.agent;
    const { authenticator } = await registerPasskey(token, PASSWORDS.user);
    const { options } = await loginOptions();
    expect(options.rpId).toBe('localhost');
    expect(options.userVerification).toBe('required');
    expect(options.allowCredentials ?? []).toEqual([]);

    const noUv = await send(
      t.app,
      'POST',
      '/api/v1/login/passkey',
      await assertion(authenticator, { userVerified: false }),
    );
    expect(noUv.json()).toEqual({ detail: 'Passkey Not Accepted' });
    const ok = await send(t.app, 'POST', '/api/v1/login/passkey', await assertion(authenticator));
    expect(ok.statusCode).toBe(200);
    const answer = ok.json() as { access: string; server: string; company_id: number };
    const me = await get<{ username: string }>(t.app, '/api/v2/passkeys', answer.access);
    expect(me.status).toBe(200);
    expect(answer.company_id).toBe(1);

    // A challenge older than 5 minutes is gone.
    const { challenge_id, options: late } = await loginOptions();
    vi.useFakeTimers({ now: Date.now() + 6 * 60_000, toFake: ['Date'] });
    const expired = await send(t.app, 'POST', '/api/v1/login/passkey', {
      challenge_id,
      response: authenticator.assert(late, { origin }),
    });
    vi.useRealTimers();
    expect(expired.json()).toEqual({ detail: 'Passkey Not Accepted' });
    // Garbage is a 400 with a detail.
    const bad = await send(t.app, 'POST', '/api/v1/login/passkey', {
      challenge_id: 'x',
      response: { id: '!' },
    });
    expect(bad.statusCode).toBe(400);
  });
  it('accepts an ML-DSA-44 passkey (the first algorithm offered): its 2,420-byte signature fits', async () => {
    const token = tokens.globex;
    const { options } = await registrationOptions(token);
    expect((options as unknown as { pubKeyCredParams: { alg: number }[] }).pubKeyCredParams[0]?.alg).toBe(
      -48,
    );
    const { authenticator } = await registerPasskey(
      token,
      PASSWORDS.admin,
      'Post-quantum key',
      new SoftAuthenticator('ML-DSA-44'),
    );
    const ok = await send(t.app, 'POST', '/api/v1/login/passkey', await assertion(authenticator));
    expect(ok.statusCode, ok.body).toBe(200);
    expect((ok.json() as { access: string }).access).toBeTruthy();
  });
});

async function registerPasskeyWith(authenticator: SoftAuthenticator, token: string) {
  const { challenge_id, options } = await registrationOptions(token);
  const response = await send(
    t.app,
    'POST',
    '/api/v2/passkeys',
    {
      challenge_id,
      name: 'Other',
      password: PASSWORDS.user,
      response: authenticator.register(options, { origin }),
    },
    token,
  );
  expect(response.statusCode).toBe(201);
}

describe('a company that requires passkeys', () => {
  it('is set by an Admin with a passkey of their own, audited, and enforced at sign-in', async () => {
    const admin = tokens.admin;
    const agent = tokens.agent;
    const mfa = await login(t.app, 'mfa@acme.test', PASSWORDS.user, { otp: totpCode(DEMO_MFA_SECRET) });
    await registerPasskey((mfa.json() as { access: string }).access, PASSWORDS.user);
    const body = { require_passkeys: true, password: PASSWORDS.admin };
    expect(
      (await send(t.app, 'PUT', '/api/v2/company/passkeys', { ...body, password: PASSWORDS.user }, agent))
        .statusCode,
    ).toBe(403);
    expect((await send(t.app, 'PUT', '/api/v2/company/passkeys', body, admin)).json()).toEqual({
      detail: 'Register a passkey for yourself first',
    });
    await registerPasskey(admin, PASSWORDS.admin, 'Admin key');
    const on = await send(t.app, 'PUT', '/api/v2/company/passkeys', body, admin);
    expect(on.json()).toEqual({ require_passkeys: true });
    expect((await auditOf(admin, 'passkey_policy_changed'))[0]).toMatchObject({
      object_type: 'company',
      before: { require_passkeys: false },
      after: { require_passkeys: true },
    });

    // A TOTP code is no longer enough for a user with a passkey.
    expect(
      (await login(t.app, 'mfa@acme.test', PASSWORDS.user, { otp: totpCode(DEMO_MFA_SECRET) })).json(),
    ).toEqual({
      detail: 'Passkey Required',
      otp: false,
    });

    // A user without a passkey registers one right after the password, with the restricted token only.
    const refused = await login(t.app, 'viewer@acme.test', PASSWORDS.user);
    const answer = refused.json() as { detail: string; access: string; user_id: number; server: string };
    expect(answer).toMatchObject({ detail: 'Passkey Registration Required', server: t.config.publicUrl });
    expect((await get(t.app, '/api/v2/passkeys', answer.access)).status).toBe(401);
    expect((await get(t.app, `/api/v2/user/${answer.user_id}`, answer.access)).status).toBe(401);
    const { authenticator } = await registerPasskey(answer.access, PASSWORDS.user, 'First passkey');
    expect((await login(t.app, 'viewer@acme.test', PASSWORDS.user)).json()).toMatchObject({
      detail: 'Passkey Required',
    });
    const signedIn = await login(t.app, 'viewer@acme.test', PASSWORDS.user, {
      passkey: await assertion(authenticator),
    });
    expect(signedIn.statusCode).toBe(200);

    const off = await send(
      t.app,
      'PUT',
      '/api/v2/company/passkeys',
      { ...body, require_passkeys: false },
      admin,
    );
    expect(off.json()).toEqual({ require_passkeys: false });
    expect((await get<{ require_passkeys: boolean }>(t.app, '/api/v2/company/passkeys', admin)).body).toEqual(
      {
        require_passkeys: false,
      },
    );
  });
});
