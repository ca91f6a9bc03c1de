/**
 * Four-eyes on every path that changes a profile's status. The review desk, the status route (the studio's
 * status menu and the API user both use it) and any future writer go through profileWrites.changeStatus, whose
 * gate holds a change the company's rules catch for a second reviewer, or refuses it. Acme's demo rule: approving
 * a High or Very High risk profile needs a second reviewer. Nobody approves such a profile alone, by any path; a
 * second reviewer confirming approves it; profiles no rule catches change at once.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileStatus } from '#contract/common';
import type { FourEyesRefusal, StatusChangeHeld } from '#contract/profileWrites';
import { REVIEW_DETAILS, type ReviewCase, type ReviewCaseDetail } from '#contract/review';
import { profiles, reviewCases, reviewPendingDecisions, webhookMessages } from '../../server/db/schema';
import { changeStatus } from '../../server/domain/profileWrites';
import type { ReviewedDecision } from '../../server/domain/review/fourEyes';
import { HttpError } from '../../server/errors';
import { bearer, PASSWORDS, startTestApp, type TestApp, tokenFor, userId } from '../server/helpers';

let t: TestApp;
const tokens = { admin: '', agent: '', reviewer: '', api: '' };
const ids = { admin: 0, agent: 0, reviewer: 0, api: 0 };

beforeAll(async () => {
  t = await startTestApp();
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.reviewer = await tokenFor(t.app, 'reviewer@acme.test', PASSWORDS.user);
  tokens.api = await tokenFor(t.app, 'api@acme.test', PASSWORDS.api);
  ids.admin = await userId(t.app, 'admin@acme.test');
  ids.agent = await userId(t.app, 'agent@acme.test');
  ids.reviewer = await userId(t.app, 'reviewer@acme.test');
  ids.api = await userId(t.app, 'api@acme.test');
}, 180_000);
afterAll(async () => {
  await t.close();
});

const db = () => t.app.ctx.db;

async function call<T = Record<string, unknown>>(
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  token: string,
  payload?: unknown,
) {
  const response = await t.app.inject({
    method,
    url: `/api/v2${url}`,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: response.statusCode, body: response.json() as T };
}

const setStatus = (profileId: number, status: ProfileStatus, token: string, reject_reason?: string) =>
  call<StatusChangeHeld & FourEyesRefusal & { result: boolean }>(
    'PATCH',
    `/profile/${profileId}/status`,
    token,
    reject_reason ? { status, reject_reason } : { status },
  );

let seq = 0;
/**
 * A new Acme profile with a risk level; `withCase`: set to Pending Review through the route (its case opens),
 * otherwise put straight into Pending Approval with no case at all.
 */
async function profile(
  risk: string,
  withCase: boolean,
): Promise<{ profileId: number; caseId: number | null }> {
  const created = await call<{ id: number }>('POST', '/profile', tokens.admin, {
    id_card_number: `FE-${Date.now()}-${++seq}`,
    name: `Four Eyes ${seq}`,
  });
  expect(created.status).toBe(201);
  const profileId = created.body.id;
  await db().update(profiles).set({ riskLevel: risk }).where(eq(profiles.id, profileId));
  if (!withCase) {
    await db().update(profiles).set({ status: 'Pending Approval' }).where(eq(profiles.id, profileId));
    return { profileId, caseId: null };
  }
  expect((await setStatus(profileId, 'Pending Review', tokens.admin)).body).toMatchObject({ result: true });
  const [row] = await db().select().from(reviewCases).where(eq(reviewCases.profileId, profileId));
  return { profileId, caseId: row?.id ?? null };
}

const statusOf = async (profileId: number) =>
  (await db().select({ status: profiles.status }).from(profiles).where(eq(profiles.id, profileId)))[0]
    ?.status;
const casesOf = (profileId: number) =>
  db().select().from(reviewCases).where(eq(reviewCases.profileId, profileId)).orderBy(reviewCases.id);
const pendingOf = async (caseId: number) =>
  (
    await db()
      .select()
      .from(reviewPendingDecisions)
      .where(and(eq(reviewPendingDecisions.caseId, caseId), isNull(reviewPendingDecisions.outcome)))
  )[0];

/** A reviewer takes the case and approves it on the desk: it waits for a second review. */
async function deskApproval(caseId: number, token: string) {
  expect((await call('POST', `/review/cases/${caseId}/assign`, token, {})).status).toBe(200);
  const decided = await call('POST', `/review/cases/${caseId}/decision`, token, { decision: 'approve' });
  expect(decided.body).toMatchObject({ second_review_required: true, rules: ['approve_high_risk'] });
}

