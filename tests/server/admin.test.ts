import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_RULE_DETAIL } from '#contract/passwords';
import { bearer, get, login, PASSWORDS, post, startTestApp, type TestApp, tokenFor } from './helpers';

const FORBIDDEN = { detail: 'You do not have permission to perform this action' };
const NOT_FOUND = { detail: 'Not found.' };

type Caller = 'admin' | 'user' | 'restricted' | 'otherAdmin';
const CALLERS: Caller[] = ['admin', 'user', 'restricted', 'otherAdmin'];
const LOGINS: Record<Caller, [string, string]> = {
  admin: ['admin@acme.test', PASSWORDS.admin],
  user: ['agent@acme.test', PASSWORDS.user],
  restricted: ['viewer@acme.test', PASSWORDS.user],
  otherAdmin: ['admin@globex.test', PASSWORDS.admin],
};

let t: TestApp;
const tokens = {} as Record<Caller, string>;
const ids = {} as Record<Caller, number>;
let seq = 0;
const uniqueEmail = () => `new-${++seq}@acme.test`;

async function call(method: string, url: string, token: string, payload?: unknown) {
  const response = await t.app.inject({
    method: method as 'GET',
    url,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: response.statusCode, body: response.body ? response.json() : null };
}

/** A fresh Acme user (made by the Acme admin) for cells that change their target. */
async function newAcmeUser(role = 'User'): Promise<number> {
  const { status, body } = await call('POST', '/api/v2/user', tokens.admin, {
    password: PASSWORDS.admin,
    first_name: 'Target',
    last_name: 'User',
    username: uniqueEmail(),
    role,
  });
  expect(status).toBe(201);
  return (body as { id: number }).id;
}

async function newAcmeGroup(): Promise<number> {
  const { status, body } = await call('POST', '/api/v2/group', tokens.admin, {
    name: `Group ${++seq}`,
    permissions: ['view_calls_page'],
  });
  expect(status).toBe(201);
  return (body as { id: number }).id;
}

beforeAll(async () => {
  t = await startTestApp();
  for (const caller of CALLERS) {
    const [email, password] = LOGINS[caller];
    tokens[caller] = await tokenFor(t.app, email, password);
    const me = JSON.parse(Buffer.from(tokens[caller].split('.')[1] ?? '', 'base64url').toString());
    ids[caller] = me.user_id;
  }
});
afterAll(() => t.close());

interface Cell {
  /** Builds the request for a caller (a fresh target where the cell changes it). */
  request: (caller: Caller) => Promise<{ method: string; url: string; payload?: unknown }>;
  expect: Record<Caller, number>;
}

const pw = (caller: Caller) => LOGINS[caller][1];
/** An Acme user other than the caller (for another company's admin: an Acme user). */
const colleagueOf = (caller: Caller) => (caller === 'user' ? ids.restricted : ids.user);

/** Every admin and user endpoint × Admin, User, Restricted User and another company's Admin. */
const MATRIX: Record<string, Cell> = {
  'GET /user': {
    request: async () => ({ method: 'GET', url: '/api/v2/user' }),
    expect: { admin: 200, user: 403, restricted: 403, otherAdmin: 200 },
  },
  'GET /user/{colleague}': {
    request: async (c) => ({ method: 'GET', url: `/api/v2/user/${colleagueOf(c)}` }),
    expect: { admin: 200, user: 403, restricted: 403, otherAdmin: 404 },
  },
  'GET /user/{self}': {
    request: async (c) => ({ method: 'GET', url: `/api/v2/user/${ids[c]}` }),
    expect: { admin: 200, user: 200, restricted: 200, otherAdmin: 200 },
  },
  'POST /user': {
    request: async (c) => ({
      method: 'POST',
      url: '/api/v2/user',
      payload: { password: pw(c), first_name: 'A', last_name: 'B', username: uniqueEmail(), role: 'User' },
    }),
    expect: { admin: 201, user: 403, restricted: 403, otherAdmin: 201 },
  },
  'PATCH /user/{acme user} (edit)': {
    request: async (c) => ({
      method: 'PATCH',
      url: `/api/v2/user/${await newAcmeUser()}`,
      payload: { password: pw(c), last_name: 'Edited' },
    }),
    expect: { admin: 200, user: 403, restricted: 403, otherAdmin: 404 },
  },
  'PATCH /user/{acme user} (disable)': {
    request: async (c) => ({
      method: 'PATCH',
      url: `/api/v2/user/${await newAcmeUser()}`,
      payload: { password: pw(c), is_active: false },
    }),
    expect: { admin: 200, user: 403, restricted: 403, otherAdmin: 404 },
  },
  'PATCH /user/{acme user} (reset two-factor)': {
    request: async (c) => ({
      method: 'PATCH',
      url: `/api/v2/user/${await newAcmeUser()}`,
      payload: { password: pw(c), reset_mfa: true },
    }),
    expect: { admin: 200, user: 403, restricted: 403, otherAdmin: 404 },
  },
  'PATCH /user/{self} (own name and phone)': {
    request: async (c) => ({
      method: 'PATCH',
      url: `/api/v2/user/${ids[c]}`,
      payload: { first_name: 'Me', phone: '+90 555 000 00 00' },
    }),
    expect: { admin: 200, user: 200, restricted: 200, otherAdmin: 200 },
  },
  'PATCH /user/{self} (own role)': {
    request: async (c) => ({
      method: 'PATCH',
      url: `/api/v2/user/${ids[c]}`,
      payload: { password: pw(c), role: 'Admin' },
    }),
    // An Admin's own role stays Admin (no change); others may not give themselves a role.
    expect: { admin: 200, user: 403, restricted: 403, otherAdmin: 200 },
  },
  'POST /user/{acme user}/reset_password': {
    request: async (c) => ({
      method: 'POST',
      url: `/api/v2/user/${await newAcmeUser()}/reset_password`,
      payload: { password: pw(c) },
    }),
    expect: { admin: 200, user: 403, restricted: 403, otherAdmin: 404 },
  },
  'POST /user/{colleague}/change_password': {
    request: async (c) => ({
      method: 'POST',
      url: `/api/v2/user/${colleagueOf(c)}/change_password`,
      payload: { password: pw(c), new_password: 'Another@2026' },
    }),
    expect: { admin: 403, user: 403, restricted: 403, otherAdmin: 404 },
  },
  'POST /user/{colleague}/otp_reset': {
    request: async (c) => ({
      method: 'POST',
      url: `/api/v2/user/${colleagueOf(c)}/otp_reset`,
      payload: { password: pw(c), disable: true },
    }),
    expect: { admin: 403, user: 403, restricted: 403, otherAdmin: 404 },
  },
  'GET /group': {
    request: async () => ({ method: 'GET', url: '/api/v2/group' }),
    expect: { admin: 200, user: 403, restricted: 403, otherAdmin: 200 },
  },
  'POST /group': {
    request: async () => ({
      method: 'POST',
      url: '/api/v2/group',
      payload: { name: `Matrix ${++seq}`, permissions: [] },
    }),
    expect: { admin: 201, user: 403, restricted: 403, otherAdmin: 201 },
  },
  'PATCH /group/{acme group}': {
    request: async () => ({
      method: 'PATCH',
      url: `/api/v2/group/${await newAcmeGroup()}`,
      payload: { name: `Renamed ${++seq}` },
    }),
    expect: { admin: 200, user: 403, restricted: 403, otherAdmin: 404 },
  },
  'DELETE /group/{acme group}': {
    request: async () => ({ method: 'DELETE', url: `/api/v2/group/${await newAcmeGroup()}` }),
    expect: { admin: 204, user: 403, restricted: 403, otherAdmin: 404 },
  },
  'GET /audit': {
    request: async () => ({ method: 'GET', url: '/api/v2/audit' }),
    expect: { admin: 200, user: 403, restricted: 403, otherAdmin: 200 },
  },
};

describe('RBAC matrix of the admin and user endpoints', () => {
  for (const [name, cell] of Object.entries(MATRIX)) {
    for (const caller of CALLERS) {
      it(`${name} as ${caller} → ${cell.expect[caller]}`, async () => {
        const { method, url, payload } = await cell.request(caller);
        const { status, body } = await call(method, url, tokens[caller], payload);
        expect(status, JSON.stringify(body)).toBe(cell.expect[caller]);
        if (status === 403) expect(body).toEqual(FORBIDDEN);
        if (status === 404) expect(body).toEqual(NOT_FOUND);
      });
    }
  }

  it('another company’s admin sees only their own users and groups', async () => {
    const users = await get<{ results: { company: number }[] }>(
      t.app,
      '/api/v2/user?limit=200',
      tokens.otherAdmin,
    );
    const acmeAdmin = await get<{ company: number }>(t.app, `/api/v2/user/${ids.admin}`, tokens.admin);
    expect(users.body.results.length).toBeGreaterThan(0);
    expect(users.body.results.every((u) => u.company !== acmeAdmin.body.company)).toBe(true);
  });
});

describe('user administration rules', () => {
  it('invites a user: the outbox holds a link whose code sets their password; they then sign in', async () => {
    const email = uniqueEmail();
    const created = await call('POST', '/api/v2/user', tokens.admin, {
      password: PASSWORDS.admin,
      first_name: 'Ina',
      last_name: 'Vite',
      username: email,
      role: 'Restricted User',
      groups: [],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      username: email,
      role: 'Restricted User',
      is_active: true,
      mfa: false,
    });
    const mail = await get<{ subject: string; body: string }[]>(
      t.app,
      `/api/dev/outbox?to=${encodeURIComponent(email)}`,
    );
    const link = /(http\S+\/reset-password\?\S+)/.exec(mail.body[0]?.body ?? '')?.[1] ?? '';
    const params = new URL(link).searchParams;
    expect(params.get('email')).toBe(email);
    const code = params.get('code') ?? '';
    expect(code).toMatch(/^\d{6}$/);
    // No password was chosen by the admin: nothing signs in before the invitation is used.
    expect((await login(t.app, email, PASSWORDS.admin)).statusCode).toBe(400);
    const submitted = await post(t.app, '/api/v2/user/reset_password/submit', {
      email,
      otp: code,
      new_password: 'Invited@2026',
    });
    expect(submitted.status).toBe(200);
    expect((await login(t.app, email, 'Invited@2026')).statusCode).toBe(200);
  });

  it('validates the e-mail (the message of the e-mail rule) and keeps it unique per company', async () => {
    const base = { password: PASSWORDS.admin, first_name: 'A', last_name: 'B', role: 'User' };
    const bad = await call('POST', '/api/v2/user', tokens.admin, { ...base, username: 'not-an-email' });
    expect(bad).toEqual({ status: 400, body: { detail: 'This is not a valid e-mail address.' } });
    const taken = await call('POST', '/api/v2/user', tokens.admin, { ...base, username: 'AGENT@acme.test' });
    expect(taken).toEqual({
      status: 400,
      body: { detail: 'A user with this e-mail address already exists' },
    });
    // Another company may hold the same address.
    const other = await call('POST', '/api/v2/user', tokens.otherAdmin, {
      ...base,
      username: 'agent@acme.test',
    });
    expect(other.status).toBe(201);
  });

  it('asks for the admin’s own password', async () => {
    const target = await newAcmeUser();
    const wrong = await call('PATCH', `/api/v2/user/${target}`, tokens.admin, {
      password: 'nope',
      is_active: false,
    });
    expect(wrong).toEqual({ status: 400, body: { detail: 'Wrong password' } });
    const none = await call('PATCH', `/api/v2/user/${target}`, tokens.admin, { is_active: false });
    expect(none).toEqual({ status: 400, body: { detail: 'Your password is required' } });
    const user = await get<{ is_active: boolean }>(t.app, `/api/v2/user/${target}`, tokens.admin);
    expect(user.body.is_active).toBe(true);
  });

  it('refuses groups of another company', async () => {
    const globexGroup = await call('POST', '/api/v2/group', tokens.otherAdmin, { name: 'Globex only' });
    const target = await newAcmeUser();
    const { status, body } = await call('PATCH', `/api/v2/user/${target}`, tokens.admin, {
      password: PASSWORDS.admin,
      groups: [(globexGroup.body as { id: number }).id],
    });
    expect({ status, body }).toEqual({ status: 400, body: { detail: 'Unknown group' } });
  });

  it('never disables the caller, nor disables or demotes the last enabled admin', async () => {
    // Globex has a second admin (shared@demo.test): disable them first, so admin@globex.test is the last.
    const others = await get<{ results: { id: number }[] }>(
      t.app,
      '/api/v2/user?role=Admin&is_active=true',
      tokens.otherAdmin,
    );
    for (const { id } of others.body.results.filter((u) => u.id !== ids.otherAdmin)) {
      const off = await call('PATCH', `/api/v2/user/${id}`, tokens.otherAdmin, {
        password: PASSWORDS.admin,
        is_active: false,
      });
      expect(off.status).toBe(200);
    }
    const self = await call('PATCH', `/api/v2/user/${ids.otherAdmin}`, tokens.otherAdmin, {
      password: PASSWORDS.admin,
      is_active: false,
    });
    expect(self).toEqual({ status: 400, body: { detail: 'You cannot disable yourself' } });
    const demote = await call('PATCH', `/api/v2/user/${ids.otherAdmin}`, tokens.otherAdmin, {
      password: PASSWORDS.admin,
      role: 'User',
    });
    expect(demote).toEqual({
      status: 400,
      body: { detail: 'The company must keep at least one enabled admin' },
    });
    // With a second admin, the first may step down; then the second is the last one.
    const second = await call('POST', '/api/v2/user', tokens.otherAdmin, {
      password: PASSWORDS.admin,
      first_name: 'Second',
      last_name: 'Admin',
      username: 'second-admin@globex.test',
      role: 'Admin',
    });
    const secondId = (second.body as { id: number }).id;
    const disableSecond = await call('PATCH', `/api/v2/user/${secondId}`, tokens.otherAdmin, {
      password: PASSWORDS.admin,
      is_active: false,
    });
    expect(disableSecond.status).toBe(200);
    const demoteAgain = await call('PATCH', `/api/v2/user/${ids.otherAdmin}`, tokens.otherAdmin, {
      password: PASSWORDS.admin,
      role: 'User',
    });
    expect(demoteAgain.status).toBe(400);
  });

  it('ends a disabled user’s session for good; enabled again, they sign in anew', async () => {
    const email = uniqueEmail();
    const created = await call('POST', '/api/v2/user', tokens.admin, {
      password: PASSWORDS.admin,
      first_name: 'Soon',
      last_name: 'Disabled',
      username: email,
      role: 'User',
    });
    const id = (created.body as { id: number }).id;
    const mail = await get<{ body: string }[]>(t.app, `/api/dev/outbox?to=${encodeURIComponent(email)}`);
    const code = /code=(\d{6})/.exec(mail.body[0]?.body ?? '')?.[1];
    await post(t.app, '/api/v2/user/reset_password/submit', { email, otp: code, new_password: 'Soon@2026' });
    const token = await tokenFor(t.app, email, 'Soon@2026');
    expect((await get(t.app, `/api/v2/user/${id}`, token)).status).toBe(200);
    const disabled = await call('PATCH', `/api/v2/user/${id}`, tokens.admin, {
      password: PASSWORDS.admin,
      is_active: false,
    });
    expect(disabled.status).toBe(200);
    expect((await get(t.app, `/api/v2/user/${id}`, token)).status).toBe(401);
    expect((await login(t.app, email, 'Soon@2026')).statusCode).toBe(400);
    await call('PATCH', `/api/v2/user/${id}`, tokens.admin, { password: PASSWORDS.admin, is_active: true });
    // The old session stays ended; a new sign-in works.
    expect((await get(t.app, `/api/v2/user/${id}`, token)).status).toBe(401);
    const again = await tokenFor(t.app, email, 'Soon@2026');
    expect((await get(t.app, `/api/v2/user/${id}`, again)).status).toBe(200);
  });

  it('forces a password reset and a two-factor setup at the next sign-in', async () => {
    const email = uniqueEmail();
    const created = await call('POST', '/api/v2/user', tokens.admin, {
      password: PASSWORDS.admin,
      first_name: 'Force',
      last_name: 'Me',
      username: email,
      role: 'User',
    });
    const id = (created.body as { id: number }).id;
    const mail = await get<{ body: string }[]>(t.app, `/api/dev/outbox?to=${encodeURIComponent(email)}`);
    const code = /code=(\d{6})/.exec(mail.body[0]?.body ?? '')?.[1];
    await post(t.app, '/api/v2/user/reset_password/submit', { email, otp: code, new_password: 'Force@2026' });
    const mismatch = await call('POST', `/api/v2/user/${id}/reset_password`, tokens.admin, {
      password: PASSWORDS.admin,
      email: 'someone@else.test',
    });
    expect(mismatch.status).toBe(400);
    const forced = await call('POST', `/api/v2/user/${id}/reset_password`, tokens.admin, {
      password: PASSWORDS.admin,
      email,
    });
    expect(forced.status).toBe(200);
    expect(forced.body).toMatchObject({ force_password_reset: true });
    expect((await login(t.app, email, 'Force@2026')).json()).toMatchObject({
      detail: 'Password Reset Required',
    });

    const mfa = await call('PATCH', `/api/v2/user/${id}`, tokens.admin, {
      password: PASSWORDS.admin,
      force_mfa_setup: true,
    });
    expect(mfa.body).toMatchObject({ force_mfa_reset: true });
    // The password reset comes first; after it, the two-factor setup.
    await post(t.app, '/api/v2/user/reset_password/send', { email });
    const resetMail = await get<{ body: string }[]>(t.app, `/api/dev/outbox?to=${encodeURIComponent(email)}`);
    const resetCode = /\b(\d{6})\b/.exec(resetMail.body[0]?.body ?? '')?.[1];
    await post(t.app, '/api/v2/user/reset_password/submit', {
      email,
      otp: resetCode,
      new_password: 'Force@2027',
    });
    expect((await login(t.app, email, 'Force@2027')).json()).toMatchObject({
      detail: 'Two Factor Reset Required',
    });
  });

  it('lets users change their own password with the current one (the password rule)', async () => {
    const email = uniqueEmail();
    const created = await call('POST', '/api/v2/user', tokens.admin, {
      password: PASSWORDS.admin,
      first_name: 'Pass',
      last_name: 'Word',
      username: email,
      role: 'Restricted User',
    });
    const id = (created.body as { id: number }).id;
    const mail = await get<{ body: string }[]>(t.app, `/api/dev/outbox?to=${encodeURIComponent(email)}`);
    const code = /code=(\d{6})/.exec(mail.body[0]?.body ?? '')?.[1];
    await post(t.app, '/api/v2/user/reset_password/submit', { email, otp: code, new_password: 'First@2026' });
    const token = await tokenFor(t.app, email, 'First@2026');
    const url = `/api/v2/user/${id}/change_password`;
    expect(await call('POST', url, token, { password: 'wrong', new_password: 'Second@2026' })).toEqual({
      status: 400,
      body: { detail: 'Wrong password' },
    });
    expect(await call('POST', url, token, { password: 'First@2026', new_password: 'weak' })).toEqual({
      status: 400,
      body: { detail: PASSWORD_RULE_DETAIL },
    });
    expect(await call('POST', url, token, { password: 'First@2026', new_password: 'Second@2026' })).toEqual({
      status: 200,
      body: { detail: 'Password successfully changed' },
    });
    expect((await login(t.app, email, 'Second@2026')).statusCode).toBe(200);
  });

  it('gives a user their role’s permissions plus their groups’', async () => {
    const group = await call('POST', '/api/v2/group', tokens.admin, {
      name: 'Company page',
      permissions: ['view_company_page'],
    });
    const groupId = (group.body as { id: number }).id;
    const target = await newAcmeUser('Restricted User');
    const before = await get<{ permissions: string[] }>(t.app, `/api/v2/user/${target}`, tokens.admin);
    expect(before.body.permissions).toEqual(['view_profiles_page', 'view_settings_page']);
    const after = await call('PATCH', `/api/v2/user/${target}`, tokens.admin, {
      password: PASSWORDS.admin,
      groups: [groupId],
    });
    expect((after.body as { permissions: string[] }).permissions).toEqual([
      'view_profiles_page',
      'view_settings_page',
      'view_company_page',
    ]);
  });
});

describe('audit log', () => {
  it('records user, group and profile writes with who, where and before/after, never secrets', async () => {
    const target = await newAcmeUser();
    await call('PATCH', `/api/v2/user/${target}`, tokens.admin, {
      password: PASSWORDS.admin,
      last_name: 'Audited',
    });
    const profile = await call('POST', '/api/v2/profile', tokens.admin, { id_card_number: `AUD-${++seq}` });
    const profileId = (profile.body as { id: number }).id;
    await call('PATCH', `/api/v2/profile/${profileId}/status`, tokens.admin, { status: 'Incomplete' });

    const page = await get<{ count: number; results: Record<string, unknown>[] }>(
      t.app,
      `/api/v2/audit?object_type=user&object_id=${target}`,
      tokens.admin,
    );
    expect(page.body.results.map((e) => e.action)).toEqual(['user_updated', 'user_created']);
    expect(page.body.results[0]).toMatchObject({
      actor: ids.admin,
      actor_email: 'admin@acme.test',
      ip: '127.0.0.1',
      before: { last_name: 'User' },
      after: { last_name: 'Audited' },
    });
    const status = await get<{ results: Record<string, unknown>[] }>(
      t.app,
      `/api/v2/audit?object_type=profile&object_id=${profileId}&action=status_changed`,
      tokens.admin,
    );
    expect(status.body.results[0]).toMatchObject({
      before: { status: 'Created' },
      after: { status: 'Incomplete' },
    });

    const all = await get<{ results: unknown[] }>(t.app, '/api/v2/audit?limit=200', tokens.admin);
    expect(JSON.stringify(all.body)).not.toMatch(/Admin@2026|\$argon2/);
    // Another company's log does not show these entries.
    const other = await get<{ results: { object_id: string }[] }>(
      t.app,
      `/api/v2/audit?object_type=user&object_id=${target}`,
      tokens.otherAdmin,
    );
    expect(other.body.results).toEqual([]);
  });

  it('records document and AML decisions through the same function', async () => {
    const docs = await get<{ id: number; status: string }[]>(
      t.app,
      '/api/v2/profile/4/documents',
      tokens.admin,
    );
    const doc = docs.body[0];
    expect(doc).toBeDefined();
    const review = await t.app.inject({
      method: 'PUT',
      url: `/api/v2/document/${doc?.id}/approve`,
      headers: bearer(tokens.user),
      payload: { approved: false, reason: 'The photo is blurred' },
    });
    expect(review.statusCode).toBe(200);
    const documentEntries = await get<{ results: Record<string, unknown>[] }>(
      t.app,
      `/api/v2/audit?object_type=document&object_id=${doc?.id}`,
      tokens.admin,
    );
    expect(documentEntries.body.results[0]).toMatchObject({
      action: 'document_rejected',
      actor: ids.user,
      actor_email: 'agent@acme.test',
      before: { status: doc?.status },
      after: { status: 'rejected', review_reason: 'The photo is blurred' },
    });

    expect((await get(t.app, '/api/v2/profile/1/aml/check', tokens.admin)).status).toBe(200);
    const approve = await t.app.inject({
      method: 'PATCH',
      url: '/api/v2/profile/1/aml/approve',
      headers: bearer(tokens.admin),
    });
    expect(approve.statusCode).toBe(200);
    const aml = await get<{ results: { action: string }[] }>(
      t.app,
      '/api/v2/audit?object_type=aml&object_id=1',
      tokens.admin,
    );
    expect(aml.body.results.map((e) => e.action)).toEqual(['aml_approved', 'aml_checked']);
  });

  it('filters by date range and refuses bad filters with 400', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const inRange = await get<{ count: number }>(
      t.app,
      `/api/v2/audit?start_date=${today}&end_date=${today}`,
      tokens.admin,
    );
    expect(inRange.body.count).toBeGreaterThan(0);
    const before = await get<{ count: number }>(t.app, '/api/v2/audit?end_date=2000-01-01', tokens.admin);
    expect(before.body.count).toBe(0);
    const bad = await get<{ detail: string }>(t.app, '/api/v2/audit?start_date=yesterday', tokens.admin);
    expect(bad.status).toBe(400);
  });
});
