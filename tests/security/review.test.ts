/**
 * The reviewers' desk under attack: another company's case and user ids, a user without
 * review_profiles, a reviewer who is not the assignee deciding, the maker confirming their own decision, 50
 * concurrent Next case calls (no case given twice), and extreme input (a 4xx with a detail; nothing changes).
 */
import { and, eq, inArray, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_DETAILS, type ReviewCase } from '#contract/review';
import { DAY_MS, HOUR_MS } from '#contract/time';
import {
  profiles,
  reviewCaseEvents,
  reviewCases,
  reviewPendingDecisions,
  reviewQueues,
  reviewReasonCodes,
  reviewRules,
} from '../../server/db/schema';
import { bearer, PASSWORDS, startTestApp, type TestApp, tokenFor, userId } from '../server/helpers';

let t: TestApp;
const tokens = { admin: '', agent: '', reviewer: '', viewer: '', globex: '', supervisorOnly: '' };
const ids = { agent: 0, reviewer: 0, globexAdmin: 0 };
let acmeCase = 0;
let globexCase = 0;

beforeAll(async () => {
  t = await startTestApp();
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.reviewer = await tokenFor(t.app, 'reviewer@acme.test', PASSWORDS.user);
  tokens.viewer = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
  tokens.globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
  // A User outside the Reviewers group (shared@demo.test in Acme, Europe): every page but no review_profiles.
  tokens.supervisorOnly = await tokenFor(t.app, 'shared@demo.test', PASSWORDS.user, t.config.publicUrl);
  ids.agent = await userId(t.app, 'agent@acme.test');
  ids.reviewer = await userId(t.app, 'reviewer@acme.test');
  ids.globexAdmin = await userId(t.app, 'admin@globex.test');
  const [open] = await t.app.ctx.db
    .select({ id: reviewCases.id })
    .from(reviewCases)
    .where(and(eq(reviewCases.companyId, 1), eq(reviewCases.state, 'open')))
    .limit(1);
  acmeCase = open?.id ?? 0;
  // A Globex case: a Globex profile set to Pending Review by its admin.
  const [globexProfile] = await t.app.ctx.db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.companyId, 2), eq(profiles.status, 'Incomplete')))
    .limit(1);
  await call('PATCH', `/api/v2/profile/${globexProfile?.id}/status`, tokens.globex, {
    status: 'Pending Review',
  });
  const [theirs] = await t.app.ctx.db
    .select({ id: reviewCases.id })
    .from(reviewCases)
    .where(eq(reviewCases.companyId, 2));
  globexCase = theirs?.id ?? 0;
  expect([acmeCase, globexCase]).not.toContain(0);
}, 180_000);
afterAll(async () => {
  await t.close();
});

