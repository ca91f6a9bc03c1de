import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../server/auth/totp';
import { DEMO_MFA_SECRET } from '../../server/db/seed/demo';
import { bearer, get, login, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ loginRateLimit: { perAccount: 5, perAddress: 1000, timeWindowMs: 60_000 } });
});
afterAll(() => t.close());

const decode = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;

describe('POST /api/v1/login/', () => {
  it('returns access, company_id, server and regions for a plain account', async () => {
    const response = await login(t.app, 'admin@acme.test', PASSWORDS.admin);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      company_id: 1,
      server: t.config.publicUrl,
      regions: [{ name: 'Europe', server: t.config.publicUrl }],
    });
    expect(decode(body.access)).toMatchObject({
      user_id: 1,
      company_id: 1,
      email: 'admin@acme.test',
      is_api_user: false,
    });
    expect(decode(body.access).exp).toEqual(expect.any(Number));
  });

  it('matches the e-mail case-insensitively', async () => {
    expect((await login(t.app, 'Admin@Acme.TEST', PASSWORDS.admin)).statusCode).toBe(200);
  });

  it('rejects a wrong password and an unknown user with Invalid Credentials', async () => {
    for (const [username, password] of [
      ['admin@acme.test', 'Wrong@2026'],
      ['nobody@acme.test', PASSWORDS.admin],
    ] as const) {
      const response = await login(t.app, username, password);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ detail: 'Invalid Credentials' });
    }
  });

  it('asks for the region when the account lives in two regions, then logs in to the chosen one', async () => {
    const first = await login(t.app, 'shared@demo.test', PASSWORDS.user);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      regions: [
        { name: 'Europe', server: t.config.publicUrl },
        { name: 'Türkiye', server: t.config.secondRegionUrl },
      ],
    });
    const second = await login(t.app, 'shared@demo.test', PASSWORDS.user, {
      server: t.config.secondRegionUrl,
    });
    expect(second.statusCode).toBe(200);
    const body = second.json();
    expect(body.company_id).toBe(2);
    expect(body.server).toBe(t.config.secondRegionUrl);
    expect(body.regions).toHaveLength(2);
    const unknown = await login(t.app, 'shared@demo.test', PASSWORDS.user, {
      server: 'http://elsewhere.test',
    });
    expect(unknown.json()).toEqual({ detail: 'Invalid Credentials' });
  });

  it('requires a valid one-time code when two-factor is on', async () => {
    expect((await login(t.app, 'mfa@acme.test', PASSWORDS.user)).json()).toEqual({ detail: 'OTP Required' });
    expect((await login(t.app, 'mfa@acme.test', PASSWORDS.user, { otp: '000000' })).json()).toEqual({
      detail: 'Invalid OTP',
    });
    const ok = await login(t.app, 'mfa@acme.test', PASSWORDS.user, { otp: totpCode(DEMO_MFA_SECRET) });
    expect(ok.statusCode).toBe(200);
  });

  it('answers the forced reset details of the error catalogue', async () => {
    expect((await login(t.app, 'reset@acme.test', PASSWORDS.user)).json()).toEqual({
      detail: 'Password Reset Required',
    });
    // The forced two-factor answer also carries a restricted token (tests/server/signIn.test.ts).
    expect((await login(t.app, 'mfa-reset@acme.test', PASSWORDS.user)).json()).toMatchObject({
      detail: 'Two Factor Reset Required',
    });
  });

  it('marks the API user in the token', async () => {
    expect(decode(await tokenFor(t.app, 'api@acme.test', PASSWORDS.api)).is_api_user).toBe(true);
  });

  it('rejects unknown fields and missing ones with 400 and a detail', async () => {
    const extra = await t.app.inject({
      method: 'POST',
      url: '/api/v1/login/',
      payload: { username: 'a@b.test', password: 'x', admin: true },
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().detail).toMatch(/admin/);
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/v1/login/',
      payload: { username: 'a@b.test' },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().detail).toMatch(/password/);
  });

  it('limits attempts per account and address with 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await login(t.app, 'limited@acme.test', 'Wrong@2026')).statusCode);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    const limited = await login(t.app, 'LIMITED@acme.test', 'Wrong@2026');
    expect(limited.json()).toEqual({ detail: 'Too many login attempts, try again later' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another account from the same address is not affected.
    expect((await login(t.app, 'agent@acme.test', PASSWORDS.user)).statusCode).toBe(200);
  });
});

describe('GET /api/v1/regions', () => {
  it('lists both demo regions', async () => {
    const { status, body } = await get(t.app, '/api/v1/regions');
    expect(status).toBe(200);
    expect(body).toEqual([
      { name: 'Europe', server: t.config.publicUrl },
      { name: 'Türkiye', server: t.config.secondRegionUrl },
    ]);
  });
});

describe('access tokens', () => {
  it('answers 401 with a detail for a missing, malformed, forged or expired token', async () => {
    const key = new TextEncoder().encode(t.config.jwtSecret);
    const claims = {
      user_id: 1,
      company_id: 1,
      email: 'admin@acme.test',
      is_api_user: false,
      token_type: 'access',
    };
    const expired = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime(0)
      .sign(key);
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-another'));
    for (const token of [undefined, 'not-a-token', expired, forged]) {
      const { status, body } = await get<{ detail: string }>(t.app, '/api/v2/profile', token);
      expect(status).toBe(401);
      expect(body.detail).toEqual(expect.any(String));
    }
  });

  it('does not accept a socket token as an access token', async () => {
    const access = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
    const socket = await t.app.inject({
      method: 'POST',
      url: '/api/v2/user/socket_token',
      headers: bearer(access),
      payload: { studio: true },
    });
    expect(socket.statusCode).toBe(200);
    expect((await get(t.app, '/api/v2/profile', socket.json().token)).status).toBe(401);
  });

  it('loads the signed-in user with the contract fields', async () => {
    const token = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
    const userId = decode(token).user_id as number;
    const { status, body } = await get(t.app, `/api/v2/user/${userId}`, token);
    expect(status).toBe(200);
    expect(body).toEqual({
      id: userId,
      first_name: 'Rita',
      last_name: 'Viewer',
      username: 'viewer@acme.test',
      phone: expect.any(String),
      photo: null,
      groups: [],
      is_superuser: false,
      is_staff: false,
      mfa: false,
      company: 1,
      permissions: ['view_profiles_page', 'view_settings_page'],
      role: 'Restricted User',
      is_active: true,
      last_login: expect.any(String),
      force_password_reset: false,
      force_mfa_reset: false,
      // The languages an agent speaks (one-at-a-time routing): none set for this user.
      languages: [],
      // The screen `/` opens: the customers list unless the user chose the reviewers' desk.
      start_page: 'customers',
      // The language of the user's e-mail: none set, so the company's.
      mail_language: null,
    });
  });
});
