/**
 * Self-service account creation: register → e-mailed code → sign-up token → company and first admin.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CompanyCreated, EmailVerified } from '#contract/signup';
import { SIGNUP_DETAILS } from '../../server/domain/signup';
import { get, login, mailedCode, PASSWORDS, post, startTestApp, type TestApp } from './helpers';

const PASSWORD = 'Signup#2026';
let t: TestApp;
let seq = 0;
const uniqueEmail = () => `founder${++seq}-${Date.now()}@newco.test`;

const profile = (overrides: Record<string, unknown> = {}) => ({
  company_name: 'Newco Payments',
  package: 1,
  first_name: 'Nora',
  last_name: 'Founder',
  phone: '+90 555 123 45 67',
  industry: 'Payments',
  country: 'tr',
  ...overrides,
});

/** Registers an address; answers the registration's handle. */
async function registered(email: string, password = PASSWORD): Promise<string> {
  const answer = await post<{ signup: string }>(t.app, '/api/v2/stp/register', { email, password });
  expect(answer.status).toBe(200);
  return answer.body.signup;
}

/** Registers and verifies an address; answers the sign-up token. */
async function verifiedSignup(email: string, app = t.app): Promise<string> {
  const signup = await registered(email);
  const code = await mailedCode(app, email);
  const verified = await post<EmailVerified>(app, '/api/v2/user/email_otp/submit', {
    email,
    otp: code,
    signup,
  });
  expect(verified.status).toBe(200);
  const token = verified.body.signup_token;
  if (!token) throw new Error('no sign-up token');
  return token;
}

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('POST /stp/register', () => {
  it('refuses a password outside the create-account rule and mails nothing', async () => {
    const email = uniqueEmail();
    for (const password of ['Short#1', 'nouppercase#1', 'NOLOWERCASE#1', 'NoSymbolHere1']) {
      const answer = await post<{ detail: string }>(t.app, '/api/v2/stp/register', { email, password });
      expect(answer.status, password).toBe(400);
      expect(answer.body.detail).toMatch(/8 or more characters/);
    }
    const mail = await get<unknown[]>(t.app, `/api/dev/outbox?to=${encodeURIComponent(email)}`);
    expect(mail.body).toEqual([]);
  });

  it('answers bad input with 400 and a detail, never 500', async () => {
    for (const payload of [{}, { email: 'not-an-address', password: PASSWORD }, { email: 'a@b.test' }]) {
      const answer = await post<{ detail: string }>(t.app, '/api/v2/stp/register', payload);
      expect(answer.status).toBe(400);
      expect(answer.body.detail).toEqual(expect.any(String));
    }
  });

  it('answers an address that already has an account exactly like a new one', async () => {
    const known = await post<{ detail: string; signup: string }>(t.app, '/api/v2/stp/register', {
      email: 'agent@acme.test',
      password: PASSWORD,
    });
    const fresh = await post<{ detail: string; signup: string }>(t.app, '/api/v2/stp/register', {
      email: uniqueEmail(),
      password: PASSWORD,
    });
    expect(known.status).toBe(200);
    expect(known.body).toEqual({ detail: fresh.body.detail, signup: expect.any(String) });
    expect(fresh.body.signup).toEqual(expect.any(String));
    // Only the proven owner learns it: after the code, no token but `already_registered`.
    const code = await mailedCode(t.app, 'agent@acme.test');
    const verified = await post<EmailVerified>(t.app, '/api/v2/user/email_otp/submit', {
      email: 'agent@acme.test',
      otp: code,
      signup: known.body.signup,
    });
    expect(verified.body).toEqual({ verified: true, already_registered: true });
    // The existing account is untouched.
    expect((await login(t.app, 'agent@acme.test', PASSWORDS.user)).statusCode).toBe(200);
  });
});

