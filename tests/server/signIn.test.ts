import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_RULE_DETAIL } from '#contract/passwords';
import { createTokenService } from '../../server/auth/tokens';
import { totpCode } from '../../server/auth/totp';
import { DEMO_MFA_SECRET } from '../../server/db/seed/demo';
import { consumeCode, issueCode } from '../../server/domain/oneTimeCodes';
import type { FaceComparison, FaceMatcher } from '../../server/integrations/faceMatch';
import { sampleFaceDataUrl } from '../../server/integrations/faceSamples';
import { get, login, mailedCode, PASSWORDS, post, startTestApp, type TestApp, tokenFor } from './helpers';

const decode = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;

/** A face matcher whose answer the test sets; it records what it was asked to compare. */
function stubMatcher() {
  const calls: { reference: Buffer; probe: Buffer }[] = [];
  let next: FaceComparison = { outcome: 'no_match', similarity: 0.1 };
  const matcher: FaceMatcher = {
    async compare(reference, probe) {
      calls.push({ reference, probe });
      return next;
    },
  };
  return {
    matcher,
    calls,
    answer(outcome: FaceComparison) {
      next = outcome;
    },
  };
}

const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const pngDataUrl = `data:image/png;base64,${PNG_1PX.toString('base64')}`;

const stub = stubMatcher();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(
    {
      loginRateLimit: { perAccount: 1000, perAddress: 100_000, timeWindowMs: 60_000 },
      oneTimeCodes: { ttlMs: 10 * 60_000, maxAttempts: 5, sendsPerEmail: 5, timeWindowMs: 60_000 },
    },
    { faceMatcher: stub.matcher },
  );
});
afterAll(() => t.close());

const userIdOf = async (email: string, password: string) =>
  decode(await tokenFor(t.app, email, password)).user_id as number;

// ---------------------------------------------------------------- password reset by e-mail code

