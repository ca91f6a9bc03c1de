/**
 * The desk's bulk actions on the server: moving a case to another queue (POST /review/cases/{id}/move)
 * and the case list of one profile (the profile screen's case panel, `?profile=`).
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewCase, ReviewCaseDetail, ReviewQueue } from '#contract/review';
import { REVIEW_DETAILS } from '#contract/review';
import { auditLog, reviewCases } from '../../server/db/schema';
import { get, PASSWORDS, post, startTestApp, type TestApp, tokenFor, userId } from './helpers';

let t: TestApp;
const tokens = { admin: '', agent: '', reviewer: '', globex: '' };
const ids = { agent: 0, reviewer: 0 };
const queues: Record<string, ReviewQueue> = {};
let globexQueue = 0;

beforeAll(async () => {
  t = await startTestApp();
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.reviewer = await tokenFor(t.app, 'reviewer@acme.test', PASSWORDS.user);
  tokens.globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
  ids.agent = await userId(t.app, 'agent@acme.test');
  ids.reviewer = await userId(t.app, 'reviewer@acme.test');
  for (const q of (await get<ReviewQueue[]>(t.app, '/api/v2/review/queues', tokens.admin)).body)
    queues[q.name] = q;
  globexQueue = (await get<ReviewQueue[]>(t.app, '/api/v2/review/queues', tokens.globex)).body[0]?.id ?? 0;
  expect(globexQueue).toBeGreaterThan(0);
}, 180_000);
afterAll(async () => {
  await t.close();
});

const caseUrl = (id: number, action: string) => `/api/v2/review/cases/${id}/${action}`;
type Page = { count: number; results: ReviewCase[] };

/** A fresh Acme profile set to Pending Review: its open case, in Identity. */
let seq = 0;
async function freshCase(): Promise<ReviewCase> {
  const created = await post<{ id: number }>(
    t.app,
    '/api/v2/profile',
    { id_card_number: `MOVE-${Date.now()}-${++seq}`, name: `Move Person ${seq}` },
    tokens.admin,
  );
  expect(created.status).toBe(201);
  const changed = await t.app.inject({
    method: 'PATCH',
    url: `/api/v2/profile/${created.body.id}/status`,
    payload: { status: 'Pending Review' },
    headers: { authorization: `Bearer ${tokens.admin}` },
  });
  expect(changed.statusCode).toBe(200);
  const list = await get<Page>(t.app, `/api/v2/review/cases?profile=${created.body.id}`, tokens.agent);
  expect(list.body.count).toBe(1);
  return list.body.results[0] as ReviewCase;
}

describe('the cases of one profile', () => {
  it('lists only that profile’s cases', async () => {
    const c = await freshCase();
    const list = await get<Page>(t.app, `/api/v2/review/cases?profile=${c.profile}`, tokens.reviewer);
    expect(list.body.results.map((r) => [r.id, r.profile, r.kind])).toEqual([
      [c.id, c.profile, 'pending_review'],
    ]);
    const bad = await get<{ detail: string }>(t.app, '/api/v2/review/cases?profile=abc', tokens.reviewer);
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBeTruthy();
  });
});

describe('moving a case', () => {
  it('moves an unassigned case to AML, keeping its due time, on the timeline and in the audit log', async () => {
    const c = await freshCase();
    const moved = await post<ReviewCase>(
      t.app,
      caseUrl(c.id, 'move'),
      { queue: queues.AML?.id },
      tokens.agent,
    );
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      queue: queues.AML?.id,
      queue_name: 'AML',
      state: 'open',
      due_at: c.due_at,
    });
    const detail = await get<ReviewCaseDetail>(t.app, `/api/v2/review/cases/${c.id}`, tokens.agent);
    expect(detail.body.timeline.at(-1)).toMatchObject({ kind: 'moved', data: { queue: queues.AML?.id } });
    const audit = await t.app.ctx.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.objectType, 'review_case'), eq(auditLog.objectId, String(c.id))));
    expect(audit.map((a) => a.action)).toContain('review_case_moved');
  });

  it('escalates into the senior queue and lets go an assignee without second_review', async () => {
    const c = await freshCase();
    expect((await post(t.app, caseUrl(c.id, 'assign'), {}, tokens.agent)).status).toBe(200);
    const moved = await post<ReviewCase>(
      t.app,
      caseUrl(c.id, 'move'),
      { queue: queues.Escalations?.id },
      tokens.agent,
    );
    expect(moved.body).toMatchObject({ state: 'escalated', assignee: null, queue_name: 'Escalations' });
    // A senior reviewer keeps it when it moves back; it runs as open again.
    expect((await post(t.app, caseUrl(c.id, 'assign'), {}, tokens.reviewer)).status).toBe(200);
    const back = await post<ReviewCase>(
      t.app,
      caseUrl(c.id, 'move'),
      { queue: queues.Identity?.id },
      tokens.reviewer,
    );
    expect(back.body).toMatchObject({ state: 'open', assignee: ids.reviewer, queue_name: 'Identity' });
  });

  it('refuses someone else’s case (409), another company’s queue (400) and bad bodies, changing nothing', async () => {
    const c = await freshCase();
    expect((await post(t.app, caseUrl(c.id, 'assign'), {}, tokens.reviewer)).status).toBe(200);
    const theirs = await post<{ detail: string }>(
      t.app,
      caseUrl(c.id, 'move'),
      { queue: queues.AML?.id },
      tokens.agent,
    );
    expect(theirs).toMatchObject({ status: 409, body: { detail: REVIEW_DETAILS.takenByOther } });
    const foreign = await post<{ detail: string }>(
      t.app,
      caseUrl(c.id, 'move'),
      { queue: globexQueue },
      tokens.reviewer,
    );
    expect(foreign).toMatchObject({ status: 400, body: { detail: REVIEW_DETAILS.unknownQueue } });
    for (const body of [{}, { queue: 0 }, { queue: 'x' }, { queue: queues.AML?.id, extra: 1 }]) {
      const bad = await post<{ detail: string }>(t.app, caseUrl(c.id, 'move'), body, tokens.reviewer);
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toBeTruthy();
    }
    const [row] = await t.app.ctx.db.select().from(reviewCases).where(eq(reviewCases.id, c.id));
    expect(row).toMatchObject({ queueId: c.queue, assigneeId: ids.reviewer });
    // An Admin moves anyone's case; another company's case is 404.
    expect((await post(t.app, caseUrl(c.id, 'move'), { queue: queues.AML?.id }, tokens.admin)).status).toBe(
      200,
    );
    expect((await post(t.app, caseUrl(c.id, 'move'), { queue: globexQueue }, tokens.globex)).status).toBe(
      404,
    );
  });

  it('refuses a decided case (409)', async () => {
    const c = await freshCase();
    expect((await post(t.app, caseUrl(c.id, 'assign'), {}, tokens.agent)).status).toBe(200);
    const decided = await post(
      t.app,
      caseUrl(c.id, 'decision'),
      { decision: 'abort', reason_code: 'duplicate' },
      tokens.agent,
    );
    expect(decided.status).toBe(200);
    const moved = await post<{ detail: string }>(
      t.app,
      caseUrl(c.id, 'move'),
      { queue: queues.AML?.id },
      tokens.agent,
    );
    expect(moved).toMatchObject({ status: 409, body: { detail: REVIEW_DETAILS.caseDecided } });
  });
});
