import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileSummary } from '#contract/profiles';
import { companies, profiles } from '../../server/db/schema';
import { manyFrom } from '../../server/domain/profileSearch';
import { get, PASSWORDS, post, startTestApp, type TestApp, tokenFor } from './helpers';

/**
 * GET /profile?search= (docs/decisions/0165-profile-search-by-index.md): name, e-mail, phone and ID number, by prefix and
 * substring, folded the Turkish way, exact ID numbers on their own, and nothing of another company. The
 * profiles here carry "qz", which no demo profile has, so the expected sets are exact.
 */
let t: TestApp;
const tokens = { acme: '', globex: '' };
const ids = { sukru: 0, isil: 0, metas: 0, wild: 0, longer: 0, globex: 0 };

interface Page {
  count: number;
  results: ProfileSummary[];
}

const search = async (term: string, token = tokens.acme) => {
  const answer = await get<Page>(
    t.app,
    `/api/v2/profile?limit=200&search=${encodeURIComponent(term)}`,
    token,
  );
  expect(answer.status, term).toBe(200);
  return answer.body;
};
const found = async (term: string, token = tokens.acme) =>
  (await search(term, token)).results.map((p) => p.id);

beforeAll(async () => {
  t = await startTestApp();
  tokens.acme = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
  const db = t.app.ctx.db;
  const companyId = async (name: string) =>
    (await db.select().from(companies).where(eq(companies.name, name)))[0]?.id ?? 0;
  const acme = await companyId('Acme Bank');
  const globex = await companyId('Globex Fintech');
  const add = async (values: typeof profiles.$inferInsert) =>
    (await db.insert(profiles).values(values).returning({ id: profiles.id }))[0]?.id ?? 0;
  ids.sukru = await add({
    companyId: acme,
    name: 'Şükrü Çelikkolqz',
    email: 'sukru.qz@example.test',
    idCardNumber: '98765432101',
    phone: '+49 170 1234567',
  });
  ids.isil = await add({
    companyId: acme,
    name: 'Işıl İnceqz',
    email: 'ISIL.QZ@Example.TEST',
    idCardNumber: '98765432102',
    phone: '+90 (532) 111-22-33',
  });
  ids.metas = await add({ companyId: acme, name: 'Rate 100% qz_under\\back', idCardNumber: 'QZ-ID-77' });
  ids.wild = await add({ companyId: acme, name: 'Rate 1000 qzxunder back', idCardNumber: 'QZ-ID-78' });
  // Contains Şükrü's ID number: found by a part of it, not when that whole number is searched.
  ids.longer = await add({ companyId: acme, name: 'Longer Idqz', idCardNumber: '1987654321012' });
  ids.globex = await add({
    companyId: globex,
    name: 'Şükrü Çelikkolqz',
    email: 'sukru.qz@example.test',
    idCardNumber: '98765432199',
    phone: '+49 170 1234567',
  });
});
afterAll(() => t.close());