async function call(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, token: string, payload?: unknown) {
  const response = await t.app.inject({
    method,
    url,
    headers: { ...bearer(token), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(payload === undefined
      ? {}
      : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
  });
  return {
    status: response.statusCode,
    body: (response.body ? response.json() : null) as Record<string, unknown>,
  };
}

/** Everything the desk stores, to show that a refused request changed nothing. */
async function snapshot() {
  const db = t.app.ctx.db;
  return {
    cases: await db.select().from(reviewCases).orderBy(reviewCases.id),
    events: (await db.select({ id: reviewCaseEvents.id }).from(reviewCaseEvents)).length,
    pending: await db.select().from(reviewPendingDecisions).orderBy(reviewPendingDecisions.id),
    codes: await db.select().from(reviewReasonCodes),
    rules: await db.select().from(reviewRules),
    queues: await db.select().from(reviewQueues).orderBy(reviewQueues.id),
  };
}

const caseRoutes = (id: number | string): [method: 'GET' | 'POST', url: string, body?: unknown][] => [
  ['GET', `/api/v2/review/cases/${id}`],
  ['POST', `/api/v2/review/cases/${id}/assign`, {}],
  ['POST', `/api/v2/review/cases/${id}/unassign`, {}],
  ['POST', `/api/v2/review/cases/${id}/decision`, { decision: 'approve' }],
  ['POST', `/api/v2/review/cases/${id}/snooze`, { until: new Date(Date.now() + HOUR_MS).toISOString() }],
  ['POST', `/api/v2/review/cases/${id}/await_customer`, {}],
  ['POST', `/api/v2/review/cases/${id}/resume`, {}],
];

describe('another company', () => {
  it("answers 404 to every route on another company's case, and changes nothing", async () => {
    const before = await snapshot();
    for (const [method, url, body] of caseRoutes(globexCase)) {
      const answer = await call(method, url, tokens.admin, body);
      expect(answer, url).toEqual({ status: 404, body: { detail: 'Not found.' } });
    }
    for (const action of ['confirm', 'return'])
      expect(
        (
          await call('POST', `/api/v2/review/cases/${globexCase}/${action}`, tokens.admin, {
            note: 'A long enough note',
          })
        ).status,
      ).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it("never lists another company's cases or reviewers", async () => {
    const list = await call('GET', '/api/v2/review/cases?limit=200', tokens.globex);
    expect((list.body.results as ReviewCase[]).every((c) => c.id === globexCase)).toBe(true);
    const reviewers = await call('GET', '/api/v2/review/reviewers', tokens.globex);
    expect((reviewers.body as unknown as { user: number }[]).map((r) => r.user)).not.toContain(ids.agent);
    const filtered = await call('GET', `/api/v2/review/cases?assignee=${ids.agent}`, tokens.globex);
    expect(filtered.body.count).toBe(0);
  });

  it("refuses to assign a case to another company's user (400) and to set their reviewer settings (404)", async () => {
    const before = await snapshot();
    expect(
      await call('POST', `/api/v2/review/cases/${acmeCase}/assign`, tokens.admin, { user: ids.globexAdmin }),
    ).toEqual({ status: 400, body: { detail: REVIEW_DETAILS.notEligible } });
    expect(
      (await call('PUT', `/api/v2/review/reviewers/${ids.globexAdmin}`, tokens.admin, { away: true })).status,
    ).toBe(404);
    const globexQueues = (await call('GET', '/api/v2/review/queues', tokens.globex)).body as unknown as {
      id: number;
    }[];
    for (const queue of globexQueues)
      expect(
        await call('PUT', `/api/v2/review/queues/${queue.id}`, tokens.admin, { auto_assign: true }),
      ).toEqual({
        status: 404,
        body: { detail: 'Not found.' },
      });
    expect(await snapshot()).toEqual(before);
  });
});

describe('permissions', () => {
  it('a user without review_profiles gets 403 everywhere on the desk, and changes nothing', async () => {
    const before = await snapshot();
    const everything: [method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown][] = [
      ['GET', '/api/v2/review/cases'],
      ['GET', '/api/v2/review/queues'],
      ['GET', '/api/v2/review/reason_codes'],
      ['GET', '/api/v2/review/reviewers'],
      ['GET', '/api/v2/review/next'],
      ['POST', '/api/v2/review/next'],
      ['GET', '/api/v2/review/rules'],
      [
        'PUT',
        '/api/v2/review/rules',
        {
          approve_high_risk: false,
          approve_after_failed_step: false,
          override_aml_hit: false,
          every_approval: false,
        },
      ],
      ['PUT', '/api/v2/review/reason_codes', { codes: [] }],
      ...caseRoutes(acmeCase),
    ];
    for (const token of [tokens.viewer, tokens.supervisorOnly])
      for (const [method, url, body] of everything)
        expect(await call(method, url, token, body), `${method} ${url}`).toEqual({
          status: 403,
          body: { detail: 'You do not have permission to perform this action' },
        });
    expect(await snapshot()).toEqual(before);
  });

  it('rules and reason codes are written by Admins only', async () => {
    const before = await snapshot();
    const rules = {
      approve_high_risk: false,
      approve_after_failed_step: false,
      override_aml_hit: false,
      every_approval: true,
    };
    expect((await call('PUT', '/api/v2/review/rules', tokens.reviewer, rules)).status).toBe(403);
    expect((await call('PUT', '/api/v2/review/reason_codes', tokens.agent, { codes: [] })).status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it('a reviewer who is not the assignee cannot decide, snooze or unassign; nothing changes', async () => {
    expect((await call('POST', `/api/v2/review/cases/${acmeCase}/assign`, tokens.agent, {})).status).toBe(
      200,
    );
    const before = await snapshot();
    const profileBefore = await t.app.ctx.db.select().from(profiles);
    for (const [url, body] of [
      ['decision', { decision: 'approve' }],
      ['decision', { decision: 'reject', reason_code: 'document_forged', note: 'Forged, clearly forged' }],
      ['snooze', { until: new Date(Date.now() + HOUR_MS).toISOString() }],
      ['await_customer', {}],
      ['unassign', {}],
    ] as const) {
      const answer = await call('POST', `/api/v2/review/cases/${acmeCase}/${url}`, tokens.reviewer, body);
      expect(answer.status, url).toBe(403);
      expect(answer.body.detail, url).toBe(REVIEW_DETAILS.notAssignee);
    }
    expect(await snapshot()).toEqual(before);
    expect(await t.app.ctx.db.select().from(profiles)).toEqual(profileBefore);
  });

  it('the maker of a waiting decision can neither confirm nor return it', async () => {
    const [waiting] = await t.app.ctx.db
      .select()
      .from(reviewPendingDecisions)
      .where(and(eq(reviewPendingDecisions.companyId, 1), eq(reviewPendingDecisions.makerId, ids.reviewer)))
      .limit(1);
    let caseId = waiting?.caseId;
    if (!caseId) {
      // The seed's waiting decisions are made by others; make one by the reviewer on a High-risk profile.
      const [high] = await t.app.ctx.db
        .select({ id: reviewCases.id })
        .from(reviewCases)
        .innerJoin(profiles, eq(profiles.id, reviewCases.profileId))
        .where(
          and(eq(reviewCases.state, 'open'), eq(profiles.riskLevel, 'High'), eq(reviewCases.companyId, 1)),
        )
        .limit(1);
      caseId = high?.id as number;
      await call('POST', `/api/v2/review/cases/${caseId}/assign`, tokens.admin, { user: ids.reviewer });
      const made = await call('POST', `/api/v2/review/cases/${caseId}/decision`, tokens.reviewer, {
        decision: 'approve',
      });
      expect(made.body.second_review_required).toBe(true);
    }
    const before = await snapshot();
    expect(await call('POST', `/api/v2/review/cases/${caseId}/confirm`, tokens.reviewer, {})).toEqual({
      status: 403,
      body: { detail: REVIEW_DETAILS.makerCannotCheck },
    });
    expect(
      await call('POST', `/api/v2/review/cases/${caseId}/return`, tokens.reviewer, {
        note: 'Returning my own decision',
      }),
    ).toEqual({ status: 403, body: { detail: REVIEW_DETAILS.makerCannotCheck } });
    expect(await snapshot()).toEqual(before);
  });
});

describe('Next case under load', () => {
  it('50 concurrent Next case calls never give one case twice', async () => {
    const callers = [tokens.agent, tokens.reviewer, tokens.admin];
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call('POST', '/api/v2/review/next', callers[i % callers.length] as string),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    const given = answers.map((a) => a.body.id as number);
    expect(new Set(given).size).toBe(50);
    const rows = await t.app.ctx.db.select().from(reviewCases).where(inArray(reviewCases.id, given));
    const callerIds = [ids.agent, ids.reviewer, await userId(t.app, 'admin@acme.test')];
    for (const [i, answer] of answers.entries())
      expect(rows.find((r) => r.id === answer.body.id)?.assigneeId).toBe(callerIds[i % 3]);
    // Each case got exactly one "assigned by next" event.
    const events = await t.app.ctx.db
      .select({ caseId: reviewCaseEvents.caseId })
      .from(reviewCaseEvents)
      .where(and(inArray(reviewCaseEvents.caseId, given), eq(reviewCaseEvents.kind, 'assigned')));
    expect(events.length).toBe(50);
  });
});

describe('extreme input', () => {
  it('answers a 4xx with a detail to bad ids, bodies and queries, and changes nothing', async () => {
    const before = await snapshot();
    const badIds = ['0', '-1', '2147483648', String(2 ** 53), 'abc', '1.5', '%00'];
    for (const id of badIds)
      for (const [method, url, body] of caseRoutes(id)) {
        const answer = await call(method, url, tokens.admin, body);
        expect(answer.status, `${method} ${url}`).toBe(400);
        expect(answer.body.detail, url).toEqual(expect.any(String));
      }
    const url = (action: string) => `/api/v2/review/cases/${acmeCase}/${action}`;
    const bodies: [string, unknown][] = [
      ['assign', { user: 2 ** 53 }],
      ['assign', { user: 2147483648 }],
      ['assign', { user: 0 }],
      ['assign', { user: '2' }],
      ['assign', { user: 2147483647 }],
      ['assign', { extra: 1 }],
      ['decision', { decision: 'approve\u0000' }],
      ['decision', { decision: 'bless' }],
      ['decision', {}],
      ['decision', { decision: 'reject', reason_code: 'document_forged\u0000' }],
      ['decision', { decision: 'reject', reason_code: 'Document Forged' }],
      ['decision', { decision: 'reject', reason_code: 'x'.repeat(41) }],
      ['decision', { decision: 'reject', reason_code: 'document_forged', note: 'bad\u0000note' }],
      ['decision', { decision: 'reject', reason_code: 'document_forged', note: 'x'.repeat(1001) }],
      ['snooze', { until: '2026-02-30T10:00:00Z' }],
      ['snooze', { until: '2026-13-01T10:00:00Z' }],
      ['snooze', { until: 'tomorrow' }],
      ['snooze', { until: '+275760-09-13T00:00:00Z' }],
      ['snooze', { until: new Date(Date.now() + 400 * DAY_MS).toISOString() }],
      ['snooze', {}],
      ['return', { note: 'short' }],
      ['return', { note: 'x'.repeat(1001) }],
      ['decision', '{"decision":"approve"'],
      ['decision', '[]'],
    ];
    for (const [action, body] of bodies) {
      const answer = await call('POST', url(action), tokens.admin, body);
      expect(answer.status, `${action} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, `${action} ${JSON.stringify(body)}`).toBeLessThan(500);
      expect(answer.body.detail, `${action} ${JSON.stringify(body)}`).toEqual(expect.any(String));
    }
    const queries = [
      'queue=0',
      `queue=${2 ** 53}`,
      'assignee=-1',
      'view=everything',
      'due_before=2026-02-30T00:00:00Z',
      'due_before=yesterday',
      'limit=0',
      'limit=201',
      'offset=-1',
      'state=closed',
      'unknown=1',
    ];
    for (const query of queries) {
      const answer = await call('GET', `/api/v2/review/cases?${query}`, tokens.admin);
      expect(answer.status, query).toBe(400);
      expect(answer.body.detail, query).toEqual(expect.any(String));
    }
    const codeBodies: unknown[] = [
      { codes: [{ decision: 'reject', code: 'a\u0000', label_en: 'A', label_tr: 'A' }] },
      { codes: [{ decision: 'approve', code: 'a', label_en: 'A', label_tr: 'A' }] },
      { codes: [{ decision: 'reject', code: 'a', label_en: '', label_tr: 'A' }] },
      { codes: [{ decision: 'reject', code: 'a', label_en: 'x'.repeat(201), label_tr: 'A' }] },
      {
        codes: [
          { decision: 'reject', code: 'a', label_en: 'A', label_tr: 'A' },
          { decision: 'reject', code: 'a', label_en: 'B', label_tr: 'B' },
        ],
      },
      {
        codes: Array.from({ length: 101 }, (_, i) => ({
          decision: 'abort',
          code: `c${i}`,
          label_en: 'A',
          label_tr: 'A',
        })),
      },
      { codes: 'all' },
    ];
    for (const body of codeBodies) {
      const answer = await call('PUT', '/api/v2/review/reason_codes', tokens.admin, body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body.detail).toEqual(expect.any(String));
    }
    for (const body of [{ approve_high_risk: 'yes' }, { every_approval: true }, {}]) {
      const answer = await call('PUT', '/api/v2/review/rules', tokens.admin, body);
      expect(answer.status).toBe(400);
    }
    const [queue] = (await call('GET', '/api/v2/review/queues', tokens.admin)).body as unknown as {
      id: number;
    }[];
    for (const body of [
      { sla_hours: 0 },
      { sla_hours: 8761 },
      { sla_hours: 2 ** 53 },
      { sla_hours: 1.5 },
      { senior: true },
    ]) {
      const answer = await call('PUT', `/api/v2/review/queues/${queue?.id}`, tokens.admin, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    expect((await call('PUT', `/api/v2/review/queues/${2 ** 53}`, tokens.admin, {})).status).toBe(400);
    for (const body of [{ capacity: -1 }, { capacity: 1001 }, { capacity: 2 ** 53 }, { away: 'no' }]) {
      const answer = await call('PUT', `/api/v2/review/reviewers/${ids.agent}`, tokens.admin, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    expect(await snapshot()).toEqual(before);
    // Decided cases stay decided: no case of the company changed state meanwhile.
    const decided = await t.app.ctx.db
      .select({ id: reviewCases.id })
      .from(reviewCases)
      .where(and(eq(reviewCases.companyId, 1), ne(reviewCases.state, 'open')));
    expect(decided.length).toBe(before.cases.filter((c) => c.companyId === 1 && c.state !== 'open').length);
  });
});
