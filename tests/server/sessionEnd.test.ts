/**
 * A disabled user with the right password is told so (a wrong password still learns nothing), and
 * the token of an ended session gets a 401 that says why it ended.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_DISABLED_DETAIL, SESSION_END_DETAILS } from '#contract/sessionEnd';
import { createTokenService } from '../../server/auth/tokens';
import { get, login, PASSWORDS, post, startTestApp, type TestApp, tokenFor, userId } from './helpers';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ loginRateLimit: { perAccount: 1000, perAddress: 1000, timeWindowMs: 60_000 } });
}, 180_000);
afterAll(async () => {
  await t.close();
});

const VIEWER = 'viewer@acme.test';
const AGENT = 'agent@acme.test';

const detailOf = async (token: string) => {
  const answer = await get<{ detail: string }>(t.app, '/api/v2/profile', token);
  expect(answer.status).toBe(401);
  return answer.body.detail;
};

async function setActive(email: string, active: boolean) {
  const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  const response = await t.app.inject({
    method: 'PATCH',
    url: `/api/v2/user/${await userId(t.app, email)}`,
    headers: { authorization: `Bearer ${admin}` },
    payload: { password: PASSWORDS.admin, is_active: active },
  });
  expect(response.statusCode, response.body).toBe(200);
}

describe('a disabled account', () => {
  it('the right password is told the account is disabled; a wrong one gets Invalid Credentials', async () => {
    const token = await tokenFor(t.app, VIEWER, PASSWORDS.user);
    await setActive(VIEWER, false);
    try {
      const right = await login(t.app, VIEWER, PASSWORDS.user);
      expect(right.statusCode).toBe(400);
      expect(right.json()).toEqual({ detail: ACCOUNT_DISABLED_DETAIL });
      expect(ACCOUNT_DISABLED_DETAIL).toBe('Your account is disabled. Contact your administrator.');
      const wrong = await login(t.app, VIEWER, 'Not@TheRight1');
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ detail: 'Invalid Credentials' });
      // Its session ended when it was disabled: the token's 401 says why.
      expect(await detailOf(token)).toBe(SESSION_END_DETAILS.disabled);
    } finally {
      await setActive(VIEWER, true);
    }
    expect((await login(t.app, VIEWER, PASSWORDS.user)).statusCode).toBe(200);
  });
});

describe('the 401 of an ended session says why it ended', () => {
  it('signed out from another device (/settings or Logout All)', async () => {
    const other = await tokenFor(t.app, AGENT, PASSWORDS.user);
    const mine = await tokenFor(t.app, AGENT, PASSWORDS.user);
    const sessionId = JSON.parse(Buffer.from(other.split('.')[1] ?? '', 'base64url').toString()).jti;
    const ended = await t.app.inject({
      method: 'DELETE',
      url: `/api/v2/session/${sessionId}`,
      headers: { authorization: `Bearer ${mine}` },
    });
    expect(ended.statusCode, ended.body).toBeLessThan(300);
    expect(await detailOf(other)).toBe(SESSION_END_DETAILS.signed_out);
    expect((await get(t.app, '/api/v2/profile', mine)).status).toBe(200);
  });

  it('a password change ends the other sessions with that reason', async () => {
    const other = await tokenFor(t.app, AGENT, PASSWORDS.user);
    const mine = await tokenFor(t.app, AGENT, PASSWORDS.user);
    const id = await userId(t.app, AGENT);
    const change = (from: string, to: string) =>
      post(t.app, `/api/v2/user/${id}/change_password`, { password: from, new_password: to }, mine);
    expect((await change(PASSWORDS.user, 'Changed@2027')).status).toBeLessThan(300);
    expect(await detailOf(other)).toBe(SESSION_END_DETAILS.password_changed);
    expect((await change('Changed@2027', PASSWORDS.user)).status).toBeLessThan(300);
  });

  it('a token that is merely invalid keeps the generic detail', async () => {
    const forged = await new SignJWT({ token_type: 'access', user_id: 1, company_id: 1 })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('not the server secret'));
    expect(await detailOf(forged)).toBe('Token is invalid or expired');
  });
});

describe('an expired access token', () => {
  it('is recognised as expired only when the signature is ours', async () => {
    const secret = 'a test secret of enough length for HS256';
    const tokens = createTokenService({ secret, accessTtlSeconds: 1, socketTtlSeconds: 60 });
    const token = await tokens.signAccess({
      user_id: 1,
      company_id: 1,
      email: 'a@b.test',
      is_api_user: false,
      session_id: 's1',
    });
    expect(await tokens.accessExpired(token)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(await tokens.verifyAccess(token)).toBeNull();
    expect(await tokens.accessExpired(token)).toBe(true);
    const other = createTokenService({ secret: `${secret}!`, accessTtlSeconds: 1, socketTtlSeconds: 60 });
    expect(await other.accessExpired(token)).toBe(false);
    expect(await tokens.accessExpired('not.a.token')).toBe(false);
  });
});
