import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bitool, CallReport } from '#contract/stats';
import { dayOf, lastMonths } from '#contract/statsRange';
import { amlHistory, companies, documents, profiles, users, videoCalls } from '../../server/db/schema';
import { bitoolRange } from '../../server/domain/bitool';
import { get, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

/**
 * The report and dashboard figures on rows with known answers. The demo data lies in the 180 days before
 * 2026-11-21, so the rows here are put in 2024 (and 2023) where nothing else is.
 */
let t: TestApp;
const tokens = { admin: '', user: '', restricted: '', globex: '' };
const agents = { a: { id: 0, name: '' }, b: { id: 0, name: '' } };

const at = (iso: string) => new Date(iso);

beforeAll(async () => {
  t = await startTestApp();
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.user = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.restricted = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
  tokens.globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
  const db = t.app.ctx.db;
  const [acme] = await db.select().from(companies).where(eq(companies.name, 'Acme Bank'));
  const [globex] = await db.select().from(companies).where(eq(companies.name, 'Globex Fintech'));
  const acmeId = acme?.id ?? 0;
  const globexId = globex?.id ?? 0;
  const userRow = async (email: string) => {
    const [row] = await db
      .select()
      .from(users)
      .where(and(eq(users.companyId, acmeId), eq(users.email, email)));
    if (!row) throw new Error(`no user ${email}`);
    return { id: row.id, name: `${row.firstName} ${row.lastName}`.trim() };
  };
  agents.a = await userRow('admin@acme.test');
  agents.b = await userRow('agent@acme.test');
  const [globexAgent] = await db.select().from(users).where(eq(users.companyId, globexId));

  const profile = async (
    companyId: number,
    status: string,
    createdAt: string,
    lastStatusDate: string | null,
  ): Promise<number> => {
    const [row] = await db
      .insert(profiles)
      .values({
        companyId,
        idCardNumber: `STATS-${createdAt}-${status}`,
        status,
        createdAt: at(createdAt),
        updatedAt: at(createdAt),
        lastStatusDate: lastStatusDate ? at(lastStatusDate) : null,
      })
      .returning({ id: profiles.id });
    return row?.id ?? 0;
  };

  // Profiles (bitool): created in range by current status, and their last status change.
  const callProfile = await profile(acmeId, 'Created', '2023-06-01T00:00:00Z', null);
  const p1 = await profile(acmeId, 'Approved', '2024-01-10T09:00:00Z', '2024-02-05T10:00:00Z');
  const p2 = await profile(acmeId, 'Rejected', '2024-01-20T09:00:00Z', '2024-01-25T10:00:00Z');
  const p3 = await profile(acmeId, 'Pending Review', '2024-03-03T09:00:00Z', '2024-03-03T09:00:00Z');
  const p4 = await profile(acmeId, 'Blacklisted', '2023-12-31T23:00:00Z', '2024-04-01T10:00:00Z');
  await profile(acmeId, 'Temporarily Approved', '2024-05-05T09:00:00Z', '2024-07-01T00:00:00Z');
  const g1 = await profile(globexId, 'Approved', '2024-01-15T09:00:00Z', '2024-01-16T09:00:00Z');

  // Documents and their checks.
  const doc = (companyId: number, profileId: number, createdAt: string, checks: object, deleted = false) =>
    db.insert(documents).values({
      companyId,
      profileId,
      documentClass: 'ID',
      checks: checks as Record<string, unknown>,
      createdAt: at(createdAt),
      deletedAt: deleted ? at(createdAt) : null,
    });
  const result = (r: string) => ({ result: r, score: 50 });
  await doc(acmeId, p1, '2024-01-10T09:05:00Z', {
    document: result('passed'),
    fraud: result('failed'),
    biometric: result('warning'),
  });
  await doc(acmeId, p2, '2024-01-20T09:05:00Z', {
    document: result('passed'),
    fraud: result('passed'),
    biometric: result('passed'),
    cross: result('passed'),
  });
  await doc(acmeId, p3, '2024-03-03T09:05:00Z', { document: result('failed') }, true);
  await doc(acmeId, p4, '2023-12-31T23:05:00Z', { document: result('failed') });
  await doc(globexId, g1, '2024-01-15T09:05:00Z', { document: result('failed') });

  // AML screenings.
  const aml = (profileId: number, status: string, createdAt: string) =>
    db.insert(amlHistory).values({
      profileId,
      provider: 'Local AML lists',
      status,
      scannedDatabase: 'OFAC SDN',
      createdAt: at(createdAt),
    });
  await aml(p1, 'clear', '2024-01-11T00:00:00Z');
  await aml(p1, 'hit', '2024-02-11T00:00:00Z');
  await aml(p2, 'error', '2024-02-12T00:00:00Z');
  await aml(p3, 'hit', '2024-07-01T00:00:00Z');
  await aml(g1, 'hit', '2024-01-15T00:00:00Z');

  // Calls (report: 2024-03-01 … 2024-03-03).
  const call = (
    companyId: number,
    status: number,
    createdAt: string,
    agentId: number | null,
    start: string | null,
    end: string | null,
  ) =>
    db.insert(videoCalls).values({
      companyId,
      profileId: companyId === acmeId ? callProfile : g1,
      agentId,
      roomId: `stats-${createdAt}`,
      status,
      createdAt: at(createdAt),
      callStartTime: start ? at(start) : null,
      callEndTime: end ? at(end) : null,
    });
  await call(acmeId, 3, '2024-03-01T10:00:00Z', agents.a.id, '2024-03-01T10:01:00Z', '2024-03-01T10:11:00Z');
  await call(acmeId, 3, '2024-03-01T12:00:00Z', agents.b.id, '2024-03-01T12:00:00Z', '2024-03-01T12:05:00Z');
  await call(acmeId, 2, '2024-03-01T23:59:59Z', null, null, null);
  await call(acmeId, 9, '2024-03-03T08:00:00Z', agents.a.id, '2024-03-03T08:00:30Z', '2024-03-03T08:03:30Z');
  await call(acmeId, 1, '2024-03-03T09:00:00Z', agents.b.id, '2024-03-03T09:00:00Z', null);
  // Just outside the report's range (in the dashboard's).
  await call(acmeId, 3, '2024-03-04T00:00:00Z', agents.a.id, '2024-03-04T00:01:00Z', '2024-03-04T00:02:00Z');
  await call(acmeId, 4, '2024-02-29T23:59:59Z', agents.b.id, '2024-03-01T00:00:00Z', '2024-03-01T00:01:00Z');
  // Another company's call in the range.
  await call(
    globexId,
    3,
    '2024-03-02T10:00:00Z',
    globexAgent?.id ?? null,
    '2024-03-02T10:00:00Z',
    '2024-03-02T11:00:00Z',
  );
});
afterAll(() => t.close());

const report = (query: string, token = tokens.admin) =>
  get<CallReport & { detail?: string }>(t.app, `/api/v2/videocall/report?${query}`, token);
const dashboard = (query: string, token = tokens.admin) =>
  get<Bitool & { detail?: string }>(t.app, `/api/v2/bitool${query ? `?${query}` : ''}`, token);

const zeros = () => Array.from({ length: 10 }, () => 0);
const statuses = (counts: Record<number, number>) => zeros().map((_, code) => counts[code] ?? 0);

describe('GET /videocall/report', () => {
  it('counts the calls of the range exactly: totals, by status, by day and by agent', async () => {
    const { status, body } = await report('start_date=2024-03-01&end_date=2024-03-03');
    expect(status).toBe(200);
    expect(body.start_date).toBe('2024-03-01');
    expect(body.end_date).toBe('2024-03-03');
    expect(body.totals).toEqual({
      calls: 5,
      answered: 4,
      handled: 3,
      average_handling_seconds: 360,
      total_handling_seconds: 1080,
      statuses: statuses({ 1: 1, 2: 1, 3: 2, 9: 1 }),
    });
    expect(body.by_status).toEqual(
      statuses({ 1: 1, 2: 1, 3: 2, 9: 1 }).map((calls, code) => ({ code, calls })),
    );
    expect(body.by_day).toEqual([
      {
        date: '2024-03-01',
        calls: 3,
        answered: 2,
        handled: 2,
        average_handling_seconds: 450,
        total_handling_seconds: 900,
        statuses: statuses({ 2: 1, 3: 2 }),
      },
      {
        date: '2024-03-02',
        calls: 0,
        answered: 0,
        handled: 0,
        average_handling_seconds: null,
        total_handling_seconds: 0,
        statuses: zeros(),
      },
      {
        date: '2024-03-03',
        calls: 2,
        answered: 2,
        handled: 1,
        average_handling_seconds: 180,
        total_handling_seconds: 180,
        statuses: statuses({ 1: 1, 9: 1 }),
      },
    ]);
    // Both agents took 2 calls: ties go by name; the calls nobody took come last.
    const named = [agents.a, agents.b].sort((x, y) => x.name.localeCompare(y.name));
    expect(body.by_agent.map((row) => row.agent)).toEqual([...named, null]);
    const byId = new Map(body.by_agent.map((row) => [row.agent?.id ?? null, row]));
    expect(byId.get(agents.a.id)).toMatchObject({
      calls: 2,
      answered: 2,
      handled: 2,
      average_handling_seconds: 390,
      total_handling_seconds: 780,
      statuses: statuses({ 3: 1, 9: 1 }),
    });
    expect(byId.get(agents.b.id)).toMatchObject({
      calls: 2,
      answered: 2,
      handled: 1,
      average_handling_seconds: 300,
      statuses: statuses({ 1: 1, 3: 1 }),
    });
    expect(byId.get(null)).toMatchObject({
      calls: 1,
      answered: 0,
      handled: 0,
      average_handling_seconds: null,
    });
  });

  it('answers zeros for a range without calls, with every day listed', async () => {
    const { status, body } = await report('start_date=2022-01-30&end_date=2022-02-02');
    expect(status).toBe(200);
    expect(body.totals).toMatchObject({ calls: 0, handled: 0, average_handling_seconds: null });
    expect(body.by_day.map((d) => d.date)).toEqual(['2022-01-30', '2022-01-31', '2022-02-01', '2022-02-02']);
    expect(body.by_agent).toEqual([]);
  });

  it('never counts another company’s calls', async () => {
    const { status, body } = await report('start_date=2024-03-01&end_date=2024-03-03', tokens.globex);
    expect(status).toBe(200);
    expect(body.totals).toMatchObject({ calls: 1, handled: 1, average_handling_seconds: 3600 });
  });

  it.each([
    ['start_date=2024-02-30&end_date=2024-03-03', 'querystring.start_date: Enter a real date as YYYY-MM-DD'],
    ['start_date=2024-03-01&end_date=03/03/2024', 'querystring.end_date: Enter a real date as YYYY-MM-DD'],
    [
      'start_date=2024-03-04&end_date=2024-03-03',
      'querystring.end_date: start_date must not be after end_date',
    ],
    [
      'start_date=2024-01-01&end_date=2025-01-01',
      'querystring.end_date: The range can span at most 366 days',
    ],
    ['start_date=2024-03-01', 'querystring.end_date'],
    ['start_date=2024-03-01&end_date=2024-03-03&agent=1', 'querystring'],
  ])('refuses %s with 400', async (query, detail) => {
    const { status, body } = await report(query);
    expect(status).toBe(400);
    expect(body.detail).toContain(detail);
  });

  it('accepts the longest range (366 days)', async () => {
    const { status, body } = await report('start_date=2024-01-01&end_date=2024-12-31');
    expect(status).toBe(200);
    expect(body.by_day).toHaveLength(366);
    expect(body.totals.calls).toBe(7);
  });

  it('needs view_calls_page', async () => {
    const query = 'start_date=2024-03-01&end_date=2024-03-03';
    expect((await report(query, tokens.user)).status).toBe(200);
    expect((await report(query, tokens.restricted)).body).toEqual({
      detail: 'You do not have permission to perform this action',
    });
    expect((await report(query, tokens.restricted)).status).toBe(403);
    expect((await get(t.app, `/api/v2/videocall/report?${query}`)).status).toBe(401);
  });
});

describe('GET /bitool', () => {
  it('counts profiles, decisions, documents, AML and calls of the range exactly, by month', async () => {
    const { status, body } = await dashboard('start_date=2024-01-01&end_date=2024-06-30');
    expect(status).toBe(200);
    expect(body.bucket).toBe('month');
    expect(body.periods.map((p) => p.period)).toEqual([
      '2024-01-01',
      '2024-02-01',
      '2024-03-01',
      '2024-04-01',
      '2024-05-01',
      '2024-06-01',
    ]);
    expect(body.totals).toEqual({
      profiles: 4,
      approved: 1,
      rejected: 2,
      documents: 2,
      aml_screenings: 3,
      aml_hits: 1,
      calls: 7,
    });
    const [jan, feb, mar, apr, may, jun] = body.periods;
    expect(jan?.profiles).toMatchObject({ Approved: 1, Rejected: 1, Created: 0 });
    expect(Object.values(jan?.profiles ?? {}).reduce((a, b) => a + b, 0)).toBe(2);
    expect(mar?.profiles['Pending Review']).toBe(1);
    expect(may?.profiles['Temporarily Approved']).toBe(1);
    expect(jan).toMatchObject({ rejected: 1, approved: 0, aml_screenings: 1, aml_hits: 0, aml_errors: 0 });
    expect(feb).toMatchObject({ approved: 1, aml_screenings: 2, aml_hits: 1, aml_errors: 1, calls: 1 });
    expect(feb?.call_statuses).toEqual(statuses({ 4: 1 }));
    expect(mar).toMatchObject({ calls: 6, call_statuses: statuses({ 1: 1, 2: 1, 3: 3, 9: 1 }) });
    expect(apr).toMatchObject({ blacklisted: 1, calls: 0 });
    expect(jun).toMatchObject({ approved: 0, temporarily_approved: 0, calls: 0, aml_screenings: 0 });
    expect(body.document_checks).toEqual([
      { kind: 'document', passed: 2, warning: 0, failed: 0, not_run: 0 },
      { kind: 'fraud', passed: 1, warning: 0, failed: 1, not_run: 0 },
      { kind: 'biometric', passed: 1, warning: 1, failed: 0, not_run: 0 },
      { kind: 'cross', passed: 1, warning: 0, failed: 0, not_run: 1 },
    ]);
    expect(body.call_outcomes).toEqual(
      statuses({ 1: 1, 2: 1, 3: 3, 4: 1, 9: 1 }).map((calls, code) => ({ code, calls })),
    );
  });

  it('buckets ranges up to 92 days by ISO week (from Monday)', async () => {
    const { status, body } = await dashboard('start_date=2024-02-28&end_date=2024-03-12');
    expect(status).toBe(200);
    expect(body.bucket).toBe('week');
    expect(body.periods.map((p) => p.period)).toEqual(['2024-02-26', '2024-03-04', '2024-03-11']);
    expect(body.periods.map((p) => p.calls)).toEqual([6, 1, 0]);
    expect(body.periods[0]?.profiles['Pending Review']).toBe(1);
  });

  it('defaults to the last 6 months up to today', async () => {
    const { status, body } = await dashboard('');
    expect(status).toBe(200);
    const expected = lastMonths(dayOf(new Date()));
    expect([body.start_date, body.end_date]).toEqual([expected.start, expected.end]);
    expect(body.bucket).toBe('month');
    expect(body.periods).toHaveLength(7);
    expect(body.totals.profiles).toBeGreaterThan(0);
  });

  it('fills a missing start or end from the other', () => {
    const now = new Date('2026-11-22T10:00:00Z');
    expect(bitoolRange({ end_date: '2024-08-31' }, now)).toEqual({ start: '2024-02-29', end: '2024-08-31' });
    expect(bitoolRange({ start_date: '2026-01-01' }, now)).toEqual({
      start: '2026-01-01',
      end: '2026-11-22',
    });
    expect(bitoolRange({}, now)).toEqual({ start: '2026-05-22', end: '2026-11-22' });
    expect(() => bitoolRange({ start_date: '2027-01-01' }, now)).toThrow(/start_date must not be after/);
  });

  it('never counts another company’s rows', async () => {
    const { body } = await dashboard('start_date=2024-01-01&end_date=2024-06-30', tokens.globex);
    expect(body.totals).toEqual({
      profiles: 1,
      approved: 1,
      rejected: 0,
      documents: 1,
      aml_screenings: 1,
      aml_hits: 1,
      calls: 1,
    });
  });

  it.each([
    ['start_date=2024-13-01', 'querystring.start_date: Enter a real date as YYYY-MM-DD'],
    [
      'start_date=2024-06-01&end_date=2024-01-01',
      'querystring.end_date: start_date must not be after end_date',
    ],
    [
      'start_date=2020-01-01&end_date=2024-01-01',
      'querystring.end_date: The range can span at most 732 days',
    ],
    ['start_date=2999-01-01', 'querystring.start_date: start_date must not be after end_date'],
    ['bucket=week', 'querystring'],
  ])('refuses %s with 400', async (query, detail) => {
    const { status, body } = await dashboard(query);
    expect(status).toBe(400);
    expect(body.detail).toContain(detail);
  });

  it('needs view_dashboard_page', async () => {
    expect((await dashboard('', tokens.user)).status).toBe(200);
    expect((await dashboard('', tokens.restricted)).status).toBe(403);
    expect((await get(t.app, '/api/v2/bitool')).status).toBe(401);
  });

  it('has the indexes its range queries use (migration 0002)', async () => {
    const db = t.app.ctx.db;
    const names = (await db.execute(sql`SELECT indexname FROM pg_indexes WHERE schemaname = 'public'`)) as {
      rows: { indexname: string }[];
    };
    expect(names.rows.map((r) => r.indexname)).toEqual(
      expect.arrayContaining([
        'video_calls_company_created',
        'profiles_company_status_date',
        'documents_company_created',
        'aml_history_created',
      ]),
    );
  });
});
