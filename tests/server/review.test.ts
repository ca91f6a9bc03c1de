/**
 * The reviewers' desk on the server: cases opened where a decision is needed, take / assign /
 * unassign, Next case, four-eyes confirm and return, reason codes, escalation, waiting that stops the SLA
 * clock, auto-assignment within capacity, and the audit entries and webhooks of every step.
 */
import { and, desc, eq, inArray, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DecisionAnswer, ReviewCase, ReviewCaseDetail, ReviewQueue } from '#contract/review';
import { REVIEW_DETAILS } from '#contract/review';
import { HOUR_MS } from '#contract/time';
import {
  auditLog,
  documentTypes,
  profiles,
  reviewCases,
  reviewerSettings,
  reviewPendingDecisions,
  reviewQueues,
  webhookMessages,
} from '../../server/db/schema';
import { autoAssign } from '../../server/domain/review/assign';
import {
  bearer,
  get,
  PASSWORDS,
  post,
  startTestApp,
  TEST_JPEG,
  type TestApp,
  talkingCall,
  tokenFor,
  userId,
} from './helpers';

let t: TestApp;
const tokens = { admin: '', agent: '', reviewer: '' };
const ids = { admin: 0, agent: 0, reviewer: 0 };

beforeAll(async () => {
  t = await startTestApp();
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.reviewer = await tokenFor(t.app, 'reviewer@acme.test', PASSWORDS.user);
  ids.admin = await userId(t.app, 'admin@acme.test');
  ids.agent = await userId(t.app, 'agent@acme.test');
  ids.reviewer = await userId(t.app, 'reviewer@acme.test');
}, 180_000);
afterAll(async () => {
  await t.close();
});

const db = () => t.app.ctx.db;
const send = async <T = ReviewCase>(
  method: 'PUT' | 'PATCH',
  url: string,
  token: string,
  payload: unknown,
) => {
  const response = await t.app.inject({ method, url, payload: payload as object, headers: bearer(token) });
  return { status: response.statusCode, body: response.json() as T & { detail?: string } };
};
const caseUrl = (id: number, action = '') => `/api/v2/review/cases/${id}${action ? `/${action}` : ''}`;

let seq = 0;
/** A new Acme profile set to Pending Review (its pending_review case opens), with the given risk level. */
async function pendingProfile(risk = 'Normal'): Promise<{ profileId: number; caseId: number }> {
  const created = await post<{ id: number }>(
    t.app,
    '/api/v2/profile',
    { id_card_number: `REV-${Date.now()}-${++seq}`, name: `Review Person ${seq}` },
    tokens.admin,
  );
  expect(created.status).toBe(201);
  const profileId = created.body.id;
  await db().update(profiles).set({ riskLevel: risk }).where(eq(profiles.id, profileId));
  const changed = await send('PATCH', `/api/v2/profile/${profileId}/status`, tokens.admin, {
    status: 'Pending Review',
  });
  expect(changed.body).toMatchObject({ result: true });
  const [row] = await db()
    .select()
    .from(reviewCases)
    .where(and(eq(reviewCases.profileId, profileId), eq(reviewCases.kind, 'pending_review')));
  if (!row) throw new Error('no case opened');
  return { profileId, caseId: row.id };
}

const caseRow = async (id: number) =>
  (await db().select().from(reviewCases).where(eq(reviewCases.id, id)))[0];
const profileStatus = async (id: number) =>
  (await db().select({ status: profiles.status }).from(profiles).where(eq(profiles.id, id)))[0]?.status;
const audits = (caseId: number) =>
  db()
    .select({ action: auditLog.action, actor: auditLog.actorId })
    .from(auditLog)
    .where(and(eq(auditLog.objectType, 'review_case'), eq(auditLog.objectId, String(caseId))))
    .orderBy(auditLog.id);
async function webhooks(type: string, caseId: number) {
  const rows = await db()
    .select({ body: webhookMessages.body })
    .from(webhookMessages)
    .where(and(eq(webhookMessages.companyId, 1), eq(webhookMessages.eventType, type)))
    .orderBy(desc(webhookMessages.id));
  return rows
    .map((r) => JSON.parse(r.body) as { data: Record<string, unknown> })
    .filter((m) => m.data.case_id === caseId)
    .map((m) => m.data);
}