describe('GET /profile?search=', () => {
  it('finds a name by prefix and substring, folded the Turkish way in both directions', async () => {
    for (const term of [
      'Şükrü',
      'şükrü çelikkolqz',
      'ŞÜKRÜ ÇELİKKOLQZ',
      'SUKRU CELIKKOLQZ',
      'sukru',
      'likkolq',
    ]) {
      expect(await found(term), term).toContain(ids.sukru);
    }
    for (const term of ['çelikkolqz', 'ÇELİKKOLQZ', 'CELIKKOLQZ', 'celikkolqz', 'CeLiKkOlQz']) {
      expect(await found(term), term).toEqual([ids.sukru]);
    }
    // Dotted and dotless i: İ, I, ı and i are one letter to a search.
    for (const term of [
      'Işıl İnceqz',
      'ışıl inceqz',
      'ISIL INCEQZ',
      'isil inceqz',
      'IŞIL İNCEQZ',
      'İnceqz',
    ]) {
      expect(await found(term), term).toEqual([ids.isil]);
    }
  });

  it('finds an e-mail by prefix and substring, whatever its case', async () => {
    expect(await found('sukru.qz@')).toEqual([ids.sukru]);
    expect(await found('qz@example.test')).toEqual(expect.arrayContaining([ids.sukru, ids.isil]));
    expect(await found('isil.qz@example.test')).toEqual([ids.isil]);
    expect(await found('ISIL.QZ@EXAMPLE.TEST')).toEqual([ids.isil]);
  });

  it('finds a phone by its digits, written with or without the punctuation', async () => {
    for (const term of ['1701234567', '+49170', '+49 170 1234567', '49 170 123', '170-123']) {
      expect(await found(term), term).toEqual([ids.sukru]);
    }
    for (const term of ['5321112233', '(532) 111-22-33', '+90 532 111 22 33', '111 22 33']) {
      expect(await found(term), term).toEqual([ids.isil]);
    }
  });

  it('finds an ID number by prefix and substring, and an exact one on its own', async () => {
    expect(await found('987654321')).toEqual(expect.arrayContaining([ids.sukru, ids.isil, ids.longer]));
    expect(await found('65432102')).toEqual([ids.isil]);
    expect(await found('qz-id-7')).toEqual(expect.arrayContaining([ids.metas, ids.wild]));
    // The longer number contains it, but the exact ID number is what was meant.
    const exact = await search('98765432101');
    expect(exact.results.map((p) => p.id)).toEqual([ids.sukru]);
    expect(exact.count).toBe(1);
    expect(await found('QZ-ID-77')).toEqual([ids.metas]);
  });

  it('finds a profile created with an ID number that others contain on its own, right after it is created', async () => {
    // Asked before the profile exists: substring matches, and the answer "no such ID number" is kept with the
    // list's counts (profileSearch.ts); creating the profile forgets both.
    expect(await found('8765432101')).toEqual(expect.arrayContaining([ids.sukru, ids.longer]));
    const created = await post<ProfileSummary>(
      t.app,
      '/api/v2/profile',
      { id_card_number: '8765432101', name: 'Yeni Kayıt' },
      tokens.acme,
    );
    expect(created.status).toBe(201);
    expect(await found('8765432101')).toEqual([created.body.id]);
  });

  it('finds a profile by its id', async () => {
    expect(await found(String(ids.sukru))).toContain(ids.sukru);
  });

  it('reads %, _ and \\ as themselves', async () => {
    expect(await found('100% qz')).toEqual([ids.metas]);
    expect(await found('qz_under')).toEqual([ids.metas]);
    expect(await found('under\\back')).toEqual([ids.metas]);
    expect(await found('1000 qz')).toEqual([ids.wild]);
    // The list without a search first: the search that finds nothing must not reuse its prepared query.
    const all = await get<Page>(t.app, '/api/v2/profile?limit=1', tokens.acme);
    expect(all.body.count).toBeGreaterThan(0);
    expect(await search('%')).toMatchObject({ count: 0, results: [] });
    expect(await search('%_\\')).toMatchObject({ count: 0, results: [] });
  });

  it('answers a 1–2 character search by name prefix, an exact ID number or an id', async () => {
    expect(await found('Şü')).toContain(ids.sukru);
    expect(await found('su')).toContain(ids.sukru);
    expect(await found('IŞ')).toContain(ids.isil);
    expect(await found('lq')).not.toContain(ids.sukru);
  });

  it('answers bad input with 400 or nothing found, never 500', async () => {
    for (const term of ['ab\u0000cd', 'x'.repeat(10_000), `qz${'\u0000'.repeat(3)}`]) {
      const answer = await get<{ detail: string }>(
        t.app,
        `/api/v2/profile?search=${encodeURIComponent(term)}`,
        tokens.acme,
      );
      expect(answer.status, term.slice(0, 10)).toBe(400);
      expect(answer.body.detail).toEqual(expect.any(String));
    }
    for (const term of ['🙂', '🙂🙂🙂', '👩‍👩‍👧', '∑∂', '...', '@']) {
      expect(await search(term), term).toMatchObject({ count: 0, results: [] });
    }
    expect(await found('🙂 çelikkolqz')).toEqual([]);
    expect(await found('çelikkolqz🙂')).toEqual([]);
  });

  it("never finds another company's profiles", async () => {
    for (const term of ['çelikkolqz', 'sukru.qz@', '1701234567', '98765432199', 'Şü', String(ids.globex)]) {
      expect(await found(term), term).not.toContain(ids.globex);
    }
    expect(await found('çelikkolqz', tokens.globex)).toEqual([ids.globex]);
    expect(await found('98765432101', tokens.globex)).toEqual([]);
  });
});

