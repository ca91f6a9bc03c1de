/**
 * GET /review/metrics and /review/metrics.csv. Cases and timeline events are written by hand in
 * two queues of their own and on two users of their own, on days before the demo's data (2025-03-10 and -11), so
 * every figure below is computed by hand from the events. Another company's events never count.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueMetrics, ReviewerMetrics, ReviewMetrics } from '#contract/reviewMetrics';
import { METRICS_CSV_COLUMNS, METRICS_MESSAGES } from '#contract/reviewMetrics';
import { DAY_MS } from '#contract/time';
import {
  companies,
  profiles,
  reviewCaseEvents,
  reviewCases,
  reviewQueues,
  users,
} from '../../server/db/schema';
import { bearer, get, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

let t: TestApp;
const tokens = { admin: '', viewer: '', globex: '' };
const ids = { acme: 0, globex: 0, u1: 0, u2: 0, gu: 0, q1: 0, q2: 0, gq: 0 };
const at = (iso: string) => new Date(iso);
const RANGE = 'from=2025-03-10&to=2025-03-11';

type EventSpec = { kind: string; actor: number | null; at: string; data?: Record<string, unknown> };
async function addCase(
  companyId: number,
  queueId: number,
  c: {
    kind: string;
    state: string;
    assignee: number | null;
    created: string;
    due: string;
    decided?: string;
    events: EventSpec[];
  },
) {
  const db = t.app.ctx.db;
  const [profile] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(eq(profiles.companyId, companyId))
    .limit(1);
  const [row] = await db
    .insert(reviewCases)
    .values({
      companyId,
      profileId: profile?.id as number,
      kind: c.kind,
      queueId,
      state: c.state,
      assigneeId: c.assignee,
      dueAt: at(c.due),
      createdAt: at(c.created),
      updatedAt: at(c.created),
      decidedAt: c.decided ? at(c.decided) : null,
      decision: c.decided ? 'approve' : null,
    })
    .returning({ id: reviewCases.id });
  const caseId = row?.id as number;
  await db.insert(reviewCaseEvents).values(
    [{ kind: 'opened', actor: null, at: c.created } as EventSpec, ...c.events].map((e) => ({
      caseId,
      companyId,
      actorId: e.actor,
      kind: e.kind,
      data: e.data ?? {},
      createdAt: at(e.at),
    })),
  );
}

async function addUser(companyId: number, email: string, firstName: string, lastName: string) {
  const [row] = await t.app.ctx.db
    .insert(users)
    .values({ companyId, email, firstName, lastName, passwordHash: 'x', role: 'User' })
    .returning({ id: users.id });
  return row?.id as number;
}

async function addQueue(companyId: number, name: string, slaHours: number) {
  const [row] = await t.app.ctx.db
    .insert(reviewQueues)
    .values({ companyId, name, slaHours })
    .returning({ id: reviewQueues.id });
  return row?.id as number;
}

beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.ctx.db;
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.viewer = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
  tokens.globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
  const [acme] = await db.select().from(companies).where(eq(companies.name, 'Acme Bank'));
  const [globex] = await db.select().from(companies).where(eq(companies.name, 'Globex Fintech'));
  ids.acme = acme?.id as number;
  ids.globex = globex?.id as number;
  ids.u1 = await addUser(ids.acme, 'metrics.one@acme.test', 'Metric', 'One');
  // A name a spreadsheet would run as a formula, with a comma and quotes: the CSV must neutralise and quote it.
  ids.u2 = await addUser(ids.acme, 'metrics.two@acme.test', '=HYPERLINK("x")', 'Two, B');
  ids.gu = await addUser(ids.globex, 'metrics@globex.test', 'Globex', 'Reviewer');
  ids.q1 = await addQueue(ids.acme, 'Metrics Q1', 24);
  ids.q2 = await addQueue(ids.acme, 'Metrics Q2', 48);
  ids.gq = await addQueue(ids.globex, 'Globex metrics', 24);
  const { u1, u2, gu } = ids;
  const assigned = (who: number, when: string) => ({
    kind: 'assigned',
    actor: null,
    at: when,
    data: { assignee: who },
  });

  // A: assigned 08:10, decided 08:40 by U1 (1800 s); in time. Opened 08:00 → decided 08:40 (2400 s).
  await addCase(ids.acme, ids.q1, {
    kind: 'metrics_a',
    state: 'decided',
    assignee: u1,
    created: '2025-03-10T08:00:00Z',
    due: '2025-03-11T08:00:00Z',
    decided: '2025-03-10T08:40:00Z',
    events: [
      assigned(u1, '2025-03-10T08:10:00Z'),
      { kind: 'decided', actor: u1, at: '2025-03-10T08:40:00Z' },
    ],
  });
  // B: assigned 08:05, decided 08:55 (3000 s), after its due time 08:30: an SLA breach. Opening → decision 3300 s.
  await addCase(ids.acme, ids.q1, {
    kind: 'metrics_b',
    state: 'decided',
    assignee: u1,
    created: '2025-03-10T08:00:00Z',
    due: '2025-03-10T08:30:00Z',
    decided: '2025-03-10T08:55:00Z',
    events: [
      assigned(u1, '2025-03-10T08:05:00Z'),
      { kind: 'decided', actor: u1, at: '2025-03-10T08:55:00Z' },
    ],
  });
  // C: U1's approval waits (10:20, 1200 s after assignment), U2 returns it (11:00), U1 decides at 11:30 (5400 s
  // after the same assignment). Opening → decision 5400 s.
  await addCase(ids.acme, ids.q1, {
    kind: 'metrics_c',
    state: 'decided',
    assignee: u1,
    created: '2025-03-11T10:00:00Z',
    due: '2025-03-12T10:00:00Z',
    decided: '2025-03-11T11:30:00Z',
    events: [
      assigned(u1, '2025-03-11T10:00:00Z'),
      { kind: 'decision_pending', actor: u1, at: '2025-03-11T10:20:00Z' },
      { kind: 'returned', actor: u2, at: '2025-03-11T11:00:00Z', data: { maker: u1 } },
      { kind: 'decided', actor: u1, at: '2025-03-11T11:30:00Z' },
    ],
  });
  // F: decided exactly at the range's end (2025-03-12T00:00Z, excluded): counts nowhere, not even as a breach.
  await addCase(ids.acme, ids.q1, {
    kind: 'metrics_f',
    state: 'decided',
    assignee: u1,
    created: '2025-03-09T23:00:00Z',
    due: '2025-03-10T23:00:00Z',
    decided: '2025-03-12T00:00:00Z',
    events: [
      assigned(u1, '2025-03-09T23:10:00Z'),
      { kind: 'decided', actor: u1, at: '2025-03-12T00:00:00Z' },
    ],
  });
  // D: U1's open case, overdue now: a breach of U1 and of Q2 whatever the range.
  await addCase(ids.acme, ids.q2, {
    kind: 'metrics_d',
    state: 'open',
    assignee: u1,
    created: '2025-03-11T12:00:00Z',
    due: '2025-03-13T12:00:00Z',
    events: [assigned(u1, '2025-03-11T12:00:00Z')],
  });
  // E: U2 escalates 15 minutes after assignment (900 s); the case waits unassigned, overdue now.
  await addCase(ids.acme, ids.q2, {
    kind: 'metrics_e',
    state: 'escalated',
    assignee: null,
    created: '2025-03-10T12:00:00Z',
    due: '2025-03-13T12:00:00Z',
    events: [
      assigned(u2, '2025-03-10T12:00:00Z'),
      { kind: 'escalated', actor: u2, at: '2025-03-10T12:15:00Z' },
    ],
  });
  // Globex: its reviewer decides, and a forged return names Acme's U1 as maker. Neither may count for Acme.
  await addCase(ids.globex, ids.gq, {
    kind: 'metrics_g',
    state: 'decided',
    assignee: gu,
    created: '2025-03-10T08:00:00Z',
    due: '2025-03-10T08:01:00Z',
    decided: '2025-03-10T09:00:00Z',
    events: [
      assigned(gu, '2025-03-10T08:00:00Z'),
      { kind: 'returned', actor: gu, at: '2025-03-10T08:30:00Z', data: { maker: u1 } },
      { kind: 'decided', actor: gu, at: '2025-03-10T09:00:00Z' },
      { kind: 'decided', actor: u1, at: '2025-03-10T09:00:00Z' },
    ],
  });
}, 180_000);
afterAll(async () => {
  await t.close();
});

const metrics = (query: string, token = tokens.admin) =>
  get<ReviewMetrics>(t.app, `/api/v2/review/metrics?${query}`, token);
const reviewer = (m: ReviewMetrics, user: number) =>
  m.reviewers.find((r) => r.user === user) as ReviewerMetrics;
const queue = (m: ReviewMetrics, id: number) => m.queues.find((q) => q.queue === id) as QueueMetrics;

describe('GET /review/metrics', () => {
  it('per reviewer: decisions, per hour, time from assignment to decision, breaches, returns', async () => {
    const { status, body } = await metrics(RANGE);
    expect(status).toBe(200);
    expect(body).toMatchObject({ from: '2025-03-10', to: '2025-03-11' });
    // U1: A, B (hour 08 of the 10th), C pending (10 h of the 11th), C decided (11 h): 4 in 3 hours.
    // Times 1800, 3000, 1200, 5400 → median (1800 + 3000) / 2 = 2400; p90 3000 + 0.7 × 2400 = 4680.
    // Breaches: B decided after due, D overdue now. One return (C).
    expect(reviewer(body, ids.u1)).toEqual({
      user: ids.u1,
      name: 'Metric One',
      decisions: 4,
      decisions_per_hour: 1.33,
      median_seconds: 2400,
      p90_seconds: 4680,
      sla_breaches: 2,
      four_eyes_returns: 1,
      second_reviews: 0,
    });
    // U2: one escalation 900 s after assignment; one second review (the return of C).
    expect(reviewer(body, ids.u2)).toEqual({
      user: ids.u2,
      name: '=HYPERLINK("x") Two, B',
      decisions: 1,
      decisions_per_hour: 1,
      median_seconds: 900,
      p90_seconds: 900,
      sla_breaches: 0,
      four_eyes_returns: 0,
      second_reviews: 1,
    });
  });

  it('per queue: open and overdue now, decided in the range, breaches, median from opening to decision', async () => {
    const { body } = await metrics(RANGE);
    // Q1: A (2400 s), B (3300 s, breach), C (5400 s) decided in the range; F decided at the range's end is out.
    expect(queue(body, ids.q1)).toEqual({
      queue: ids.q1,
      name: 'Metrics Q1',
      open: 0,
      overdue: 0,
      decided: 3,
      sla_breaches: 1,
      median_seconds: 3300,
    });
    expect(queue(body, ids.q2)).toEqual({
      queue: ids.q2,
      name: 'Metrics Q2',
      open: 2,
      overdue: 2,
      decided: 0,
      sla_breaches: 2,
      median_seconds: null,
    });
  });

  it('the range bounds: a day that leaves out the 11th counts only the 10th', async () => {
    const { body } = await metrics('from=2025-03-10&to=2025-03-10');
    expect(reviewer(body, ids.u1)).toMatchObject({
      decisions: 2,
      decisions_per_hour: 2,
      median_seconds: 2400,
      sla_breaches: 2,
      four_eyes_returns: 0,
    });
    expect(queue(body, ids.q1)).toMatchObject({ decided: 2, sla_breaches: 1, median_seconds: 2850 });
    // The 12th holds F's decision (at midnight) only.
    const next = await metrics('from=2025-03-12&to=2025-03-12');
    expect(reviewer(next.body, ids.u1)).toMatchObject({
      decisions: 1,
      median_seconds: 2 * 86400 + 50 * 60,
      sla_breaches: 2,
    });
    expect(queue(next.body, ids.q1)).toMatchObject({ decided: 1, sla_breaches: 1 });
  });

  it('another company’s events, users and queues never appear', async () => {
    const acme = (await metrics(RANGE)).body;
    expect(acme.reviewers.map((r) => r.user)).not.toContain(ids.gu);
    expect(acme.queues.map((q) => q.queue)).not.toContain(ids.gq);
    // The forged return and the decision written under Globex do not count for U1 (figures as above).
    expect(reviewer(acme, ids.u1)).toMatchObject({ decisions: 4, four_eyes_returns: 1 });
    const globex = (await metrics(RANGE, tokens.globex)).body;
    expect(globex.reviewers.map((r) => r.user)).toEqual(expect.arrayContaining([ids.gu]));
    expect(globex.reviewers.map((r) => r.user)).not.toContain(ids.u1);
    expect(globex.reviewers.map((r) => r.user)).not.toContain(ids.u2);
    expect(globex.queues.map((q) => q.queue)).not.toContain(ids.q1);
    expect(reviewer(globex, ids.gu)).toMatchObject({ decisions: 1, sla_breaches: 1, second_reviews: 1 });
    expect(queue(globex, ids.gq)).toMatchObject({ decided: 1, sla_breaches: 1, median_seconds: 3600 });
  });

  it('defaults to the last 7 days up to today', async () => {
    const { status, body } = await metrics('');
    expect(status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    expect(body.to).toBe(today);
    expect((Date.parse(body.to) - Date.parse(body.from)) / DAY_MS).toBe(6);
  });

  it.each([
    ['from=2026-02-30&to=2026-03-01', 'Enter a real date as YYYY-MM-DD'],
    ['from=2026-03-01&to=2026-13-01', 'Enter a real date as YYYY-MM-DD'],
    ['from=yesterday', 'Enter a real date as YYYY-MM-DD'],
    ['from=2026-03-02&to=2026-03-01', METRICS_MESSAGES.fromAfterTo],
    ['from=2025-01-01&to=2026-01-02', METRICS_MESSAGES.tooLong],
    ['from=2025-01-01&queue=1', ''],
  ])('%s answers 400 with a detail', async (query, detail) => {
    for (const path of ['metrics', 'metrics.csv']) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/v2/review/${path}?${query}`,
        headers: bearer(tokens.admin),
      });
      expect(response.statusCode).toBe(400);
      const body = response.json() as { detail: string };
      expect(body.detail).toContain(detail);
    }
  });

  it('a leap year of 366 days is allowed', async () => {
    expect((await metrics('from=2024-01-01&to=2024-12-31')).status).toBe(200);
  });

  it('needs review_profiles and a token', async () => {
    expect((await metrics(RANGE, tokens.viewer)).status).toBe(403);
    expect((await get(t.app, `/api/v2/review/metrics?${RANGE}`)).status).toBe(401);
    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/v2/review/metrics.csv?${RANGE}`,
      headers: bearer(tokens.viewer),
    });
    expect(csv.statusCode).toBe(403);
  });
});

describe('GET /review/metrics.csv', () => {
  it('the same figures as CSV, with formula-like text neutralised and quoting per RFC 4180', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/v2/review/metrics.csv?${RANGE}`,
      headers: bearer(tokens.admin),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="review-metrics-2025-03-10-2025-03-11.csv"',
    );
    const lines = response.body.split('\r\n');
    expect(lines[0]).toBe(METRICS_CSV_COLUMNS.join(','));
    expect(lines[0]).toBe(
      'section,id,name,decisions,decisions_per_hour,median_seconds,p90_seconds,sla_breaches,four_eyes_returns,second_reviews,open,overdue',
    );
    expect(lines).toContain(`reviewer,${ids.u1},Metric One,4,1.33,2400,4680,2,1,0,,`);
    expect(lines).toContain(`reviewer,${ids.u2},"'=HYPERLINK(""x"") Two, B",1,1,900,900,0,0,1,,`);
    expect(lines).toContain(`queue,${ids.q1},Metrics Q1,3,,3300,,1,,,0,0`);
    expect(lines).toContain(`queue,${ids.q2},Metrics Q2,0,,,,2,,,2,2`);
    expect(response.body.endsWith('\r\n')).toBe(true);
    expect(response.body).not.toContain('Globex');
  });
});

describe('GET /review/queues', () => {
  it('counts the cases awaiting a second review per queue', async () => {
    const q = ids.q2;
    await t.app.ctx.db
      .update(reviewCases)
      .set({ state: 'awaiting_second_review' })
      .where(and(eq(reviewCases.queueId, q), eq(reviewCases.kind, 'metrics_d')));
    const { body } = await get<{ id: number; awaiting_second_review: number; open: number }[]>(
      t.app,
      '/api/v2/review/queues',
      tokens.admin,
    );
    expect(body.find((row) => row.id === q)).toMatchObject({ open: 2, awaiting_second_review: 1 });
    await t.app.ctx.db
      .update(reviewCases)
      .set({ state: 'open' })
      .where(and(eq(reviewCases.queueId, q), eq(reviewCases.kind, 'metrics_d')));
  });
});