describe('the demo desk', () => {
  it('has the default queues with a few hundred open Acme cases, and the demo four-eyes rule', async () => {
    const queues = await get<ReviewQueue[]>(t.app, '/api/v2/review/queues', tokens.agent);
    expect(queues.status).toBe(200);
    expect(queues.body.map((q) => [q.name, q.senior])).toEqual([
      ['Identity', false],
      ['AML', false],
      ['Escalations', true],
    ]);
    const open = queues.body.reduce((sum, q) => sum + q.open, 0);
    expect(open).toBeGreaterThanOrEqual(300);
    expect(queues.body.some((q) => q.overdue > 0)).toBe(true);
    const rules = await get(t.app, '/api/v2/review/rules', tokens.admin);
    expect(rules.body).toEqual({
      approve_high_risk: true,
      approve_after_failed_step: false,
      override_aml_hit: false,
      every_approval: false,
    });
    const list = await get<{ count: number; results: ReviewCase[] }>(
      t.app,
      '/api/v2/review/cases?view=awaiting_second_review',
      tokens.agent,
    );
    expect(list.body.count).toBeGreaterThan(0);
    expect(list.body.results.every((c) => c.state === 'awaiting_second_review')).toBe(true);
    // Globex has its own default queues and no cases.
    const globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
    const theirs = await get<ReviewQueue[]>(t.app, '/api/v2/review/queues', globex);
    expect(theirs.body.map((q) => q.open)).toEqual([0, 0, 0]);
  });

  it('lists soonest due first and filters by view, queue, assignee and due_before', async () => {
    const all = await get<{ count: number; results: ReviewCase[] }>(
      t.app,
      '/api/v2/review/cases?limit=50',
      tokens.agent,
    );
    const dues = all.body.results.map((c) => c.due_at);
    expect(dues).toEqual([...dues].sort());
    expect(all.body.results.every((c) => c.state !== 'decided')).toBe(true);
    const overdue = await get<{ results: ReviewCase[] }>(
      t.app,
      '/api/v2/review/cases?view=overdue',
      tokens.agent,
    );
    expect(overdue.body.results.length).toBeGreaterThan(0);
    expect(overdue.body.results.every((c) => c.overdue)).toBe(true);
    const aml = (await get<ReviewQueue[]>(t.app, '/api/v2/review/queues', tokens.agent)).body.find(
      (q) => q.name === 'AML',
    ) as ReviewQueue;
    const inAml = await get<{ count: number; results: ReviewCase[] }>(
      t.app,
      `/api/v2/review/cases?queue=${aml.id}&limit=200`,
      tokens.agent,
    );
    expect(inAml.body.count).toBe(aml.open);
    expect(inAml.body.results.every((c) => c.kind === 'aml_hit' && c.queue_name === 'AML')).toBe(true);
    const mine = await get<{ results: ReviewCase[] }>(
      t.app,
      `/api/v2/review/cases?assignee=${ids.agent}`,
      tokens.admin,
    );
    expect(mine.body.results.every((c) => c.assignee === ids.agent)).toBe(true);
    const before = new Date(Date.now() + HOUR_MS).toISOString();
    const soon = await get<{ results: ReviewCase[] }>(
      t.app,
      `/api/v2/review/cases?due_before=${encodeURIComponent(before)}`,
      tokens.agent,
    );
    expect(soon.body.results.every((c) => c.due_at < before)).toBe(true);
  });
});

