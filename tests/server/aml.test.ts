import { fileURLToPath } from 'node:url';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AML_NO_NAME,
  AML_NO_PERMISSION,
  AML_NOTHING_TO_APPROVE,
  type AmlCheck,
  type AmlResult,
} from '#contract/aml';
import type { AmlMatch } from '#contract/amlMatch';
import { amlHistory, companies, profileLogs, profiles } from '../../server/db/schema';
import { AML_DISABLED } from '../../server/domain/aml';
import { englishLogMessage } from '../../server/domain/logText';
import { createAmlScreener } from '../../server/integrations/aml';
import { bearer, get, PASSWORDS, post, startTestApp, type TestApp, tokenFor } from './helpers';

const fixtures = fileURLToPath(new URL('./fixtures/aml/', import.meta.url));
const SAMPLE_DATABASE = 'Sample watchlist: OFAC SDN and UN Security Council excerpts (31 people)';

let t: TestApp;
const tokens = { admin: '', user: '', restricted: '', globex: '' };
let listedId = 0;
let globexProfileId = 0;

async function profileIdByName(name: string): Promise<number> {
  const [row] = await t.app.ctx.db.select({ id: profiles.id }).from(profiles).where(eq(profiles.name, name));
  if (!row) throw new Error(`no profile named ${name}`);
  return row.id;
}

beforeAll(async () => {
  t = await startTestApp();
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.user = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.restricted = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
  tokens.globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
  listedId = await profileIdByName('Serhat Gençoğlu');
  const db = t.app.ctx.db;
  const [globex] = await db.select().from(companies).where(eq(companies.name, 'Globex Fintech'));
  const [gp] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(eq(profiles.companyId, globex?.id ?? 0));
  globexProfileId = gp?.id ?? 0;
});
afterAll(() => t.close());

const check = (id: number, token: string) => get<AmlCheck>(t.app, `/api/v2/profile/${id}/aml/check`, token);
const result = (id: number, token = tokens.admin) =>
  get<AmlResult>(t.app, `/api/v2/profile/${id}/aml`, token);

async function approve(id: number, token: string, payload?: unknown) {
  const response = await t.app.inject({
    method: 'PATCH',
    url: `/api/v2/profile/${id}/aml/approve`,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: response.statusCode, body: response.json() as AmlResult & { detail?: string } };
}

async function logsOf(id: number, action: string) {
  return t.app.ctx.db
    .select()
    .from(profileLogs)
    .where(and(eq(profileLogs.profileId, id), eq(profileLogs.action, action)))
    .orderBy(desc(profileLogs.id));
}

async function historyCount(id: number) {
  return (await t.app.ctx.db.select().from(amlHistory).where(eq(amlHistory.profileId, id))).length;
}

describe('GET /profile/{id}/aml/check runs a screening', () => {
  it('finds the demo profile on the sample list, stores the result and a history entry, and logs it', async () => {
    expect((await result(listedId)).body).toMatchObject({ list: [], records: [], history: [] });
    const { status, body } = await check(listedId, tokens.admin);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      profile: listedId,
      provider: 'Local AML lists',
      checked: true,
      status: 'hit',
      scanned_database: SAMPLE_DATABASE,
      matches: 1,
      score: 100,
    });
    const record = body.records[0] as unknown as AmlMatch;
    expect(record).toMatchObject({
      entry_id: 'sample-ofac-gencoglu',
      name: 'GENCOGLU, Serhat',
      lists: ['OFAC SDN'],
      matched_fields: ['name', 'nationality'],
      name_score: 100,
      nationality: { result: 'match', listed: ['TR'], points: 5 },
      birth_date: { result: 'not_listed' },
    });

    const stored = (await result(listedId)).body;
    expect(stored).toMatchObject({
      list: ['OFAC SDN'],
      score: 100,
      records: body.records,
      approved: null,
      approved_by: null,
      approved_date: null,
    });
    expect(stored.history[0]).toMatchObject({
      id: body.id,
      status: 'hit',
      provider: 'Local AML lists',
      scanned_database: SAMPLE_DATABASE,
      matches: 1,
      date: body.date,
    });
    const entry = await get<{ records: unknown[] }>(
      t.app,
      `/api/v2/profile/${listedId}/aml/history/${body.id}`,
      tokens.admin,
    );
    expect(entry.body.records).toEqual(body.records);
    const [log] = await logsOf(listedId, 'aml_checked');
    expect(log?.data).toEqual({
      check_id: body.id,
      status: 'hit',
      matches: 1,
      score: 100,
      database: SAMPLE_DATABASE,
      lists: ['OFAC SDN'],
    });
    expect(englishLogMessage('aml_checked', log?.data ?? {})).toBe('AML check: 1 match on OFAC SDN');
  });

  it('replaces an earlier result with a clear one when nothing matches', async () => {
    // Profile 1 was seeded with a sanctions hit by an earlier provider; its name is on no list.
    expect((await result(1)).body.records.length).toBeGreaterThan(0);
    const before = await historyCount(1);
    const { status, body } = await check(1, tokens.user);
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'clear', matches: 0, score: 0, records: [] });
    expect(await historyCount(1)).toBe(before + 1);
    expect((await result(1)).body).toMatchObject({ list: [], score: 0, records: [], approved: null });
    const [log] = await logsOf(1, 'aml_checked');
    expect(log?.data).toMatchObject({ matches: 0, lists: [] });
    expect(englishLogMessage('aml_checked', log?.data ?? {})).toBe('AML check: no match');
  });

  it('screens the profile aliases too, and uses its birth date and nationality', async () => {
    const id = await profileIdByName('Serhat Gençoğlu');
    const other = id + 2;
    await t.app.ctx.db
      .update(profiles)
      .set({ aliases: ['Nicolás Maduro'], dateOfBirth: '1962-11-23', nationality: 'VE' })
      .where(eq(profiles.id, other));
    const { body } = await check(other, tokens.admin);
    expect(body.status).toBe('hit');
    expect(body.records[0]).toMatchObject({
      entry_id: 'sample-ofac-maduro',
      matched_fields: ['name', 'birth_date', 'nationality'],
      score: 100,
    });
  });

  it('refuses a profile without a name (400) and writes nothing', async () => {
    const created = await post<{ id: number }>(
      t.app,
      '/api/v2/profile',
      { id_card_number: 'qa_amlnoname01', name: null, gender: null },
      tokens.admin,
    );
    expect(created.status).toBe(201);
    const { status, body } = await get<{ detail: string }>(
      t.app,
      `/api/v2/profile/${created.body.id}/aml/check`,
      tokens.admin,
    );
    expect(status).toBe(400);
    expect(body.detail).toBe(AML_NO_NAME);
    expect(await historyCount(created.body.id)).toBe(0);
  });
});

