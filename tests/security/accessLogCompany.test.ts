/**
 * The company-wide access log beside the audit log (GET /access_log): Admins only, one company's reads only
 * (another company's Admin sees none of them, even by naming the profile or the user), filtered by user and by
 * profile, and paged newest first by `next_before` so that the pages together are the whole list, once each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccessEntry, AccessPage } from '#contract/privacy';
import {
  bearer,
  get,
  PASSWORDS,
  post,
  startTestApp,
  type TestApp,
  tokenFor,
  userId,
} from '../server/helpers';

let t: TestApp;
const tokens = { agent: '', admin: '', reviewer: '', globex: '' };
const ids = { agent: 0, admin: 0 };
const profiles = { first: 0, second: 0 };

/** A new Acme profile, so no other test's reads are about it. */
async function newProfile(name: string): Promise<number> {
  const created = await post<{ id: number }>(
    t.app,
    '/api/v2/profile',
    { id_card_number: `ACL-${Date.now()}-${name}`, name },
    tokens.admin,
  );
  expect(created.status).toBe(201);
  return created.body.id;
}

let opened = 0;
/**
 * Opens the profile `times` times as the token's user, each from an address of its own, so that each opening is
 * an entry of its own (identical reads within a second are one entry with their count).
 */
async function open(profile: number, token: string, times: number) {
  for (let i = 0; i < times; i++) {
    opened += 1;
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v2/profile/${profile}`,
      headers: bearer(token),
      remoteAddress: `10.1.${profile % 250}.${opened % 250}`,
    });
    expect(response.statusCode).toBe(200);
  }
}

/** Every page of the query, followed by `next_before`, with the size of each page. */
async function allPages(
  query: string,
  token = tokens.admin,
): Promise<{ reads: AccessEntry[]; sizes: number[] }> {
  const reads: AccessEntry[] = [];
  const sizes: number[] = [];
  let before: number | null | undefined;
  do {
    const page = await get<AccessPage>(
      t.app,
      `/api/v2/access_log?${query}${before ? `&before=${before}` : ''}`,
      token,
    );
    expect(page.status).toBe(200);
    reads.push(...page.body.results);
    sizes.push(page.body.results.length);
    before = page.body.next_before;
  } while (before !== null);
  return { reads, sizes };
}

beforeAll(async () => {
  t = await startTestApp();
  [tokens.agent, tokens.admin, tokens.reviewer, tokens.globex] = await Promise.all([
    tokenFor(t.app, 'agent@acme.test', PASSWORDS.user),
    tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin),
    tokenFor(t.app, 'reviewer@acme.test', PASSWORDS.user),
    tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin),
  ]);
  ids.agent = await userId(t.app, 'agent@acme.test');
  ids.admin = await userId(t.app, 'admin@acme.test');
  profiles.first = await newProfile('First');
  profiles.second = await newProfile('Second');
  await open(profiles.first, tokens.agent, 5);
  await open(profiles.first, tokens.admin, 2);
  await open(profiles.second, tokens.agent, 3);
  await t.app.accessLog.flush();
}, 180_000);
afterAll(async () => {
  await t?.close();
});

describe('the company-wide access log', () => {
  it('is refused to users who are not Admins', async () => {
    for (const token of [tokens.agent, tokens.reviewer]) {
      expect((await get(t.app, '/api/v2/access_log', token)).status).toBe(403);
      expect((await get(t.app, `/api/v2/access_log?profile=${profiles.first}`, token)).status).toBe(403);
    }
  });

  it("shows another company's Admin none of these reads", async () => {
    const byProfile = await get<AccessPage>(
      t.app,
      `/api/v2/access_log?profile=${profiles.first}`,
      tokens.globex,
    );
    expect(byProfile.status).toBe(200);
    expect(byProfile.body).toEqual({ results: [], next_before: null });
    const byUser = await get<AccessPage>(t.app, `/api/v2/access_log?user=${ids.agent}`, tokens.globex);
    expect(byUser.body.results).toEqual([]);
    const own = await allPages('limit=200', tokens.globex);
    const ours = new Set([profiles.first, profiles.second]);
    expect(own.reads.filter((read) => read.profile_id !== null && ours.has(read.profile_id))).toEqual([]);
    expect((await get(t.app, `/api/v2/profile/${profiles.first}/access_log`, tokens.globex)).status).toBe(
      404,
    );
  });

  it('filters by profile and by user, newest first, with who, what and when', async () => {
    const { reads } = await allPages(`profile=${profiles.first}&limit=200`);
    expect(reads).toHaveLength(7);
    expect(reads.every((read) => read.kind === 'profile_viewed' && read.profile_id === profiles.first)).toBe(
      true,
    );
    expect(reads.filter((read) => read.actor === ids.agent)).toHaveLength(5);
    expect(
      reads.filter((read) => read.actor === ids.admin && read.actor_email === 'admin@acme.test'),
    ).toHaveLength(2);
    const seqs = reads.map((read) => read.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    const agentsFirst = await allPages(`profile=${profiles.first}&user=${ids.agent}&limit=200`);
    expect(agentsFirst.reads.map((read) => read.seq)).toEqual(
      reads.filter((read) => read.actor === ids.agent).map((read) => read.seq),
    );
    const agentsAll = await allPages(`user=${ids.agent}&limit=200`);
    const agentsOurs = agentsAll.reads.filter(
      (read) => read.profile_id === profiles.first || read.profile_id === profiles.second,
    );
    expect(agentsOurs).toHaveLength(8);
    expect(agentsAll.reads.every((read) => read.actor === ids.agent)).toBe(true);
  });

  it('pages by next_before: the pages together are the whole list, each read once', async () => {
    const whole = await allPages(`profile=${profiles.first}&limit=200`);
    const paged = await allPages(`profile=${profiles.first}&limit=3`);
    expect(paged.sizes).toEqual([3, 3, 1]);
    expect(paged.reads.map((read) => read.seq)).toEqual(whole.reads.map((read) => read.seq));
    const exact = await allPages(`profile=${profiles.second}&limit=3`);
    expect(exact.sizes).toEqual([3]);
    expect((await get(t.app, '/api/v2/access_log?limit=201', tokens.admin)).status).toBe(400);
  });
});