/**
 * A substring search with more matches than its count cap reads its page along the ordering's index instead
 * of the trigram index. The pages must be the same rows either way; only the count is estimated. Here the cap
 * is 3 (LIST_COUNT_CAP), so a common term takes that path on the demo data
 * (docs/decisions/0169-search-few-or-many.md).
 */
describe('a search with many matches', () => {
  let low: TestApp;
  let token = '';
  beforeAll(async () => {
    low = await startTestApp({ listCountCap: 3 });
    token = await tokenFor(low.app, 'admin@acme.test', PASSWORDS.admin);
  });
  afterAll(() => low.close());

  /** Every row by following `next` from the first page of `query`. */
  async function pages(app: TestApp['app'], bearer: string, query: string) {
    const ids: number[] = [];
    const counts: { count: number; estimated: boolean }[] = [];
    let address: string | null = `/api/v2/profile?${query}`;
    while (address) {
      const url = new URL(address, 'http://localhost');
      const answer = await get<Page & { next: string | null; count_is_estimate: boolean }>(
        app,
        `${url.pathname}${url.search}`,
        bearer,
      );
      expect(answer.status, address).toBe(200);
      ids.push(...answer.body.results.map((p) => p.id));
      counts.push({ count: answer.body.count, estimated: answer.body.count_is_estimate });
      address = answer.body.next;
    }
    return { ids, counts };
  }

  it.each(['-created_at', 'name', '-status', 'risk_level'])(
    'pages a common term (%s) through the same rows as the trigram read, with an estimated count',
    async (ordering) => {
      const query = `search=example&ordering=${ordering}&limit=7`;
      const exact = await pages(t.app, tokens.acme, query);
      expect(exact.ids.length).toBeGreaterThan(20);
      expect(exact.counts[0]).toEqual({ count: exact.ids.length, estimated: false });
      const walked = await pages(low.app, token, query);
      expect(walked.ids).toEqual(exact.ids.filter((id) => !Object.values(ids).includes(id)));
      expect(walked.counts.every((c) => c.estimated && c.count > 3)).toBe(true);
    },
  );

  it('reads along the ordering from √(limit × profiles) matches on, at most the cap', async () => {
    const db = low.app.ctx.db;
    const [profilesCounted] = (
      (await db.execute(
        sql`select reltuples::float8 as n from pg_class where oid = 'profiles'::regclass`,
      )) as unknown as {
        rows: { n: number }[];
      }
    ).rows;
    const n = Number(profilesCounted?.n);
    expect(n).toBeGreaterThan(200);
    expect(await manyFrom(db, 20, 1_000)).toBe(Math.round(Math.sqrt(20 * n)));
    expect(await manyFrom(db, 20, 10)).toBe(10);
    expect(await manyFrom(db, 200, 1_000_000)).toBe(Math.max(200, Math.round(Math.sqrt(200 * n))));
  });

  it('counts a term with no more matches than the cap exactly', async () => {
    const [profile] = await low.app.ctx.db
      .select({ id: profiles.id, email: profiles.email })
      .from(profiles)
      .where(eq(profiles.companyId, 1))
      .limit(1);
    const email = profile?.email ?? '';
    expect(email).toContain('@');
    const found = await pages(low.app, token, `search=${encodeURIComponent(email)}&limit=7`);
    expect(found.ids).toContain(profile?.id);
    expect(found.counts).toEqual([{ count: found.ids.length, estimated: false }]);
    expect(found.ids.length).toBeLessThanOrEqual(3);
  });
});