describe('cases open where a decision is needed', () => {
  it('a profile set to Pending Review opens one case (a second time, still one), audited', async () => {
    const { profileId, caseId } = await pendingProfile();
    const detail = await get<ReviewCaseDetail>(t.app, caseUrl(caseId), tokens.agent);
    expect(detail.body).toMatchObject({ kind: 'pending_review', state: 'open', queue_name: 'Identity' });
    expect(detail.body.timeline.map((e) => e.kind)).toEqual(['opened']);
    // Identity's SLA is 24 hours.
    const due = new Date(detail.body.due_at).getTime() - new Date(detail.body.created_at).getTime();
    expect(due).toBe(24 * HOUR_MS);
    await send('PATCH', `/api/v2/profile/${profileId}/status`, tokens.admin, { status: 'Incomplete' });
    await send('PATCH', `/api/v2/profile/${profileId}/status`, tokens.admin, { status: 'Pending Review' });
    const open = await db()
      .select()
      .from(reviewCases)
      .where(and(eq(reviewCases.profileId, profileId), ne(reviewCases.state, 'decided')));
    expect(open).toHaveLength(1);
    expect((await audits(caseId)).map((a) => a.action)).toEqual(['review_case_opened']);
  });

  it('an AML hit, a finished video call and an uploaded document open cases of their kinds', async () => {
    // Profile 26 bears a watchlisted name (the demo seed).
    expect((await get(t.app, '/api/v2/profile/26/aml/check', tokens.admin)).status).toBe(200);
    const kinds = async (profileId: number) =>
      (
        await db()
          .select({ kind: reviewCases.kind, queue: reviewQueues.name })
          .from(reviewCases)
          .innerJoin(reviewQueues, eq(reviewQueues.id, reviewCases.queueId))
          .where(and(eq(reviewCases.profileId, profileId), ne(reviewCases.state, 'decided')))
      ).map((r) => `${r.kind}@${r.queue}`);
    expect(await kinds(26)).toContain('aml_hit@AML');

    const { profileId } = await pendingProfile();
    const call = await talkingCall(t.app, ids.agent, profileId);
    const ended = await send('PUT', `/api/v2/videocall/${call.callId}`, tokens.agent, { status: 3 });
    expect(ended.status).toBe(200);
    expect(await kinds(profileId)).toContain('video_identification@Identity');

    const form = new FormData();
    form.append('profile', String(profileId));
    const [type] = await db()
      .select({ id: documentTypes.id })
      .from(documentTypes)
      .where(eq(documentTypes.documentClass, 'PA'));
    form.append('type', String(type?.id));
    form.append('upload_source', 'studio');
    form.append('pages', new Blob([new Uint8Array(TEST_JPEG)], { type: 'image/jpeg' }), 'front.jpg');
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/v2/document',
      payload: form,
      headers: bearer(tokens.agent),
    });
    expect(uploaded.statusCode).toBe(201);
    expect(await kinds(profileId)).toContain('document_review@Identity');
  });
});

describe('take, assign and unassign', () => {
  it('takes a case, refuses another reviewer taking it, lets an Admin reassign, and unassigns', async () => {
    const { caseId } = await pendingProfile();
    const taken = await post<ReviewCase>(t.app, caseUrl(caseId, 'assign'), {}, tokens.agent);
    expect(taken.status).toBe(200);
    expect(taken.body).toMatchObject({ assignee: ids.agent, assignee_name: 'Umut Agent' });
    expect(await post(t.app, caseUrl(caseId, 'assign'), {}, tokens.reviewer)).toEqual({
      status: 409,
      body: { detail: REVIEW_DETAILS.takenByOther },
      headers: expect.anything(),
    });
    const moved = await post<ReviewCase>(
      t.app,
      caseUrl(caseId, 'assign'),
      { user: ids.reviewer },
      tokens.admin,
    );
    expect(moved.body.assignee).toBe(ids.reviewer);
    // The former assignee may no longer unassign it; the assignee may.
    expect((await post(t.app, caseUrl(caseId, 'unassign'), {}, tokens.agent)).status).toBe(403);
    const freed = await post<ReviewCase>(t.app, caseUrl(caseId, 'unassign'), {}, tokens.reviewer);
    expect(freed.body.assignee).toBeNull();
    // A user without review_profiles cannot be given a case.
    const viewer = await userId(t.app, 'viewer@acme.test');
    const refused = await post(t.app, caseUrl(caseId, 'assign'), { user: viewer }, tokens.admin);
    expect(refused).toMatchObject({ status: 400, body: { detail: REVIEW_DETAILS.notEligible } });
    expect((await caseRow(caseId))?.assigneeId).toBeNull();
    expect((await audits(caseId)).map((a) => [a.action, a.actor])).toEqual([
      ['review_case_opened', ids.admin],
      ['review_case_assigned', ids.agent],
      ['review_case_assigned', ids.admin],
      ['review_case_unassigned', ids.reviewer],
    ]);
    const detail = await get<ReviewCaseDetail>(t.app, caseUrl(caseId), tokens.agent);
    expect(detail.body.timeline.map((e) => e.kind)).toEqual(['opened', 'assigned', 'assigned', 'unassigned']);
  });
});