describe('a decision already waiting for its second review', () => {
  it('its maker, an agent, the API user and an Admin cannot change the status by the route (409 naming it)', async () => {
    const { profileId, caseId } = await profile('High', true);
    if (caseId === null) throw new Error('no case');
    await deskApproval(caseId, tokens.reviewer);
    expect((await call('POST', `/review/cases/${caseId}/confirm`, tokens.reviewer, {})).status).toBe(403);
    for (const token of [tokens.reviewer, tokens.agent, tokens.api, tokens.admin]) {
      for (const status of ['Approved', 'Temporarily Approved', 'Pending Approval'] as const) {
        const answer = await setStatus(profileId, status, token);
        expect(answer.status, status).toBe(409);
        expect(answer.body).toEqual({
          detail: `${REVIEW_DETAILS.decisionWaits} (four-eyes: approve_high_risk)`,
          reason: 'decision_waits',
          rules: ['approve_high_risk'],
          case: caseId,
        });
      }
      expect((await setStatus(profileId, 'Rejected', token, 'Looks like a forgery')).status).toBe(409);
    }
    expect(await statusOf(profileId)).toBe('Pending Review');
    expect((await casesOf(profileId)).map((c) => c.state)).toEqual(['awaiting_second_review']);
    // The pending decision decides: a second reviewer confirms it, and the profile is Approved.
    const confirmed = await call<ReviewCase>('POST', `/review/cases/${caseId}/confirm`, tokens.admin, {});
    expect(confirmed.status).toBe(200);
    expect(await statusOf(profileId)).toBe('Approved');
  });
});

describe('the status route holds a change the rules catch', () => {
  it("joins the High profile's open case as the agent's pending decision; only a second reviewer approves it", async () => {
    const { profileId, caseId } = await profile('High', true);
    const answer = await setStatus(profileId, 'Approved', tokens.agent);
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({
      result: false,
      status: 'Pending Review',
      detail: `${REVIEW_DETAILS.changeWaits} (four-eyes: approve_high_risk)`,
      second_review: { case: caseId, decision: 'approve', rules: ['approve_high_risk'] },
    });
    expect(await statusOf(profileId)).toBe('Pending Review');
    const cases = await casesOf(profileId);
    expect(cases.map((c) => [c.id, c.state])).toEqual([[caseId, 'awaiting_second_review']]);
    expect(await pendingOf(caseId ?? 0)).toMatchObject({
      makerId: ids.agent,
      decision: 'approve',
      rules: ['approve_high_risk'],
    });
    // The desk shows it as any pending decision, and review.requested tells the company's systems.
    const detail = await call<ReviewCaseDetail>('GET', `/review/cases/${caseId}`, tokens.reviewer);
    expect(detail.body).toMatchObject({
      state: 'awaiting_second_review',
      pending: { maker: ids.agent, decision: 'approve', rules: ['approve_high_risk'] },
    });
    expect(detail.body.timeline.at(-1)).toMatchObject({ kind: 'decision_pending', actor: ids.agent });
    const requested = await db()
      .select({ body: webhookMessages.body })
      .from(webhookMessages)
      .where(and(eq(webhookMessages.companyId, 1), eq(webhookMessages.eventType, 'review.requested')));
    expect(requested.map((r) => JSON.parse(r.body).data)).toContainEqual(
      expect.objectContaining({ case_id: caseId, maker: ids.agent, rules: ['approve_high_risk'] }),
    );
    // Asking again changes nothing; the agent (no second_review) cannot confirm their own change.
    expect((await setStatus(profileId, 'Approved', tokens.agent)).status).toBe(409);
    expect((await call('POST', `/review/cases/${caseId}/confirm`, tokens.agent, {})).status).toBe(403);
    expect(await statusOf(profileId)).toBe('Pending Review');
    const confirmed = await call('POST', `/review/cases/${caseId}/confirm`, tokens.reviewer, {});
    expect(confirmed.status).toBe(200);
    expect(await statusOf(profileId)).toBe('Approved');
    expect((await casesOf(profileId)).map((c) => c.state)).toEqual(['decided']);
  });

  it('opens a case for a Very High profile that has none; the API user cannot confirm, a reviewer can', async () => {
    const { profileId } = await profile('Very High', false);
    expect(await casesOf(profileId)).toEqual([]);
    const answer = await setStatus(profileId, 'Approved', tokens.api);
    expect(answer.status).toBe(202);
    expect(answer.body.status).toBe('Pending Approval');
    const [opened] = await casesOf(profileId);
    expect(opened).toMatchObject({ kind: 'pending_review', state: 'awaiting_second_review' });
    expect(answer.body.second_review).toEqual({
      case: opened?.id,
      decision: 'approve',
      rules: ['approve_high_risk'],
    });
    expect(await pendingOf(opened?.id ?? 0)).toMatchObject({ makerId: ids.api });
    expect((await call('POST', `/review/cases/${opened?.id}/confirm`, tokens.api, {})).status).toBe(403);
    expect(await statusOf(profileId)).toBe('Pending Approval');
    expect((await call('POST', `/review/cases/${opened?.id}/confirm`, tokens.reviewer, {})).status).toBe(200);
    expect(await statusOf(profileId)).toBe('Approved');
  });

  it('a returned change goes back to its maker; the profile stays as it was', async () => {
    const { profileId, caseId } = await profile('High', true);
    expect((await setStatus(profileId, 'Approved', tokens.reviewer)).status).toBe(202);
    // The maker cannot be the checker, even with second_review.
    expect(await call('POST', `/review/cases/${caseId}/confirm`, tokens.reviewer, {})).toEqual({
      status: 403,
      body: { detail: REVIEW_DETAILS.makerCannotCheck },
    });
    const returned = await call('POST', `/review/cases/${caseId}/return`, tokens.admin, {
      note: 'The proof of address is missing',
    });
    expect(returned.body).toMatchObject({ state: 'open' });
    expect(await statusOf(profileId)).toBe('Pending Review');
  });

  it('refuses a temporary approval the rules catch (409 naming the rule), and nothing is opened', async () => {
    for (const withCase of [true, false]) {
      const { profileId } = await profile('High', withCase);
      const before = await casesOf(profileId);
      const answer = await setStatus(profileId, 'Temporarily Approved', tokens.admin);
      expect(answer.status).toBe(409);
      expect(answer.body).toMatchObject({
        reason: 'cannot_wait',
        rules: ['approve_high_risk'],
        detail: `${REVIEW_DETAILS.cannotWait} (four-eyes: approve_high_risk)`,
      });
      expect(await casesOf(profileId)).toEqual(before);
      expect(await statusOf(profileId)).toBe(withCase ? 'Pending Review' : 'Pending Approval');
    }
  });
});

