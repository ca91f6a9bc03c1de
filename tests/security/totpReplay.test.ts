/**
 * The same TOTP code signed in three times. Now each RFC 6238 time step is accepted once per
 * user (one step of drift either way); a replay gets the answer of a wrong code, at sign-in and in the two-factor
 * set-up alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode } from '../../server/auth/totp';
import { DEMO_MFA_SECRET } from '../../server/db/seed/demo';
import { login, PASSWORDS, post, startTestApp, type TestApp, tokenFor } from '../server/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ loginRateLimit: { perAccount: 1000, perAddress: 1000, timeWindowMs: 60_000 } });
}, 180_000);
afterAll(async () => {
  await t.close();
});

const now = () => Math.floor(Date.now() / 1000);

describe('TOTP replay', () => {
  it('a code signs in once; its replay is answered like a wrong code', async () => {
    const wrong = await login(t.app, 'mfa@acme.test', PASSWORDS.user, { otp: '000000' });
    const code = totpCode(DEMO_MFA_SECRET);
    expect((await login(t.app, 'mfa@acme.test', PASSWORDS.user, { otp: code })).statusCode).toBe(200);
    const replay = await login(t.app, 'mfa@acme.test', PASSWORDS.user, { otp: code });
    expect(replay.statusCode).toBe(wrong.statusCode);
    expect(replay.json()).toEqual(wrong.json());
    expect(replay.json()).toEqual({ detail: 'Invalid OTP' });
    // The next step (a clock one period ahead) still signs in, once.
    const next = totpCode(DEMO_MFA_SECRET, now() + 30);
    expect((await login(t.app, 'mfa@acme.test', PASSWORDS.user, { otp: next })).statusCode).toBe(200);
    expect((await login(t.app, 'mfa@acme.test', PASSWORDS.user, { otp: next })).statusCode).toBe(400);
    // An older step than the last one used is a replay too.
    expect((await login(t.app, 'mfa@acme.test', PASSWORDS.user, { otp: code })).statusCode).toBe(400);
  });

  it('two sign-ins racing with one code: only one gets a session', async () => {
    const token = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
    const me = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).user_id as number;
    const reset = await post<{ base32_secret: string }>(
      t.app,
      `/api/v2/user/${me}/otp_reset`,
      { password: PASSWORDS.user, disable: false },
      token,
    );
    const secret = reset.body.base32_secret;
    // The set-up's code uses its step: it cannot sign in afterwards.
    const setup = totpCode(secret);
    const verified = await post(
      t.app,
      `/api/v2/user/${me}/otp_verify`,
      { base32_secret: secret, code: setup, password: PASSWORDS.user },
      token,
    );
    expect(verified.status).toBe(200);
    expect((await login(t.app, 'viewer@acme.test', PASSWORDS.user, { otp: setup })).json()).toEqual({
      detail: 'Invalid OTP',
    });
    const code = totpCode(secret, now() + 30);
    const answers = await Promise.all(
      [1, 2, 3].map(() => login(t.app, 'viewer@acme.test', PASSWORDS.user, { otp: code })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400, 400]);
  });
});