describe('Next case', () => {
  it('assigns the oldest due unassigned case of my queues, a different one each time', async () => {
    const identity = (await get<ReviewQueue[]>(t.app, '/api/v2/review/queues', tokens.agent)).body;
    const ordinary = identity.filter((q) => !q.senior).map((q) => q.id);
    const [expected] = await db()
      .select()
      .from(reviewCases)
      .where(
        and(
          eq(reviewCases.companyId, 1),
          inArray(reviewCases.state, ['open', 'escalated']),
          inArray(reviewCases.queueId, ordinary),
        ),
      )
      .orderBy(reviewCases.dueAt, reviewCases.id)
      .then((rows) => rows.filter((r) => r.assigneeId === null));
    // GET shows the case the press would take, and takes nothing: asked twice, the same unassigned case.
    const peek = await get<ReviewCase>(t.app, '/api/v2/review/next', tokens.agent);
    expect(peek.status).toBe(200);
    expect(peek.body).toMatchObject({ id: expected?.id, assignee: null });
    expect((await get<ReviewCase>(t.app, '/api/v2/review/next', tokens.agent)).body.id).toBe(expected?.id);
    const first = await post<ReviewCase>(t.app, '/api/v2/review/next', undefined, tokens.agent);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: expected?.id, assignee: ids.agent });
    // Taken: the next peek shows the following one.
    expect((await get<ReviewCase>(t.app, '/api/v2/review/next', tokens.agent)).body.id).not.toBe(
      first.body.id,
    );
    const second = await post<ReviewCase>(t.app, '/api/v2/review/next', undefined, tokens.agent);
    expect(second.body.id).not.toBe(first.body.id);
    expect(second.body.due_at >= first.body.due_at).toBe(true);
    const timeline = await get<ReviewCaseDetail>(t.app, caseUrl(first.body.id), tokens.agent);
    expect(timeline.body.timeline.at(-1)).toMatchObject({
      kind: 'assigned',
      actor: ids.agent,
      data: { how: 'next' },
    });
  });
});

