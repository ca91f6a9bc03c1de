/**
 * Routes that do real work for whoever calls them answer 429 with `Retry-After` past their limits: passkey
 * challenges (per client address, and a ceiling for everybody), passkey sign-ins, evidence packages (per user and
 * per company) and reports and exports (per user and per company, shared by all of them). The limits are lowered
 * here; below them the same routes answer as usual, and a refused request does none of the work. So do the
 * routes that call an outside service for each request (summariser, AML screening, webhook test delivery).
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EVIDENCE_TOO_FAST,
  OUTSIDE_CALLS_TOO_FAST,
  PASSKEY_TOO_FAST,
  REPORTS_TOO_FAST,
  WHISPERS_TOO_FAST,
} from '#contract/rateLimits';
import type { ServerConfig } from '../../server/config';
import { auditLog, users, webauthnChallenges } from '../../server/db/schema';
import { endedCall } from '../server/endedCall';
import { bearer, get, PASSWORDS, startTestApp, type TestApp, tokenFor, userId } from '../server/helpers';

const LIMITS: ServerConfig['rateLimits'] = {
  passkeyOptions: [
    { per: 'address', points: 3, seconds: 60 },
    { per: 'all', points: 5, seconds: 300 },
  ],
  passkeySignIns: [{ per: 'address', points: 2, seconds: 60 }],
  evidencePackages: [
    { per: 'user', points: 2, seconds: 60 },
    { per: 'company', points: 3, seconds: 60 },
  ],
  reports: [
    { per: 'user', points: 2, seconds: 60 },
    { per: 'company', points: 4, seconds: 60 },
  ],
  outsideCalls: [
    { per: 'user', points: 1, seconds: 60 },
    { per: 'company', points: 3, seconds: 60 },
  ],
  whispers: [{ per: 'user', points: 2, seconds: 60 }],
};

let t: TestApp;
let origin: string;
const tokens = { admin: '', agent: '', api: '', globex: '' };
let callId = 0;

beforeAll(async () => {
  t = await startTestApp({ rateLimits: LIMITS });
  origin = new URL(t.config.secondRegionUrl).origin;
  [tokens.admin, tokens.agent, tokens.api, tokens.globex] = await Promise.all([
    tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin),
    tokenFor(t.app, 'agent@acme.test', PASSWORDS.user),
    tokenFor(t.app, 'api@acme.test', PASSWORDS.api),
    tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin),
  ]);
  callId = await endedCall(t.app, await userId(t.app, 'agent@acme.test'));
});
afterAll(async () => {
  await t?.close();
});

type Answer = Awaited<ReturnType<TestApp['app']['inject']>>;

/** A 429 with the route's detail, and the same wait (1 s up to the window) in the header and the body. */
function expectRefused(response: Answer, detail: string, windowSeconds: number) {
  expect(response.statusCode, response.body).toBe(429);
  const wait = Number(response.headers['retry-after']);
  expect(Number.isInteger(wait)).toBe(true);
  expect(wait).toBeGreaterThanOrEqual(1);
  expect(wait).toBeLessThanOrEqual(windowSeconds);
  expect(response.json()).toEqual({ detail, retry_after: wait });
}

const passkeyOptions = (remoteAddress: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/login/passkey/options',
    headers: { origin },
    remoteAddress,
  });

const loginChallenges = async () =>
  (await t.app.ctx.db.select().from(webauthnChallenges).where(eq(webauthnChallenges.purpose, 'login')))
    .length;

describe('passkey sign-in, without a token', () => {
  let before = 0;
  it('gives one client address 3 challenges a minute, then 429 with Retry-After; other addresses go on', async () => {
    before = await loginChallenges();
    for (let i = 0; i < 3; i++) expect((await passkeyOptions('203.0.113.7')).statusCode).toBe(200);
    expectRefused(await passkeyOptions('203.0.113.7'), PASSKEY_TOO_FAST, 60);
    expect((await passkeyOptions('203.0.113.8')).statusCode).toBe(200);
    // The refused request stored nothing.
    expect(await loginChallenges()).toBe(before + 4);
  });

  it('stores at most the ceiling of challenges from every address together', async () => {
    // 5 counted so far (4 answered, 1 refused): the next address is over the ceiling at once.
    const fresh = await passkeyOptions('198.51.100.1');
    expectRefused(fresh, PASSKEY_TOO_FAST, 300);
    expect(await loginChallenges()).toBe(before + 4);
  });

  it('checks 2 sign-ins a minute from one address, then 429 before the body is read', async () => {
    const signIn = (remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/login/passkey',
        headers: { origin },
        payload: { challenge_id: randomUUID() },
        remoteAddress,
      });
    for (let i = 0; i < 2; i++) expect((await signIn('203.0.113.9')).statusCode).toBe(400);
    expectRefused(await signIn('203.0.113.9'), PASSKEY_TOO_FAST, 60);
    expect((await signIn('203.0.113.10')).statusCode).toBe(400);
  });
});