describe('POST /api/v2/user/reset_password/send and /submit', () => {
  it('answers 200 for an unknown address and mails nothing', async () => {
    const sent = await post(t.app, '/api/v2/user/reset_password/send', { email: 'nobody@acme.test' });
    expect(sent.status).toBe(200);
    expect((await get<unknown[]>(t.app, '/api/dev/outbox?to=nobody@acme.test')).body).toEqual([]);
  });

  it('refuses a malformed e-mail with the message of the e-mail rule', async () => {
    const sent = await post<{ detail: string }>(t.app, '/api/v2/user/reset_password/send', { email: 'x@y' });
    expect(sent.status).toBe(400);
    expect(sent.body.detail).toContain('This is not a valid e-mail address.');
  });

  it('resets a forced password reset end to end with the mailed code; the code is single-use', async () => {
    expect((await login(t.app, 'reset@acme.test', PASSWORDS.user)).json()).toEqual({
      detail: 'Password Reset Required',
    });
    const sent = await post(t.app, '/api/v2/user/reset_password/send', { email: 'reset@acme.test' });
    expect(sent.status).toBe(200);
    const { body: mails } = await get<{ subject: string; body: string; created_at: string }[]>(
      t.app,
      '/api/dev/outbox?to=reset@acme.test',
    );
    expect(mails[0]).toMatchObject({ subject: 'Your password reset code', created_at: expect.any(String) });
    const code = await mailedCode(t.app, 'reset@acme.test');
    expect(code).toMatch(/^\d{6}$/);

    // The password rule (docs/product/validation.md) first: a weak password does not use up the code.
    const weak = await post(t.app, '/api/v2/user/reset_password/submit', {
      email: 'reset@acme.test',
      otp: code,
      new_password: 'alllowercase1',
    });
    expect(weak).toMatchObject({
      status: 400,
      body: { detail: PASSWORD_RULE_DETAIL },
    });
    const wrong = await post(t.app, '/api/v2/user/reset_password/submit', {
      email: 'reset@acme.test',
      otp: code === '000000' ? '111111' : '000000',
      new_password: 'NewPass@2027',
    });
    expect(wrong).toMatchObject({ status: 400, body: { detail: 'Invalid code' } });

    const ok = await post(t.app, '/api/v2/user/reset_password/submit', {
      email: 'RESET@acme.test',
      otp: code,
      new_password: 'NewPass@2027',
    });
    expect(ok.status).toBe(200);

    // Forced reset cleared: a normal login with the new password; the old one is gone.
    expect((await login(t.app, 'reset@acme.test', 'NewPass@2027')).statusCode).toBe(200);
    expect((await login(t.app, 'reset@acme.test', PASSWORDS.user)).json()).toEqual({
      detail: 'Invalid Credentials',
    });
    const again = await post(t.app, '/api/v2/user/reset_password/submit', {
      email: 'reset@acme.test',
      otp: code,
      new_password: 'Other@2028',
    });
    expect(again).toMatchObject({ status: 400, body: { detail: 'Invalid code' } });
  });

  it('kills a code after 5 wrong tries', async () => {
    await post(t.app, '/api/v2/user/reset_password/send', { email: 'viewer@acme.test' });
    const code = await mailedCode(t.app, 'viewer@acme.test');
    const other = code === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) {
      const wrong = await post(t.app, '/api/v2/user/reset_password/submit', {
        email: 'viewer@acme.test',
        otp: other,
        new_password: 'NewPass@2027',
      });
      expect(wrong.body).toEqual({ detail: 'Invalid code' });
    }
    const right = await post(t.app, '/api/v2/user/reset_password/submit', {
      email: 'viewer@acme.test',
      otp: code,
      new_password: 'NewPass@2027',
    });
    expect(right).toMatchObject({ status: 400, body: { detail: 'Invalid code' } });
    expect((await login(t.app, 'viewer@acme.test', PASSWORDS.user)).statusCode).toBe(200);
  });

  it('only the newest code counts', async () => {
    await post(t.app, '/api/v2/user/reset_password/send', { email: 'agent@acme.test' });
    const first = await mailedCode(t.app, 'agent@acme.test');
    await post(t.app, '/api/v2/user/reset_password/send', { email: 'agent@acme.test' });
    const second = await mailedCode(t.app, 'agent@acme.test');
    if (first !== second) {
      const old = await post(t.app, '/api/v2/user/reset_password/submit', {
        email: 'agent@acme.test',
        otp: first,
        new_password: 'Agent@2027',
      });
      expect(old.body).toEqual({ detail: 'Invalid code' });
    }
    const ok = await post(t.app, '/api/v2/user/reset_password/submit', {
      email: 'agent@acme.test',
      otp: second,
      new_password: 'Agent@2027',
    });
    expect(ok.status).toBe(200);
    expect((await login(t.app, 'agent@acme.test', 'Agent@2027')).statusCode).toBe(200);
  });

  it('limits sends per e-mail: 429 with Retry-After after 5 a minute', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof post>> | null = null;
    for (let i = 0; i < 6; i++) {
      last = await post(t.app, '/api/v2/user/reset_password/send', { email: 'limit@acme.test' });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(last?.body).toEqual({ detail: 'Too many code requests, try again later' });
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('one-time codes (domain)', () => {
  const rules = { ttlMs: 10 * 60_000, maxAttempts: 5 };
  it('expire after 10 minutes', async () => {
    const now = new Date('2026-11-22T10:00:00Z');
    const secret = t.config.jwtSecret;
    const code = await issueCode(t.app.ctx.db, secret, rules, 'exp@acme.test', 'reset_password', now);
    const later = new Date(now.getTime() + 10 * 60_000 + 1);
    expect(
      await consumeCode(t.app.ctx.db, secret, rules, 'exp@acme.test', 'reset_password', code, later),
    ).toBe(false);
    const fresh = await issueCode(t.app.ctx.db, secret, rules, 'exp@acme.test', 'reset_password', now);
    const inTime = new Date(now.getTime() + 9 * 60_000);
    expect(
      await consumeCode(t.app.ctx.db, secret, rules, 'exp@acme.test', 'reset_password', fresh, inTime),
    ).toBe(true);
  });

  it('are bound to their purpose and stored only as a hash', async () => {
    const secret = t.config.jwtSecret;
    const code = await issueCode(t.app.ctx.db, secret, rules, 'p@acme.test', 'email_verification');
    expect(await consumeCode(t.app.ctx.db, secret, rules, 'p@acme.test', 'reset_password', code)).toBe(false);
    const rows = await t.app.ctx.db.query.oneTimeCodes.findMany();
    expect(rows.some((r) => r.codeHash.includes(code))).toBe(false);
  });
});

describe('POST /api/v2/user/email_otp/send and /submit', () => {
  it('verifies an e-mail with the mailed code once', async () => {
    expect(
      (await post(t.app, '/api/v2/user/email_otp/send', { email: 'new.customer@example.com' })).status,
    ).toBe(200);
    const code = await mailedCode(t.app, 'new.customer@example.com');
    const wrong = await post(t.app, '/api/v2/user/email_otp/submit', {
      email: 'new.customer@example.com',
      otp: code === '000000' ? '111111' : '000000',
    });
    expect(wrong).toMatchObject({ status: 400, body: { detail: 'Invalid code' } });
    const ok = await post(t.app, '/api/v2/user/email_otp/submit', {
      email: 'new.customer@example.com',
      otp: code,
    });
    expect(ok).toMatchObject({ status: 200, body: { verified: true } });
    const again = await post(t.app, '/api/v2/user/email_otp/submit', {
      email: 'new.customer@example.com',
      otp: code,
    });
    expect(again).toMatchObject({ status: 400, body: { detail: 'Invalid code' } });
  });

  it('limits sends per e-mail', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await post(t.app, '/api/v2/user/email_otp/send', { email: 'spam@example.com' })).status);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('GET /api/dev/outbox', () => {
  it('does not exist when dev endpoints are off', async () => {
    const prod = await startTestApp({ devEndpoints: false });
    try {
      expect((await get(prod.app, '/api/dev/outbox?to=a@b.test')).status).toBe(404);
    } finally {
      await prod.close();
    }
    // A second app in the test: as long as the other files' beforeAll (a loaded CI machine).
  }, 180_000);
});

// ---------------------------------------------------------------- two-factor

/** The code of the next time step: the one a user types after the current one was used. */
const nextCode = (secret: string) => totpCode(secret, Math.floor(Date.now() / 1000) + 30);

describe('POST /api/v2/user/{id}/otp_reset and /otp_verify', () => {
  it('sets up two-factor with a real TOTP code, then login needs the code; disable turns it off', async () => {
    const token = await tokenFor(t.app, 'shared@demo.test', PASSWORDS.user, t.config.publicUrl);
    const id = decode(token).user_id as number;

    const wrongPassword = await post(
      t.app,
      `/api/v2/user/${id}/otp_reset`,
      { password: 'Nope@1', disable: false },
      token,
    );
    expect(wrongPassword).toMatchObject({ status: 400, body: { detail: 'Wrong password' } });

    const reset = await post<{ base32_secret: string }>(
      t.app,
      `/api/v2/user/${id}/otp_reset`,
      { password: PASSWORDS.user, disable: false },
      token,
    );
    expect(reset.status).toBe(200);
    const secret = reset.body.base32_secret;
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    // Pending only: mfa still off.
    expect((await get<{ mfa: boolean }>(t.app, `/api/v2/user/${id}`, token)).body.mfa).toBe(false);

    const verify = (body: object) =>
      post<{ mfa: boolean; detail?: string }>(t.app, `/api/v2/user/${id}/otp_verify`, body, token);
    expect(
      (await verify({ base32_secret: secret, code: totpCode(secret), password: 'Nope@1' })).body,
    ).toEqual({ detail: 'Wrong password' });
    expect(
      (
        await verify({
          base32_secret: DEMO_MFA_SECRET,
          code: totpCode(DEMO_MFA_SECRET),
          password: PASSWORDS.user,
        })
      ).body,
    ).toEqual({ detail: 'Invalid code' });
    const now = Math.floor(Date.now() / 1000);
    expect(
      (await verify({ base32_secret: secret, code: totpCode(secret, now - 600), password: PASSWORDS.user }))
        .body,
    ).toEqual({ detail: 'Invalid code' });
    const ok = await verify({ base32_secret: secret, code: totpCode(secret), password: PASSWORDS.user });
    expect(ok.status).toBe(200);
    expect(ok.body.mfa).toBe(true);

    const server = { server: t.config.publicUrl };
    expect((await login(t.app, 'shared@demo.test', PASSWORDS.user, server)).json()).toEqual({
      detail: 'OTP Required',
    });
    expect(
      // The setup's code used its time step: the app's next code signs in (one step of drift).
      (await login(t.app, 'shared@demo.test', PASSWORDS.user, { ...server, otp: nextCode(secret) }))
        .statusCode,
    ).toBe(200);

    const off = await post(
      t.app,
      `/api/v2/user/${id}/otp_reset`,
      { password: PASSWORDS.user, disable: true },
      token,
    );
    expect(off).toMatchObject({ status: 200, body: { base32_secret: null } });
    expect((await get<{ mfa: boolean }>(t.app, `/api/v2/user/${id}`, token)).body.mfa).toBe(false);
    expect((await login(t.app, 'shared@demo.test', PASSWORDS.user, server)).statusCode).toBe(200);
  });

  it('is the caller’s own only: another user is 403, no token is 401', async () => {
    const token = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    const agentId = await userIdOf('viewer@acme.test', PASSWORDS.user);
    const other = await post(
      t.app,
      `/api/v2/user/${agentId}/otp_reset`,
      { password: PASSWORDS.admin, disable: true },
      token,
    );
    expect(other.status).toBe(403);
    const globexAdmin = await userIdOf('admin@globex.test', PASSWORDS.admin);
    expect(
      (await post(t.app, `/api/v2/user/${globexAdmin}/otp_reset`, { password: 'x', disable: true }, token))
        .status,
    ).toBe(404);
    expect((await post(t.app, '/api/v2/user/1/otp_reset', { password: 'x', disable: true })).status).toBe(
      401,
    );
  });
});

describe('forced two-factor reset (Two Factor Reset Required)', () => {
  it('answers a restricted token that only reaches otp_reset and otp_verify, then sets up 2FA end to end', async () => {
    const first = await login(t.app, 'mfa-reset@acme.test', PASSWORDS.user);
    expect(first.statusCode).toBe(400);
    const body = first.json() as { detail: string; access: string; server: string; user_id: number };
    expect(body).toMatchObject({ detail: 'Two Factor Reset Required', server: t.config.publicUrl });
    const id = body.user_id;
    const claims = decode(body.access);
    expect(claims).toMatchObject({ user_id: id, token_type: 'mfa_setup' });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(600);

    const restricted = body.access;
    for (const url of [`/api/v2/user/${id}`, '/api/v2/profile', '/api/v2/company', '/api/v2/country']) {
      expect((await get(t.app, url, restricted)).status, url).toBe(401);
    }
    expect((await post(t.app, '/api/v2/user/socket_token', { studio: true }, restricted)).status).toBe(401);
    expect(
      (
        await post(
          t.app,
          `/api/v2/user/${id}/photo`,
          { password: PASSWORDS.user, photo: pngDataUrl },
          restricted,
        )
      ).status,
    ).toBe(401);
    expect(
      (
        await post(
          t.app,
          '/api/v2/user/1/otp_reset',
          { password: PASSWORDS.user, disable: false },
          restricted,
        )
      ).status,
    ).toBe(403);

    const reset = await post<{ base32_secret: string }>(
      t.app,
      `/api/v2/user/${id}/otp_reset`,
      { password: PASSWORDS.user, disable: false },
      restricted,
    );
    expect(reset.status).toBe(200);
    const secret = reset.body.base32_secret;
    const verified = await post<{ mfa: boolean }>(
      t.app,
      `/api/v2/user/${id}/otp_verify`,
      { base32_secret: secret, code: totpCode(secret), password: PASSWORDS.user },
      restricted,
    );
    expect(verified.status).toBe(200);
    expect(verified.body.mfa).toBe(true);

    // Flag cleared: the studio signs in again, now with a code.
    expect((await login(t.app, 'mfa-reset@acme.test', PASSWORDS.user)).json()).toEqual({
      detail: 'OTP Required',
    });
    expect(
      (await login(t.app, 'mfa-reset@acme.test', PASSWORDS.user, { otp: nextCode(secret) })).statusCode,
    ).toBe(200);
  });

  it('refuses an expired restricted token', async () => {
    const tokens = createTokenService({
      secret: t.config.jwtSecret,
      accessTtlSeconds: 60,
      socketTtlSeconds: 60,
      mfaSetupTtlSeconds: 1,
    });
    const restricted = await tokens.signMfaSetup({ user_id: 6, company_id: 1 });
    expect(await tokens.verifyMfaSetup(restricted)).toMatchObject({ user_id: 6, company_id: 1 });
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await tokens.verifyMfaSetup(restricted)).toBeNull();
    const answer = await post(
      t.app,
      '/api/v2/user/6/otp_reset',
      { password: PASSWORDS.user, disable: false },
      restricted,
    );
    expect(answer.status).toBe(401);
  });

  it('never takes an access token for a restricted one or the reverse', async () => {
    const access = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    expect(await t.app.ctx.tokens.verifyMfaSetup(access)).toBeNull();
    const restricted = await t.app.ctx.tokens.signMfaSetup({ user_id: 1, company_id: 1 });
    expect(await t.app.ctx.tokens.verifyAccess(restricted)).toBeNull();
  });
});

// ---------------------------------------------------------------- auth photo and face login

describe('POST /api/v2/user/{id}/photo and the face photo at login', () => {
  it('stores the photo after the password; login then needs a matching face photo', async () => {
    const token = await tokenFor(t.app, 'api@acme.test', PASSWORDS.api);
    const id = decode(token).user_id as number;
    const photo = sampleFaceDataUrl('a1');

    expect(
      await post(t.app, `/api/v2/user/${id}/photo`, { id, password: 'Nope@1', photo }, token),
    ).toMatchObject({
      status: 400,
      body: { detail: 'Wrong password' },
    });
    const gif = `data:image/jpeg;base64,${Buffer.from('GIF89a-not-a-jpeg').toString('base64')}`;
    expect(
      (await post(t.app, `/api/v2/user/${id}/photo`, { id, password: PASSWORDS.api, photo: gif }, token))
        .status,
    ).toBe(400);
    expect(
      (await post(t.app, '/api/v2/user/1/photo', { id: 1, password: PASSWORDS.api, photo }, token)).status,
    ).toBe(403);

    const saved = await post<{ photo: string | null }>(
      t.app,
      `/api/v2/user/${id}/photo`,
      { id, password: PASSWORDS.api, photo },
      token,
    );
    expect(saved.status).toBe(200);
    expect(saved.body.photo).toMatch(/\/storage\/auth-photos\/.+\.jpg\?expires=/);

    expect((await login(t.app, 'api@acme.test', PASSWORDS.api)).json()).toEqual({
      detail: 'Face Photo Required',
    });

    stub.calls.length = 0;
    stub.answer({ outcome: 'no_match', similarity: 0.2 });
    expect(
      (await login(t.app, 'api@acme.test', PASSWORDS.api, { photo: sampleFaceDataUrl('b') })).json(),
    ).toEqual({
      detail: 'Face Not Matched',
    });
    // Compared with the stored auth photo, byte for byte.
    expect(stub.calls[0]?.reference.equals(Buffer.from(photo.split(',')[1] as string, 'base64'))).toBe(true);

    stub.answer({ outcome: 'unavailable', reason: 'test' });
    expect(
      (await login(t.app, 'api@acme.test', PASSWORDS.api, { photo: sampleFaceDataUrl('a2') })).json(),
    ).toEqual({
      detail: 'Face Login Unavailable',
    });

    // Not an image: never passed to the matcher.
    stub.calls.length = 0;
    expect(
      (await login(t.app, 'api@acme.test', PASSWORDS.api, { photo: 'data:image/png;base64,AAAA' })).json(),
    ).toEqual({
      detail: 'Face Not Matched',
    });
    expect(stub.calls).toHaveLength(0);

    stub.answer({ outcome: 'match', similarity: 0.9 });
    const ok = await login(t.app, 'api@acme.test', PASSWORDS.api, { photo: sampleFaceDataUrl('a2') });
    expect(ok.statusCode).toBe(200);

    // A PNG replaces it.
    const png = await post<{ photo: string }>(
      t.app,
      `/api/v2/user/${id}/photo`,
      { id, password: PASSWORDS.api, photo: pngDataUrl },
      token,
    );
    expect(png.body.photo).toMatch(/\.png\?expires=/);
  });

  it('refuses photos over 5 MB', async () => {
    const token = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    const big = Buffer.alloc(5 * 1024 * 1024 + 100);
    big.set([0xff, 0xd8, 0xff]);
    const answer = await post(
      t.app,
      '/api/v2/user/1/photo',
      { id: 1, password: PASSWORDS.admin, photo: `data:image/jpeg;base64,${big.toString('base64')}` },
      token,
    );
    expect(answer.status).toBe(400);
  });

  it('photo login is refused with Face Login Unavailable when face matching is off', async () => {
    const off = await startTestApp({ faceMatch: { engine: 'off', minSimilarity: 0.7 } });
    try {
      const answer = await login(off.app, 'face@acme.test', PASSWORDS.user, {
        photo: sampleFaceDataUrl('a1'),
      });
      expect(answer.json()).toEqual({ detail: 'Face Login Unavailable' });
    } finally {
      await off.close();
    }
  });
});

describe('the seeded face@acme.test with the real face model', () => {
  let real: TestApp;
  beforeAll(async () => {
    real = await startTestApp();
  });
  afterAll(() => real.close());

  it('signs in with another photo of the same person and refuses someone else', async () => {
    expect((await login(real.app, 'face@acme.test', PASSWORDS.user)).json()).toEqual({
      detail: 'Face Photo Required',
    });
    const other = await login(real.app, 'face@acme.test', PASSWORDS.user, { photo: sampleFaceDataUrl('b') });
    expect(other.json()).toEqual({ detail: 'Face Not Matched' });
    const same = await login(real.app, 'face@acme.test', PASSWORDS.user, { photo: sampleFaceDataUrl('a2') });
    expect(same.statusCode).toBe(200);
  }, 60_000);
});