describe('decisions and four-eyes', () => {
  it('a normal-risk approval is decided at once: the profile is Approved, review.decided is sent', async () => {
    const { profileId, caseId } = await pendingProfile('Normal');
    await post(t.app, caseUrl(caseId, 'assign'), {}, tokens.agent);
    const answer = await post<DecisionAnswer>(
      t.app,
      caseUrl(caseId, 'decision'),
      { decision: 'approve' },
      tokens.agent,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      second_review_required: false,
      rules: [],
      case: { state: 'decided' },
    });
    expect(await profileStatus(profileId)).toBe('Approved');
    expect(await webhooks('review.decided', caseId)).toEqual([
      expect.objectContaining({ decision: 'approve', second_review: false, decided_by: ids.agent }),
    ]);
    expect((await audits(caseId)).map((a) => a.action)).toContain('review_case_decided');
  });

  it('a High-risk approval waits for a second reviewer, who confirms it; only then is the profile Approved', async () => {
    const { profileId, caseId } = await pendingProfile('High');
    await post(t.app, caseUrl(caseId, 'assign'), {}, tokens.agent);
    const answer = await post<DecisionAnswer>(
      t.app,
      caseUrl(caseId, 'decision'),
      { decision: 'approve', note: 'Documents and call are fine' },
      tokens.agent,
    );
    expect(answer.body).toMatchObject({
      second_review_required: true,
      rules: ['approve_high_risk'],
      case: { state: 'awaiting_second_review' },
    });
    expect(await profileStatus(profileId)).toBe('Pending Review');
    expect(await webhooks('review.requested', caseId)).toEqual([
      expect.objectContaining({ decision: 'approve', maker: ids.agent, rules: ['approve_high_risk'] }),
    ]);
    // The maker decides nothing more meanwhile; a user without second_review cannot confirm.
    expect(
      (await post(t.app, caseUrl(caseId, 'decision'), { decision: 'approve' }, tokens.agent)).status,
    ).toBe(409);
    expect((await post(t.app, caseUrl(caseId, 'confirm'), {}, tokens.agent)).status).toBe(403);
    const detail = await get<ReviewCaseDetail>(t.app, caseUrl(caseId), tokens.reviewer);
    expect(detail.body.pending).toMatchObject({
      maker: ids.agent,
      decision: 'approve',
      rules: ['approve_high_risk'],
    });
    const confirmed = await post<ReviewCase>(t.app, caseUrl(caseId, 'confirm'), {}, tokens.reviewer);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ state: 'decided', decision: 'approve' });
    expect(await profileStatus(profileId)).toBe('Approved');
    expect(await webhooks('review.decided', caseId)).toEqual([
      expect.objectContaining({ second_review: true, maker: ids.agent, decided_by: ids.reviewer }),
    ]);
    expect((await audits(caseId)).map((a) => [a.action, a.actor]).slice(-2)).toEqual([
      ['review_decision_pending', ids.agent],
      ['review_decision_confirmed', ids.reviewer],
    ]);
  });

  it('the maker cannot confirm their own decision, even as an Admin', async () => {
    const { profileId, caseId } = await pendingProfile('Very High');
    const made = await post<DecisionAnswer>(
      t.app,
      caseUrl(caseId, 'decision'),
      { decision: 'approve' },
      tokens.admin,
    );
    expect(made.body.second_review_required).toBe(true);
    expect(await post(t.app, caseUrl(caseId, 'confirm'), {}, tokens.admin)).toMatchObject({
      status: 403,
      body: { detail: REVIEW_DETAILS.makerCannotCheck },
    });
    expect(await profileStatus(profileId)).toBe('Pending Review');
    expect((await caseRow(caseId))?.state).toBe('awaiting_second_review');
  });

  it('a second reviewer returns the decision with a note: the case runs again, the profile is unchanged', async () => {
    const { profileId, caseId } = await pendingProfile('High');
    await post(t.app, caseUrl(caseId, 'assign'), {}, tokens.agent);
    await post(t.app, caseUrl(caseId, 'decision'), { decision: 'approve' }, tokens.agent);
    const short = await post(t.app, caseUrl(caseId, 'return'), { note: 'no' }, tokens.reviewer);
    expect(short.status).toBe(400);
    const returned = await post<ReviewCase>(
      t.app,
      caseUrl(caseId, 'return'),
      { note: 'The selfie does not match the passport photo' },
      tokens.reviewer,
    );
    expect(returned.body).toMatchObject({ state: 'open', assignee: ids.agent });
    expect(await profileStatus(profileId)).toBe('Pending Review');
    const [pending] = await db()
      .select()
      .from(reviewPendingDecisions)
      .where(eq(reviewPendingDecisions.caseId, caseId));
    expect(pending).toMatchObject({ outcome: 'returned', resolvedBy: ids.reviewer });
    expect((await post(t.app, caseUrl(caseId, 'confirm'), {}, tokens.reviewer)).status).toBe(409);
    const detail = await get<ReviewCaseDetail>(t.app, caseUrl(caseId), tokens.agent);
    expect(detail.body.pending).toBeNull();
    expect(detail.body.timeline.at(-1)).toMatchObject({
      kind: 'returned',
      data: { note: 'The selfie does not match the passport photo' },
    });
    expect(await webhooks('review.decided', caseId)).toEqual([]);
  });

  it('only the assignee or an Admin decides', async () => {
    const { profileId, caseId } = await pendingProfile();
    await post(t.app, caseUrl(caseId, 'assign'), {}, tokens.agent);
    expect(
      await post(t.app, caseUrl(caseId, 'decision'), { decision: 'approve' }, tokens.reviewer),
    ).toMatchObject({
      status: 403,
      body: { detail: REVIEW_DETAILS.notAssignee },
    });
    expect(await profileStatus(profileId)).toBe('Pending Review');
    const byAdmin = await post<DecisionAnswer>(
      t.app,
      caseUrl(caseId, 'decision'),
      { decision: 'approve' },
      tokens.admin,
    );
    expect(byAdmin.body.case.state).toBe('decided');
  });
});

