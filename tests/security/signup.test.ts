/**
 * Findings "sign-up takeover", "the sign-up token mints a new Admin session after the company exists"
 * and "a new company gets its package's services before paying".
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompanyCreated, EmailVerified } from '#contract/signup';
import { companies } from '../../server/db/schema';
import { get, login, mailedCode, post, startTestApp, type TestApp } from '../server/helpers';

const OWNER = 'Owner#2026pw';
const ATTACKER = 'Attacker#2026pw';

let t: TestApp;
let seq = 0;
const address = () => `victim${++seq}-${Date.now()}@newco.test`;

const profile = {
  company_name: 'Victim Co',
  package: 2,
  first_name: 'Vera',
  last_name: 'Owner',
  phone: '+90 555 000 00 00',
  industry: 'Payments',
  country: 'tr',
};

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** POST /stp/register; answers its body (the registration's handle, when the server gives one). */
async function register(email: string, password: string) {
  const answer = await post<{ signup?: string }>(t.app, '/api/v2/stp/register', { email, password });
  expect(answer.status).toBe(200);
  return answer.body.signup;
}

/** The owner of the mailbox submits the newest code it received, from the browser it registered in. */
async function proveAddress(email: string, signup: string | undefined) {
  const otp = await mailedCode(t.app, email);
  const verified = await post<EmailVerified>(t.app, '/api/v2/user/email_otp/submit', {
    email,
    otp,
    ...(signup ? { signup } : {}),
  });
  expect(verified.status).toBe(200);
  return verified.body.signup_token;
}

async function createCompany(token: string | undefined) {
  return post<CompanyCreated & { detail?: string }>(t.app, '/api/v2/stp/company', profile, token);
}

describe('sign-up nobody can hijack', () => {
  it('the account carries the password of whoever proves the address, whatever others registered', async () => {
    // Someone registers the address after its owner, before the owner enters the code (the newest e-mail is theirs).
    const after = address();
    const ownerHandle = await register(after, OWNER);
    await register(after, ATTACKER);
    // Someone registers the address before its owner.
    const before = address();
    await register(before, ATTACKER);
    const ownerHandle2 = await register(before, OWNER);
    // Someone registers again after the owner proved the address, before the company is made.
    const verified = address();
    const ownerHandle3 = await register(verified, OWNER);
    const ownerToken3 = await proveAddress(verified, ownerHandle3);
    await register(verified, ATTACKER);

    const tokens = [
      [after, await proveAddress(after, ownerHandle)],
      [before, await proveAddress(before, ownerHandle2)],
      [verified, ownerToken3],
    ] as const;
    for (const [email, token] of tokens) {
      const created = await createCompany(token);
      expect({ email, status: created.status }).toEqual({ email, status: 200 });
      expect({ email, owner: (await login(t.app, email, OWNER)).statusCode }).toEqual({ email, owner: 200 });
      expect({ email, attacker: (await login(t.app, email, ATTACKER)).statusCode }).toEqual({
        email,
        attacker: 400,
      });
    }
  });

  it('the code alone (without the registration it was asked for) gives no sign-up token', async () => {
    const email = address();
    await register(email, ATTACKER);
    const otp = await mailedCode(t.app, email);
    const verified = await post<EmailVerified>(t.app, '/api/v2/user/email_otp/submit', {
      email,
      otp,
      signup: 'a-handle-nobody-was-given',
    });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ verified: true });
  });

  it('the sign-up token is single use: once the company exists it signs nobody in', async () => {
    const email = address();
    const token = await proveAddress(email, await register(email, OWNER));
    const first = await createCompany(token);
    expect(first.status).toBe(200);
    const again = await createCompany(token);
    expect(again.status).toBe(401);
    expect(again.body.access).toBeUndefined();
  });
});

describe('unpaid companies: services only once paid', () => {
  it('a new company has no services and every service write answers 402 until its plan is paid', async () => {
    const email = address();
    const token = await proveAddress(email, await register(email, OWNER));
    const created = await createCompany(token);
    expect(created.status).toBe(200);
    expect(created.body.services).toEqual([]);
    const admin = created.body.access;
    const company = await get<{ payment_status: string; config: { active_services: string[] } }>(
      t.app,
      `/api/v2/company/${created.body.company_id}`,
      admin,
    );
    expect(company.body).toMatchObject({ payment_status: 'unpaid', config: { active_services: [] } });

    const profileBody = { id_card_number: `UNPAID-${Date.now()}`, name: null, gender: null };
    const refused = await post<{ detail: string }>(t.app, '/api/v2/profile', profileBody, admin);
    expect(refused.status).toBe(402);
    expect(refused.body.detail).toMatch(/Plan and payment/);
    expect((await post(t.app, '/api/v2/profile/url', { profile: 1 }, admin)).status).toBe(402);
    // What an unpaid company may do: read its plan and the packages, and go and pay.
    expect((await get(t.app, '/api/v2/payment/plan', admin)).status).toBe(200);

    // The paid checkout's notification sets the plan (payment.test.ts); here its outcome stands in for it.
    await t.app.ctx.db
      .update(companies)
      .set({ paymentStatus: 'paid', activeServices: ['verification', 'video_kyc'] })
      .where(eq(companies.id, created.body.company_id));
    expect((await post(t.app, '/api/v2/profile', profileBody, admin)).status).toBe(201);
  });
});
