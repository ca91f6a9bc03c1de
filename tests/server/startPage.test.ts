/**
 * A user's start page (`start_page`, the screen `/` opens) is part of the user answer; the user
 * changes their own through PATCH /user/{id} without a password, an Admin anyone's of their company; anything
 * but 'customers' or 'review' is a 400 that changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '#contract/users';
import { bearer, PASSWORDS, startTestApp, type TestApp, tokenFor, userId } from './helpers';

const FORBIDDEN = { detail: 'You do not have permission to perform this action' };
const NOT_FOUND = { detail: 'Not found.' };

let t: TestApp;
const tokens = { admin: '', agent: '', viewer: '', reviewer: '', otherAdmin: '' };
const ids = { admin: 0, agent: 0, viewer: 0, reviewer: 0 };

async function patch(id: number, token: string, payload: unknown) {
  const response = await t.app.inject({
    method: 'PATCH',
    url: `/api/v2/user/${id}`,
    headers: { ...bearer(token), 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
  return { status: response.statusCode, body: response.json() as User & { detail?: string } };
}

/** The stored start page, read as the admin (who may read every Acme user). */
async function startPageOf(id: number): Promise<string> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/v2/user/${id}`,
    headers: bearer(tokens.admin),
  });
  expect(response.statusCode).toBe(200);
  return (response.json() as User).start_page;
}

beforeAll(async () => {
  t = await startTestApp();
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.viewer = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
  tokens.reviewer = await tokenFor(t.app, 'reviewer@acme.test', PASSWORDS.user);
  tokens.otherAdmin = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
  ids.admin = await userId(t.app, 'admin@acme.test');
  ids.agent = await userId(t.app, 'agent@acme.test');
  ids.viewer = await userId(t.app, 'viewer@acme.test');
  ids.reviewer = await userId(t.app, 'reviewer@acme.test');
}, 180_000);
afterAll(() => t.close());

describe('start page', () => {
  it('is in the user answer: the demo reviewer opens the desk, everybody else the customers list', async () => {
    expect(await startPageOf(ids.reviewer)).toBe('review');
    expect(await startPageOf(ids.admin)).toBe('customers');
    expect(await startPageOf(ids.agent)).toBe('customers');
    const own = await t.app.inject({
      method: 'GET',
      url: `/api/v2/user/${ids.agent}`,
      headers: bearer(tokens.agent),
    });
    expect((own.json() as User).start_page).toBe('customers');
  });

  it('a user changes their own without a password, and back', async () => {
    const away = await patch(ids.reviewer, tokens.reviewer, { start_page: 'customers' });
    expect(away.status).toBe(200);
    expect(away.body.start_page).toBe('customers');
    expect(await startPageOf(ids.reviewer)).toBe('customers');
    const back = await patch(ids.reviewer, tokens.reviewer, { start_page: 'review' });
    expect(back.status).toBe(200);
    expect(back.body.start_page).toBe('review');
    expect(await startPageOf(ids.reviewer)).toBe('review');
  });

  it("'review' without review_profiles is kept (the studio falls back to the customers list)", async () => {
    const answer = await patch(ids.viewer, tokens.viewer, { start_page: 'review' });
    expect(answer.status).toBe(200);
    expect(answer.body.permissions).not.toContain('review_profiles');
    expect(answer.body.start_page).toBe('review');
    const back = await patch(ids.viewer, tokens.viewer, { start_page: 'customers' });
    expect(back.body.start_page).toBe('customers');
  });

  it("an Admin changes a colleague's with their own password", async () => {
    const withoutPassword = await patch(ids.agent, tokens.admin, { start_page: 'review' });
    expect(withoutPassword.status).toBe(400);
    expect(await startPageOf(ids.agent)).toBe('customers');
    const answer = await patch(ids.agent, tokens.admin, { password: PASSWORDS.admin, start_page: 'review' });
    expect(answer.status).toBe(200);
    expect(answer.body.start_page).toBe('review');
    expect(await startPageOf(ids.agent)).toBe('review');
    await patch(ids.agent, tokens.admin, { password: PASSWORDS.admin, start_page: 'customers' });
    expect(await startPageOf(ids.agent)).toBe('customers');
  });

  it("a User cannot change a colleague's (403), with or without a password", async () => {
    for (const payload of [
      { start_page: 'customers' },
      { password: PASSWORDS.user, start_page: 'customers' },
    ]) {
      const answer = await patch(ids.reviewer, tokens.agent, payload);
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual(FORBIDDEN);
    }
    expect(await startPageOf(ids.reviewer)).toBe('review');
  });

  it("another company's Admin cannot change it (404, as for every other field)", async () => {
    const answer = await patch(ids.reviewer, tokens.otherAdmin, {
      password: PASSWORDS.admin,
      start_page: 'customers',
    });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(NOT_FOUND);
    expect(await startPageOf(ids.reviewer)).toBe('review');
  });

  const BAD: [string, unknown][] = [
    ['an unknown page', 'x'],
    ['an empty string', ''],
    ['null', null],
    ['a number', 42],
    ['a boolean', true],
    ['an array', ['review']],
    ['the right word in capitals', 'REVIEW'],
    ['the right word with a space', 'review '],
    ['a NUL byte', 'review\u0000'],
    ['10 kB', 'r'.repeat(10_240)],
  ];
  it.each(BAD)('%s is a 400 with a detail naming the field, and nothing changes', async (_, value) => {
    for (const [id, token, extra] of [
      [ids.reviewer, tokens.reviewer, {}],
      [ids.reviewer, tokens.admin, { password: PASSWORDS.admin }],
    ] as const) {
      // A valid field beside the bad one must not be written either.
      const answer = await patch(id, token, { ...extra, first_name: 'Changed', start_page: value });
      expect(answer.status).toBe(400);
      expect(answer.body.detail).toMatch(/^body\.start_page: /);
      expect(answer.body.detail).toContain('"customers"|"review"');
    }
    expect(await startPageOf(ids.reviewer)).toBe('review');
    const me = await t.app.inject({
      method: 'GET',
      url: `/api/v2/user/${ids.reviewer}`,
      headers: bearer(tokens.reviewer),
    });
    expect((me.json() as User).first_name).toBe('Rüya');
  });
});