describe('reason codes', () => {
  it('are required where configured, checked against the list, and a code may need a note', async () => {
    const { profileId, caseId } = await pendingProfile();
    await post(t.app, caseUrl(caseId, 'assign'), {}, tokens.agent);
    const decide = (body: unknown) =>
      post<DecisionAnswer>(t.app, caseUrl(caseId, 'decision'), body, tokens.agent);
    expect(await decide({ decision: 'reject' })).toMatchObject({
      status: 400,
      body: { detail: REVIEW_DETAILS.reasonRequired },
    });
    expect(await decide({ decision: 'reject', reason_code: 'made_up' })).toMatchObject({
      status: 400,
      body: { detail: REVIEW_DETAILS.unknownReason },
    });
    expect(await decide({ decision: 'reject', reason_code: 'other' })).toMatchObject({
      status: 400,
      body: { detail: REVIEW_DETAILS.noteRequired },
    });
    expect(await profileStatus(profileId)).toBe('Pending Review');
    const done = await decide({ decision: 'reject', reason_code: 'document_forged' });
    expect(done.body.case).toMatchObject({
      state: 'decided',
      decision: 'reject',
      reason_code: 'document_forged',
    });
    // The code's label is the reject reason when no note is given.
    const [profile] = await db().select().from(profiles).where(eq(profiles.id, profileId));
    expect(profile).toMatchObject({ status: 'Rejected', rejectReason: 'Document looks forged' });
    expect(await webhooks('review.decided', caseId)).toEqual([
      expect.objectContaining({ decision: 'reject', reason_code: 'document_forged' }),
    ]);
  });

  it('Admins replace the list in both languages; a decision without codes needs none', async () => {
    const before = await get<{ codes: unknown[] }>(t.app, '/api/v2/review/reason_codes', tokens.agent);
    expect(before.body.codes.length).toBeGreaterThan(0);
    expect((await send('PUT', '/api/v2/review/reason_codes', tokens.agent, { codes: [] })).status).toBe(403);
    const codes = [
      {
        decision: 'abort',
        code: 'test_only',
        label_en: 'Test only',
        label_tr: 'Yalnızca test',
        note_required: false,
      },
    ];
    const saved = await send<{ codes: unknown[] }>('PUT', '/api/v2/review/reason_codes', tokens.admin, {
      codes,
    });
    expect(saved.body.codes).toEqual(codes);
    const { profileId, caseId } = await pendingProfile();
    await post(t.app, caseUrl(caseId, 'assign'), {}, tokens.agent);
    const resubmit = await post<DecisionAnswer>(
      t.app,
      caseUrl(caseId, 'decision'),
      { decision: 'resubmit' },
      tokens.agent,
    );
    expect(resubmit.body.case.state).toBe('decided');
    expect(await profileStatus(profileId)).toBe('Pending Upload');
    await send('PUT', '/api/v2/review/reason_codes', tokens.admin, {
      codes: before.body.codes,
    });
    const entries = await db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'review_reason_codes_changed'));
    expect(entries).toHaveLength(2);
  });
});

