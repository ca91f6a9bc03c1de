import { type APIRequestContext, expect } from '@playwright/test';

/**
 * A company of a spec's own, signed up through the API, so what the spec creates or configures (users, sign-in
 * settings) is never seen by the specs that sign in as the demo users of the same server.
 */

export const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1_000_000).toString(36)}`;

/** The code of the newest e-mail to an address in the server's dev-only outbox. */
export async function mailedCode(request: APIRequestContext, to: string): Promise<string> {
  let code = '';
  await expect
    .poll(async () => {
      const answer = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
      const messages = (await answer.json()) as { body?: string }[];
      code = /\b(\d{6})\b/.exec(messages[0]?.body ?? '')?.[1] ?? '';
      return code;
    })
    .not.toBe('');
  return code;
}

const userIdOf = (access: string): number =>
  JSON.parse(Buffer.from(access.split('.')[1] ?? '', 'base64url').toString()).user_id;

export interface OwnCompany {
  /** The domain of its staff's addresses. */
  domain: string;
  admin: { id: number; email: string; password: string; access: string };
}

/** A new company signed up through the API (register, the mailed code, the company): its first Admin. */
export async function signUpCompany(request: APIRequestContext, password: string): Promise<OwnCompany> {
  const domain = `co-${unique()}.test`;
  const email = `admin@${domain}`;
  const registered = await request.post('/api/v2/stp/register', { data: { email, password } });
  expect(registered.status(), await registered.text()).toBe(200);
  const { signup } = (await registered.json()) as { signup: string };
  const verified = await request.post('/api/v2/user/email_otp/submit', {
    data: { email, otp: await mailedCode(request, email), signup },
  });
  expect(verified.status(), await verified.text()).toBe(200);
  const { signup_token } = (await verified.json()) as { signup_token: string };
  const created = await request.post('/api/v2/stp/company', {
    headers: { authorization: `Bearer ${signup_token}` },
    data: {
      company_name: `Company ${domain}`,
      package: 1,
      first_name: 'Ada',
      last_name: 'Admin',
      phone: '+90 555 123 45 67',
      industry: 'Payments',
      country: 'tr',
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const { access } = (await created.json()) as { access: string };
  return { domain, admin: { id: userIdOf(access), email, password, access } };
}

/** A colleague at the company's domain with `role` and a password of their own (invitation, then its code). */
export async function addColleague(
  request: APIRequestContext,
  company: OwnCompany,
  role: 'Admin' | 'User' | 'Restricted User',
  password: string,
): Promise<{ email: string; password: string }> {
  const email = `user-${unique()}@${company.domain}`;
  const created = await request.post('/api/v2/user', {
    headers: { authorization: `Bearer ${company.admin.access}` },
    data: { password, first_name: 'Cem', last_name: 'Colleague', username: email, role },
  });
  expect(created.status(), await created.text()).toBe(201);
  const set = await request.post('/api/v2/user/reset_password/submit', {
    data: { email, otp: await mailedCode(request, email), new_password: password },
  });
  expect(set.status(), await set.text()).toBe(200);
  return { email, password };
}