describe('changes no rule catches', () => {
  it('a Normal-risk approval and a High-risk rejection change at once (200), by any of them', async () => {
    for (const token of [tokens.agent, tokens.api, tokens.reviewer]) {
      const normal = await profile('Normal', true);
      expect((await setStatus(normal.profileId, 'Approved', token)).body).toEqual({
        result: true,
        status: 'Approved',
      });
      expect(await statusOf(normal.profileId)).toBe('Approved');
      const high = await profile('High', false);
      const rejected = await setStatus(high.profileId, 'Rejected', token, 'The selfie is of someone else');
      expect(rejected).toEqual({ status: 200, body: { result: true, status: 'Rejected' } });
    }
  });

  it('a transition the table refuses stays `result: false` (200), before any four-eyes question', async () => {
    const { profileId } = await profile('High', true);
    await db().update(profiles).set({ status: 'Created' }).where(eq(profiles.id, profileId));
    expect(await setStatus(profileId, 'Approved', tokens.agent)).toEqual({
      status: 200,
      body: { result: false, status: 'Created', detail: 'Status change failed' },
    });
  });
});

describe('the desk bypass', () => {
  it('a forged "reviewed" argument approves nothing the rules catch: the gate checks the stored confirmation', async () => {
    const { profileId, caseId } = await profile('High', true);
    if (caseId === null) throw new Error('no case');
    const forged = (pendingId: number | null) =>
      ({ caseId, kind: 'pending_review', pendingId }) as unknown as ReviewedDecision;
    const attempt = (pendingId: number | null, actorId = ids.agent) =>
      db().transaction((tx) =>
        changeStatus(
          tx,
          { userId: actorId, companyId: 1 },
          profileId,
          { status: 'Approved' },
          undefined,
          forged(pendingId),
        ),
      );
    await expect(attempt(null)).rejects.toMatchObject({ statusCode: 409 });
    // A pending decision not yet confirmed, and one confirmed by someone else, are no confirmation either.
    await deskApproval(caseId, tokens.agent);
    const pending = await pendingOf(caseId);
    await expect(attempt(pending?.id ?? 0, ids.reviewer)).rejects.toBeInstanceOf(HttpError);
    await expect(attempt(pending?.id ?? 0, ids.agent)).rejects.toMatchObject({
      statusCode: 409,
      extra: { reason: 'not_confirmed', rules: ['approve_high_risk'], case: caseId },
    });
    expect(await statusOf(profileId)).toBe('Pending Review');
  });

  it("only changeStatus writes a profile's status: no other server code sets it", () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (path.endsWith('.ts')) files.push(path);
      }
    };
    walk('server');
    const writers = new Set<string>();
    for (const file of files) {
      // The demo seed inserts profiles into an empty database; it changes no one's status.
      if (file.startsWith(join('server', 'db', 'seed'))) continue;
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(/\.update\(profiles\)([\s\S]*?)\.where\(/g))
        if (/\bstatus\s*:/.test(match[1] ?? '')) writers.add(file);
      if (/update\s+profiles\b[\s\S]{0,200}?\bset\b[^;]*\bstatus\s*=/i.test(source)) writers.add(file);
    }
    expect([...writers]).toEqual([join('server', 'domain', 'profileWrites.ts')]);
    const profileWrites = readFileSync(join('server', 'domain', 'profileWrites.ts'), 'utf8');
    const body = profileWrites.slice(profileWrites.indexOf('export async function changeStatus('));
    // The gate comes before the one UPDATE that sets the status.
    expect(body.indexOf('statusGate(')).toBeGreaterThan(0);
    expect(body.indexOf('statusGate(')).toBeLessThan(body.indexOf('.update(profiles)'));
  });
});
