/**
 * A disabled user's old token worked again once the user was enabled, and the sign-up token
 * minted a new Admin session after its company existed (no password, no second factor). Now disabling ends the
 * user's sessions and sockets for good, and the sign-up token is single use.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EmailVerified } from '#contract/signup';
import { get, mailedCode, PASSWORDS, type TestApp, tokenFor } from '../server/helpers';
import { type LiveApp, liveApp } from '../server/liveSockets';

let live: LiveApp;
let t: TestApp;

beforeAll(async () => {
  live = await liveApp({ loginRateLimit: { perAccount: 1000, perAddress: 1000, timeWindowMs: 60_000 } });
  t = live.t;
}, 180_000);
afterAll(() => live.close());

const userIdOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).user_id as number;

async function call(method: 'POST' | 'PATCH', path: string, payload: object, token?: string) {
  return t.app.inject({
    method,
    url: path,
    payload,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

describe('sessions', () => {
  it('disabling a user ends their sessions and sockets; enabling again revives neither', async () => {
    const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    const agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
    const id = userIdOf(agent);
    const socket = await live.studio(agent);
    const closed = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));

    const off = await call(
      'PATCH',
      `/api/v2/user/${id}`,
      { password: PASSWORDS.admin, is_active: false },
      admin,
    );
    expect(off.statusCode, off.body).toBe(200);
    expect(await closed).toBe('io server disconnect');
    expect((await get(t.app, '/api/v2/profile', agent)).status).toBe(401);

    const on = await call(
      'PATCH',
      `/api/v2/user/${id}`,
      { password: PASSWORDS.admin, is_active: true },
      admin,
    );
    expect(on.statusCode, on.body).toBe(200);
    // The old token stays dead; the user signs in again.
    expect((await get(t.app, '/api/v2/profile', agent)).status).toBe(401);
    const fresh = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
    expect((await get(t.app, '/api/v2/profile', fresh)).status).toBe(200);
  });

  it('the sign-up token is single use: once the company exists it mints no session', async () => {
    const email = `founder-${Date.now()}@newco.test`;
    const password = 'Founder#2026';
    const registered = await call('POST', '/api/v2/stp/register', { email, password });
    expect(registered.statusCode).toBe(200);
    const { signup } = registered.json() as { signup: string };
    const otp = await mailedCode(t.app, email);
    const verified = (
      await call('POST', '/api/v2/user/email_otp/submit', { email, otp, signup })
    ).json() as EmailVerified;
    const token = verified.signup_token ?? '';
    const company = {
      company_name: 'Newco',
      package: 1,
      first_name: 'Nora',
      last_name: 'Founder',
      phone: '+90 555 123 45 67',
      industry: 'Payments',
      country: 'tr',
    };
    const first = await call('POST', '/api/v2/stp/company', company, token);
    expect(first.statusCode, first.body).toBe(200);
    const again = await call('POST', '/api/v2/stp/company', company, token);
    expect(again.statusCode).toBe(401);
    expect(again.json()).not.toHaveProperty('access');
  });
});