describe('escalation and waiting', () => {
  it('escalates to the senior queue with a note: unassigned, due by its SLA, only seniors may take it', async () => {
    const { caseId } = await pendingProfile();
    await post(t.app, caseUrl(caseId, 'assign'), {}, tokens.agent);
    const noNote = await post(
      t.app,
      caseUrl(caseId, 'decision'),
      { decision: 'escalate', reason_code: 'possible_fraud' },
      tokens.agent,
    );
    expect(noNote).toMatchObject({ status: 400, body: { detail: REVIEW_DETAILS.noteTooShort } });
    const escalated = await post<DecisionAnswer>(
      t.app,
      caseUrl(caseId, 'decision'),
      { decision: 'escalate', reason_code: 'possible_fraud', note: 'Two profiles share this device' },
      tokens.agent,
    );
    expect(escalated.body.case).toMatchObject({
      state: 'escalated',
      queue_name: 'Escalations',
      assignee: null,
    });
    const row = await caseRow(caseId);
    expect(Math.round(((row?.dueAt.getTime() ?? 0) - Date.now()) / HOUR_MS)).toBe(72);
    expect(await post(t.app, caseUrl(caseId, 'assign'), {}, tokens.agent)).toMatchObject({
      status: 400,
      body: { detail: REVIEW_DETAILS.notEligible },
    });
    expect((await post(t.app, caseUrl(caseId, 'assign'), {}, tokens.reviewer)).status).toBe(200);
    expect(
      await post(
        t.app,
        caseUrl(caseId, 'decision'),
        { decision: 'escalate', reason_code: 'possible_fraud', note: 'Escalating once more' },
        tokens.reviewer,
      ),
    ).toMatchObject({ status: 409, body: { detail: REVIEW_DETAILS.alreadySenior } });
    const listed = await get<{ results: ReviewCase[] }>(
      t.app,
      '/api/v2/review/cases?view=escalated&limit=200',
      tokens.agent,
    );
    expect(listed.body.results.some((c) => c.id === caseId)).toBe(true);
    expect((await audits(caseId)).map((a) => a.action)).toContain('review_case_escalated');
  });

  it('a snooze stops the SLA clock; when it ends the case is back with its due time moved on', async () => {
    const { caseId } = await pendingProfile();
    await post(t.app, caseUrl(caseId, 'assign'), {}, tokens.agent);
    const dueBefore = (await caseRow(caseId))?.dueAt.getTime() ?? 0;
    const past = await post(
      t.app,
      caseUrl(caseId, 'snooze'),
      { until: '2020-01-01T00:00:00Z' },
      tokens.agent,
    );
    expect(past).toMatchObject({ status: 400, body: { detail: REVIEW_DETAILS.snoozeInPast } });
    const until = new Date(Date.now() + HOUR_MS).toISOString();
    const snoozed = await post<ReviewCase>(t.app, caseUrl(caseId, 'snooze'), { until }, tokens.agent);
    expect(snoozed.body).toMatchObject({ state: 'snoozed', overdue: false });
    // Two hours pass, and the snooze has run out.
    const pausedAt = new Date(Date.now() - 2 * HOUR_MS);
    await db()
      .update(reviewCases)
      .set({ pausedAt, snoozedUntil: new Date(Date.now() - 1000) })
      .where(eq(reviewCases.id, caseId));
    const back = await get<ReviewCaseDetail>(t.app, caseUrl(caseId), tokens.agent);
    expect(back.body.state).toBe('open');
    const moved = new Date(back.body.due_at).getTime() - dueBefore;
    expect(moved).toBeGreaterThanOrEqual(2 * HOUR_MS);
    expect(moved).toBeLessThan(2 * HOUR_MS + 60_000);
    expect(back.body.timeline.at(-1)).toMatchObject({
      kind: 'resumed',
      actor: null,
      data: { why: 'snooze_ended' },
    });
  });

  it('awaiting the customer stops the clock until the customer acts again', async () => {
    const { profileId, caseId } = await pendingProfile();
    await post(t.app, caseUrl(caseId, 'assign'), {}, tokens.agent);
    const waiting = await post<ReviewCase>(t.app, caseUrl(caseId, 'await_customer'), {}, tokens.agent);
    expect(waiting.body.state).toBe('awaiting_customer');
    const waitingList = await get<{ results: ReviewCase[] }>(
      t.app,
      '/api/v2/review/cases?view=overdue&limit=200',
      tokens.agent,
    );
    expect(waitingList.body.results.some((c) => c.id === caseId)).toBe(false);
    await send('PATCH', `/api/v2/profile/${profileId}/status`, tokens.admin, { status: 'Incomplete' });
    await send('PATCH', `/api/v2/profile/${profileId}/status`, tokens.admin, { status: 'Pending Review' });
    const back = await get<ReviewCaseDetail>(t.app, caseUrl(caseId), tokens.agent);
    expect(back.body.state).toBe('open');
    expect(back.body.timeline.at(-1)).toMatchObject({ kind: 'resumed', data: { why: 'status_changed' } });
    expect((await post(t.app, caseUrl(caseId, 'resume'), {}, tokens.agent)).status).toBe(409);
  });
});