describe('evidence packages', () => {
  const download = (token: string) =>
    t.app.inject({ method: 'GET', url: `/api/v2/videocall/${callId}/evidence`, headers: bearer(token) });
  const audited = async () =>
    (
      await t.app.ctx.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'evidence_downloaded'), eq(auditLog.objectId, String(callId))))
    ).length;

  it('builds 2 a minute for one user, then 429; the company ceiling stops a colleague; nothing refused is built', async () => {
    // The API user may download packages through a group, as a bank's archive would.
    const group = await t.app.inject({
      method: 'POST',
      url: '/api/v2/group',
      headers: bearer(tokens.admin),
      payload: { name: 'Evidence archive', permissions: ['download_evidence'] },
    });
    expect(group.statusCode, group.body).toBe(201);
    const apiId = (await t.app.ctx.db.select().from(users).where(eq(users.email, 'api@acme.test')))[0]?.id;
    const grant = await t.app.inject({
      method: 'PATCH',
      url: `/api/v2/user/${apiId}`,
      headers: bearer(tokens.admin),
      payload: { password: PASSWORDS.admin, groups: [group.json<{ id: number }>().id] },
    });
    expect(grant.statusCode, grant.body).toBe(200);

    for (let i = 0; i < 2; i++) expect((await download(tokens.admin)).statusCode).toBe(200);
    expectRefused(await download(tokens.admin), EVIDENCE_TOO_FAST, 60);
    // The company's fourth request in the minute: over its ceiling of 3, though the API user has asked for none.
    expectRefused(await download(tokens.api), EVIDENCE_TOO_FAST, 60);
    expect(await audited()).toBe(2);
    // Another company counts on its own: its admin is answered (404: the call is not theirs), not refused.
    expect((await download(tokens.globex)).statusCode).toBe(404);
  });
});

describe('reports and exports', () => {
  const reports = [
    '/api/v2/bitool',
    '/api/v2/videocall/report?start_date=2026-01-01&end_date=2026-01-31',
    '/api/v2/review/metrics',
    '/api/v2/review/metrics.csv',
  ];

  it('share one count per user (2 a minute) and per company (4 a minute) over every report route', async () => {
    expect((await get(t.app, reports[0] as string, tokens.agent)).status).toBe(200);
    expect((await get(t.app, reports[1] as string, tokens.agent)).status).toBe(200);
    for (const url of reports.slice(2))
      expectRefused(
        await t.app.inject({ method: 'GET', url, headers: bearer(tokens.agent) }),
        REPORTS_TOO_FAST,
        60,
      );
    // The agent's four count for the company: an Admin has no request left.
    expectRefused(
      await t.app.inject({ method: 'GET', url: reports[3] as string, headers: bearer(tokens.admin) }),
      REPORTS_TOO_FAST,
      60,
    );
    expect((await get(t.app, reports[0] as string, tokens.globex)).status).toBe(200);
  });
});

describe('routes that call an outside service', () => {
  it('share one count: a summary, then the AML screening by the same user is refused; a colleague goes on', async () => {
    const summary = (token: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v2/profile/1/generate_summary',
        headers: bearer(token),
        payload: { question: 'What is known about this customer?' },
      });
    expect((await summary(tokens.agent)).statusCode).toBe(200);
    expectRefused(
      await t.app.inject({
        method: 'GET',
        url: '/api/v2/profile/1/aml/check',
        headers: bearer(tokens.agent),
      }),
      OUTSIDE_CALLS_TOO_FAST,
      60,
    );
    expect((await summary(tokens.admin)).statusCode).toBe(200);
    // The company's fourth request in the minute.
    expectRefused(await summary(tokens.api), OUTSIDE_CALLS_TOO_FAST, 60);
  });
});

describe('the OpenAPI document', () => {
  it('declares the 429 answer of every rate-limited route', async () => {
    const { body } = await get<{ paths: Record<string, Record<string, { responses: object }>> }>(
      t.app,
      '/api/v2/openapi.json',
    );
    const limited: [string, string][] = [
      ['post', '/login/passkey/options'],
      ['post', '/login/passkey'],
      ['get', '/videocall/{id}/evidence'],
      ['get', '/bitool'],
      ['get', '/videocall/report'],
      ['get', '/review/metrics'],
      ['get', '/review/metrics.csv'],
      ['post', '/profile/{id}/generate_summary'],
      ['get', '/profile/{id}/aml/check'],
      ['post', '/webhook_endpoint/{id}/test'],
    ];
    for (const [method, path] of limited) {
      const key = Object.keys(body.paths).find((p) => p.endsWith(path));
      expect(key, path).toBeDefined();
      expect(body.paths[key as string]?.[method]?.responses, `${method} ${path}`).toHaveProperty('429');
    }
  });
});

describe('whispers', () => {
  const whisper = (token: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v2/videocall/${callId}/whispers`,
      headers: bearer(token),
      payload: { text: 'Ask for the back of the ID again' },
    });

  it('count per supervisor, answered or not: the third in a minute is 429, another user goes on', async () => {
    // The call has ended: each whisper is refused (409) by the watch rule, and still counts.
    for (let i = 0; i < 2; i++) expect((await whisper(tokens.admin)).statusCode).toBe(409);
    expectRefused(await whisper(tokens.admin), WHISPERS_TOO_FAST, 60);
    // Another supervisor has a count of their own.
    const other = await t.app.inject({
      method: 'POST',
      url: `/api/v2/videocall/${callId}/whispers`,
      headers: bearer(tokens.agent),
      payload: { text: 'Ask for the back of the ID again' },
    });
    expect(other.statusCode).not.toBe(429);
  });
});