describe('PATCH /profile/{id}/aml/approve', () => {
  it('records who approved and when, logs it, and leaves an approved result as it is', async () => {
    await check(listedId, tokens.admin);
    const { status, body } = await approve(listedId, tokens.user);
    expect(status).toBe(200);
    expect(body).toMatchObject({ approved: true, approved_by: { name: 'Umut Agent' }, score: 100 });
    expect(Date.parse(body.approved_date ?? '')).toBeGreaterThan(Date.now() - 60_000);
    const logs = await logsOf(listedId, 'aml_approved');
    expect(logs[0]?.data).toEqual({ matches: 1 });
    expect(englishLogMessage('aml_approved', logs[0]?.data ?? {})).toBe(
      'AML result approved (1 match reviewed)',
    );

    const again = await approve(listedId, tokens.admin, {});
    expect(again.status).toBe(200);
    expect(again.body.approved_by).toEqual(body.approved_by);
    expect(again.body.approved_date).toBe(body.approved_date);
    expect(await logsOf(listedId, 'aml_approved')).toHaveLength(logs.length);
  });

  it('a new check waits for approval again', async () => {
    await check(listedId, tokens.admin);
    expect((await result(listedId)).body).toMatchObject({ approved: null, approved_by: null });
  });

  it('needs a check first (400) and a strict body', async () => {
    // Odd demo profiles were never screened.
    const never = await approve(2, tokens.admin);
    expect(never.status).toBe(400);
    expect(never.body.detail).toBe(AML_NOTHING_TO_APPROVE);
    expect((await result(2)).body.approved).toBeNull();
    const odd = await approve(listedId, tokens.admin, { approved: false });
    expect(odd.status).toBe(400);
  });
});

describe('who may update AML', () => {
  it('refuses a Restricted User with the AML message and changes nothing', async () => {
    const before = await historyCount(listedId);
    const refusedCheck = await get<{ detail: string }>(
      t.app,
      `/api/v2/profile/${listedId}/aml/check`,
      tokens.restricted,
    );
    expect(refusedCheck).toEqual({ status: 403, body: { detail: AML_NO_PERMISSION } });
    const refusedApprove = await approve(listedId, tokens.restricted, {});
    expect(refusedApprove.status).toBe(403);
    expect(refusedApprove.body.detail).toBe("You don't have permission to update AML");
    expect(await historyCount(listedId)).toBe(before);
    expect((await result(listedId)).body.approved).toBeNull();
    // Reading stays allowed.
    expect((await result(listedId, tokens.restricted)).status).toBe(200);
  });

  it('answers 401 without a token, 403 without an AML provider, 404 for another company', async () => {
    expect((await get(t.app, `/api/v2/profile/${listedId}/aml/check`)).status).toBe(401);
    const globex = await get<{ detail: string }>(
      t.app,
      `/api/v2/profile/${globexProfileId}/aml/check`,
      tokens.globex,
    );
    expect(globex).toEqual({ status: 403, body: { detail: AML_DISABLED } });
    expect((await approve(globexProfileId, tokens.globex)).body.detail).toBe(AML_DISABLED);
    expect((await check(globexProfileId, tokens.admin)).status).toBe(404);
    expect((await approve(globexProfileId, tokens.admin)).status).toBe(404);
  });
});

describe('a full list from AML_LIST_PATH', () => {
  it('screens against the configured OFAC file', async () => {
    const full = await startTestApp({
      aml: { listPath: `${fixtures}sdn.csv`, listFormat: undefined, threshold: 85 },
    });
    try {
      const token = await tokenFor(full.app, 'agent@acme.test', PASSWORDS.user);
      const [row] = await full.app.ctx.db
        .select({ id: profiles.id })
        .from(profiles)
        .where(eq(profiles.name, 'Serhat Gençoğlu'));
      const { body } = await get<AmlCheck>(full.app, `/api/v2/profile/${row?.id}/aml/check`, token);
      expect(body).toMatchObject({
        status: 'hit',
        scanned_database: 'OFAC SDN sdn.csv + alt.csv (4 people)',
        records: [{ entry_id: 'ofac-9003', matched_fields: ['name', 'nationality'] }],
      });
    } finally {
      await full.close();
    }
  });

  it('stops start-up when the file cannot be read', () => {
    expect(() =>
      createAmlScreener({ listPath: `${fixtures}missing.csv`, listFormat: undefined, threshold: 85 }),
    ).toThrow(/ENOENT/);
  });
});