describe('auto-assignment', () => {
  it('goes to the least-loaded reviewer who is not away, never past capacity', async () => {
    const made: number[] = [];
    for (let i = 0; i < 6; i++) made.push((await pendingProfile()).caseId);
    const reviewers = (
      await get<{ user: number; load: number }[]>(t.app, '/api/v2/review/reviewers', tokens.admin)
    ).body;
    const loadOf = (id: number) => reviewers.find((r) => r.user === id)?.load ?? 0;
    // The agent may take two more, the reviewer one more; the Admin is away.
    expect(
      (
        await send('PUT', `/api/v2/review/reviewers/${ids.agent}`, tokens.admin, {
          capacity: loadOf(ids.agent) + 2,
        })
      ).status,
    ).toBe(200);
    await send('PUT', `/api/v2/review/reviewers/${ids.reviewer}`, tokens.admin, {
      capacity: loadOf(ids.reviewer) + 1,
    });
    expect(
      (await send('PUT', `/api/v2/review/reviewers/${ids.admin}`, tokens.admin, { away: true })).status,
    ).toBe(200);
    // A reviewer sets their own away status, not their capacity.
    expect(
      (await send('PUT', `/api/v2/review/reviewers/${ids.agent}`, tokens.agent, { capacity: 99 })).status,
    ).toBe(403);
    const assigned = await db().transaction((tx) => autoAssign(tx, 1, made));
    expect(assigned).toBe(3);
    const rows = await db().select().from(reviewCases).where(inArray(reviewCases.id, made));
    const count = (id: number | null) => rows.filter((r) => r.assigneeId === id).length;
    expect([count(ids.agent), count(ids.reviewer), count(ids.admin), count(null)]).toEqual([2, 1, 0, 3]);
    const after = (
      await get<{ user: number; load: number; capacity: number }[]>(
        t.app,
        '/api/v2/review/reviewers',
        tokens.admin,
      )
    ).body;
    for (const r of after.filter((x) => x.user !== ids.admin)) expect(r.load).toBeLessThanOrEqual(r.capacity);
    await db().delete(reviewerSettings);
  });
});

describe('queue settings', () => {
  it("an Admin sets a queue's SLA and auto-assignment; switching it on fills reviewers up to capacity", async () => {
    const queues = (await get<ReviewQueue[]>(t.app, '/api/v2/review/queues', tokens.admin)).body;
    const aml = queues.find((q) => q.name === 'AML') as ReviewQueue;
    const body = { sla_hours: 12, auto_assign: true };
    expect((await send('PUT', `/api/v2/review/queues/${aml.id}`, tokens.agent, body)).status).toBe(403);
    const saved = await send<ReviewQueue>('PUT', `/api/v2/review/queues/${aml.id}`, tokens.admin, body);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ id: aml.id, sla_hours: 12, auto_assign: true });
    const reviewers = (
      await get<{ user: number; load: number; capacity: number; away: boolean }[]>(
        t.app,
        '/api/v2/review/reviewers',
        tokens.admin,
      )
    ).body;
    for (const r of reviewers)
      expect(r.load, String(r.user)).toBeLessThanOrEqual(Math.max(r.capacity, r.load));
    const waiting = await db()
      .select({ id: reviewCases.id })
      .from(reviewCases)
      .where(
        and(
          eq(reviewCases.queueId, aml.id),
          inArray(reviewCases.state, ['open', 'escalated']),
          eq(reviewCases.companyId, 1),
        ),
      );
    const unassigned = await get<{ count: number }>(
      t.app,
      `/api/v2/review/cases?queue=${aml.id}&view=unassigned`,
      tokens.admin,
    );
    // Either every waiting AML case found a reviewer, or every reviewer is full.
    expect(unassigned.body.count === 0 || reviewers.every((r) => r.away || r.load >= r.capacity)).toBe(true);
    expect(waiting.length).toBeGreaterThan(0);
    const [entry] = await db().select().from(auditLog).where(eq(auditLog.action, 'review_queue_changed'));
    expect(entry?.after).toEqual({ sla_hours: 12, auto_assign: true });
  });
});