describe('verification codes', () => {
  it('are single use: the same code twice is refused the second time', async () => {
    const email = uniqueEmail();
    const signup = await registered(email);
    const code = await mailedCode(t.app, email);
    const first = await post<EmailVerified>(t.app, '/api/v2/user/email_otp/submit', {
      email,
      otp: code,
      signup,
    });
    expect(first.body.signup_token).toEqual(expect.any(String));
    const again = await post<{ detail: string }>(t.app, '/api/v2/user/email_otp/submit', {
      email,
      otp: code,
    });
    expect(again).toMatchObject({ status: 400, body: { detail: 'Invalid code' } });
  });

  it('a wrong code, then the right one: the right one still works; a resend kills the older code', async () => {
    const email = uniqueEmail();
    const signup = await registered(email);
    const first = await mailedCode(t.app, email);
    const wrong = first === '000000' ? '111111' : '000000';
    const refused = await post(t.app, '/api/v2/user/email_otp/submit', { email, otp: wrong });
    expect(refused.status).toBe(400);
    expect((await post(t.app, '/api/v2/user/email_otp/send', { email })).status).toBe(200);
    const second = await mailedCode(t.app, email);
    if (second !== first) {
      const old = await post(t.app, '/api/v2/user/email_otp/submit', { email, otp: first });
      expect(old.status).toBe(400);
    }
    const ok = await post<EmailVerified>(t.app, '/api/v2/user/email_otp/submit', {
      email,
      otp: second,
      signup,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.signup_token).toEqual(expect.any(String));
  });

  it('expire after 10 minutes', async () => {
    const email = uniqueEmail();
    const signup = await registered(email);
    const code = await mailedCode(t.app, email);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 10 * 60_000 + 1_000 });
    try {
      const late = await post(t.app, '/api/v2/user/email_otp/submit', { email, otp: code });
      expect(late).toMatchObject({ status: 400, body: { detail: 'Invalid code' } });
      // A new code (sent now) works.
      await post(t.app, '/api/v2/user/email_otp/send', { email });
      const fresh = await mailedCode(t.app, email);
      const ok = await post<EmailVerified>(t.app, '/api/v2/user/email_otp/submit', {
        email,
        otp: fresh,
        signup,
      });
      expect(ok.body.signup_token).toEqual(expect.any(String));
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends are limited per address (5) and per client address (30) a minute: 429 with Retry-After', async () => {
    const from = (remoteAddress: string, url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, payload, remoteAddress });
    const email = uniqueEmail();
    const sends = [await from('10.0.0.1', '/api/v2/stp/register', { email, password: PASSWORD })];
    for (let i = 0; i < 5; i++) sends.push(await from('10.0.0.1', '/api/v2/user/email_otp/send', { email }));
    expect(sends.map((s) => s.statusCode)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(sends[5]?.headers['retry-after']).toEqual(expect.any(String));
    // Another client address is not held back for that address's limit… but the address limit holds.
    expect((await from('10.0.0.2', '/api/v2/user/email_otp/send', { email })).statusCode).toBe(429);
    // One client address spraying many addresses: stopped after 30 sends.
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      statuses.push(
        (await from('10.0.0.3', '/api/v2/user/email_otp/send', { email: uniqueEmail() })).statusCode,
      );
    }
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});

describe('POST /stp/company', () => {
  it('creates nothing before the e-mail is verified: no token, a wrong token or an access token get 401', async () => {
    const email = uniqueEmail();
    await post(t.app, '/api/v2/stp/register', { email, password: PASSWORD });
    expect((await post(t.app, '/api/v2/stp/company', profile())).status).toBe(401);
    expect((await post(t.app, '/api/v2/stp/company', profile(), 'not-a-token')).status).toBe(401);
    const staff = (await login(t.app, 'admin@acme.test', PASSWORDS.admin)).json() as { access: string };
    expect((await post(t.app, '/api/v2/stp/company', profile(), staff.access)).status).toBe(401);
    // The pending sign-up cannot sign in either.
    expect((await login(t.app, email, PASSWORD)).statusCode).toBe(400);
  });

  it('creates the company (unpaid, no services yet) and its first Admin; the admin signs in', async () => {
    const email = uniqueEmail();
    const token = await verifiedSignup(email);
    const created = await post<CompanyCreated>(t.app, '/api/v2/stp/company', profile({ package: 2 }), token);
    expect(created.status).toBe(200);
    // Services only once paid: the paid checkout of Growth adds its services (payment.test.ts).
    expect(created.body.services).toEqual([]);
    const access = created.body.access;
    const company = await get<{
      name: string;
      package: number;
      payment_status: string;
      config: { active_services: string[]; aml_provider: string | null };
    }>(t.app, `/api/v2/company/${created.body.company_id}`, access);
    expect(company.body).toMatchObject({
      name: 'Newco Payments',
      package: 2,
      payment_status: 'unpaid',
      config: { active_services: [], aml_provider: null },
    });
    const me = await get<{ role: string; username: string; first_name: string; phone: string }>(
      t.app,
      `/api/v2/user/${created.body.user_id}`,
      access,
    );
    expect(me.body).toMatchObject({ role: 'Admin', username: email, first_name: 'Nora' });
    // The password chosen at sign-up is the admin's password.
    expect((await login(t.app, email, PASSWORD)).statusCode).toBe(200);
    // The admin sees only their own company.
    expect((await get(t.app, '/api/v2/company/1', access)).status).toBe(404);
  });

  it('audits registration, verification, company and admin creation in the new company', async () => {
    const email = uniqueEmail();
    const token = await verifiedSignup(email);
    const created = await post<CompanyCreated>(t.app, '/api/v2/stp/company', profile(), token);
    const audit = await get<{
      results: { action: string; object_type: string; after: Record<string, unknown> }[];
    }>(t.app, '/api/v2/audit', created.body.access);
    expect(audit.status).toBe(200);
    const actions = audit.body.results.map((e) => `${e.object_type}:${e.action}`).sort();
    expect(actions).toEqual(
      ['company:company_created', 'signup:email_verified', 'signup:registered', 'user:user_created'].sort(),
    );
    const company = audit.body.results.find((e) => e.action === 'company_created');
    expect(company?.after).toMatchObject({ package: 'Starter', country: 'TR', industry: 'Payments' });
    expect(JSON.stringify(audit.body.results)).not.toContain(PASSWORD);
  });

  it('the same token again is refused (single use) and makes no second company', async () => {
    const token = await verifiedSignup(uniqueEmail());
    const first = await post<CompanyCreated>(t.app, '/api/v2/stp/company', profile(), token);
    expect(first.status).toBe(200);
    const again = await post<{ detail: string }>(
      t.app,
      '/api/v2/stp/company',
      profile({ company_name: 'Other' }),
      token,
    );
    expect(again).toMatchObject({ status: 401, body: { detail: 'Token is invalid or expired' } });
  });

  it('a finished sign-up registering again gets a code, then `already_registered`, and no new token', async () => {
    const email = uniqueEmail();
    const token = await verifiedSignup(email);
    await post(t.app, '/api/v2/stp/company', profile(), token);
    const signup = await registered(email, 'Another#2026');
    const code = await mailedCode(t.app, email);
    const verified = await post<EmailVerified>(t.app, '/api/v2/user/email_otp/submit', {
      email,
      otp: code,
      signup,
    });
    expect(verified.body).toEqual({ verified: true, already_registered: true });
    // The first password still signs in; the second one changed nothing.
    expect((await login(t.app, email, PASSWORD)).statusCode).toBe(200);
    expect((await login(t.app, email, 'Another#2026')).statusCode).toBe(400);
  });

  it('refuses a custom-priced or unknown package and bad fields with 400, creating nothing', async () => {
    const token = await verifiedSignup(uniqueEmail());
    const custom = await post<{ detail: string }>(
      t.app,
      '/api/v2/stp/company',
      profile({ package: 3 }),
      token,
    );
    expect(custom).toMatchObject({ status: 400, body: { detail: SIGNUP_DETAILS.customPackage } });
    const unknown = await post(t.app, '/api/v2/stp/company', profile({ package: 999 }), token);
    expect(unknown.status).toBe(400);
    for (const bad of [
      { company_name: '  ' },
      { phone: 'call me' },
      { country: 'Turkey' },
      { first_name: '' },
    ]) {
      const answer = await post<{ detail: string }>(t.app, '/api/v2/stp/company', profile(bad), token);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.body.detail).toEqual(expect.any(String));
    }
    // Still nothing made: the same token now creates the company.
    expect((await post(t.app, '/api/v2/stp/company', profile(), token)).status).toBe(200);
  });

  it('refuses with 409 when the address got an account after the token was given', async () => {
    const email = uniqueEmail();
    const token = await verifiedSignup(email);
    // An admin of Acme invites the same address meanwhile.
    const admin = (await login(t.app, 'admin@acme.test', PASSWORDS.admin)).json() as { access: string };
    const invited = await post(
      t.app,
      '/api/v2/user',
      {
        password: PASSWORDS.admin,
        first_name: 'Nora',
        last_name: 'Founder',
        username: email,
        role: 'User',
        groups: [],
      },
      admin.access,
    );
    expect(invited.status).toBe(201);
    const answer = await post<{ detail: string }>(t.app, '/api/v2/stp/company', profile(), token);
    expect(answer).toMatchObject({ status: 409, body: { detail: SIGNUP_DETAILS.alreadyRegistered } });
  });
});
