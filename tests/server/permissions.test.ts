import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { get, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

const FORBIDDEN = { detail: 'You do not have permission to perform this action' };
const NOT_FOUND = { detail: 'Not found.' };

let t: TestApp;
const tokens: Record<string, string> = {};
let globexProfileId = 0;

beforeAll(async () => {
  t = await startTestApp();
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.user = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.restricted = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
  tokens.globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
  const page = await get<{ results: { id: number }[] }>(t.app, '/api/v2/profile?limit=1', tokens.globex);
  globexProfileId = page.body.results[0]?.id ?? 0;
});
afterAll(() => t.close());

interface OpenApi {
  paths: Record<string, Record<string, unknown>>;
}

describe('every route checks the token', () => {
  it('answers 401 to every GET of the OpenAPI document without a token, except the public ones', async () => {
    const { body } = await get<OpenApi>(t.app, '/api/v2/openapi.json');
    const publicPaths = new Set(['/api/v1/regions', '/api/v2/stp/packages', '/api/v2/evidence/public_key']);
    const checked: string[] = [];
    for (const [path, methods] of Object.entries(body.paths)) {
      if (!('get' in methods) || publicPaths.has(path)) continue;
      const url = path.replace(/\{[^}]+\}/g, '1');
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(401);
      expect(response.json(), url).toHaveProperty('detail');
      checked.push(url);
    }
    expect(checked.length).toBeGreaterThan(30);
  });
});

describe('roles and page permissions', () => {
  const adminOnly = ['/api/v2/user', '/api/v2/group'];
  const companyPage = [
    '/api/v2/webhook',
    '/api/v2/webhook/events',
    '/api/v2/events',
    '/api/v2/webhook/logs',
    '/api/v2/webhook/token',
    '/api/v2/webhook_endpoint',
    '/api/v2/webhook_endpoint/1',
    '/api/v2/webhook_endpoint/1/logs',
    '/api/v2/ip-whitelist',
    '/api/v2/payment/history',
  ];

  it('lets the Admin read the admin and company pages', async () => {
    for (const url of [...adminOnly, ...companyPage])
      expect((await get(t.app, url, tokens.admin)).status, url).toBe(200);
  });

  it('forbids a User the admin and company pages', async () => {
    for (const url of [...adminOnly, ...companyPage]) {
      const { status, body } = await get(t.app, url, tokens.user);
      expect(status, url).toBe(403);
      expect(body).toEqual(FORBIDDEN);
    }
  });

  it('forbids a Restricted User the call pages but lets them read profiles', async () => {
    expect((await get(t.app, '/api/v2/videocall/1/questions', tokens.restricted)).status).toBe(403);
    expect((await get(t.app, '/api/v2/profile', tokens.restricted)).status).toBe(200);
    expect((await get(t.app, '/api/v2/profile/1/documents', tokens.restricted)).status).toBe(200);
    expect((await get(t.app, '/api/v2/videocall/1/questions', tokens.user)).status).toBe(200);
  });

  it('lets a user read themself but not a colleague unless Admin', async () => {
    expect((await get(t.app, '/api/v2/user/2', tokens.user)).status).toBe(200);
    expect(await get(t.app, '/api/v2/user/1', tokens.user)).toEqual({ status: 403, body: FORBIDDEN });
    expect((await get(t.app, '/api/v2/user/2', tokens.admin)).status).toBe(200);
  });

  it('gives the User role its five page permissions, and the Reviewers group review_profiles', async () => {
    const { body } = await get<{ permissions: string[] }>(t.app, '/api/v2/user/2', tokens.user);
    expect(body.permissions).toEqual([
      'view_calls_page',
      'view_profiles_page',
      'view_settings_page',
      'view_dashboard_page',
      'view_reports_page',
      'review_profiles',
    ]);
  });
});

describe('companies never see each other (404)', () => {
  it('hides Acme data from a Globex admin', async () => {
    const acmeUrls = [
      '/api/v2/profile/1',
      '/api/v2/profile/1/nvi',
      '/api/v2/profile/1/documents',
      '/api/v2/profile/1/device_data',
      '/api/v2/profile/1/note',
      '/api/v2/profile/1/logs',
      '/api/v2/profile/1/checklist',
      '/api/v2/videocall?profile=1',
      '/api/v2/videocall/1/questions',
      '/api/v2/questionnaire/answer?profile=1',
      '/api/v2/company/1',
      '/api/v2/company/1/config/app',
      '/api/v2/user/1',
      '/api/v2/webhook_endpoint/1',
      '/api/v2/webhook_endpoint/1/secret',
      '/api/v2/webhook_endpoint/1/logs',
    ];
    for (const url of acmeUrls)
      expect(await get(t.app, url, tokens.globex), url).toEqual({ status: 404, body: NOT_FOUND });
  });

  it('hides Globex data from an Acme admin', async () => {
    for (const url of [
      `/api/v2/profile/${globexProfileId}`,
      `/api/v2/profile/${globexProfileId}/documents`,
      '/api/v2/company/2',
    ]) {
      expect(await get(t.app, url, tokens.admin), url).toEqual({ status: 404, body: NOT_FOUND });
    }
  });

  it('lists only the caller’s own company data', async () => {
    const acme = await get<{ count: number; results: { company: number }[] }>(
      t.app,
      '/api/v2/profile?limit=200',
      tokens.admin,
    );
    expect(acme.body.count).toBe(240);
    expect(acme.body.results.every((p) => p.company === 1)).toBe(true);
    const globex = await get<{ count: number }>(t.app, '/api/v2/profile', tokens.globex);
    expect(globex.body.count).toBe(30);
    const users = await get<{ results: { company: number }[] }>(
      t.app,
      '/api/v2/user?limit=100',
      tokens.globex,
    );
    expect(users.body.results.map((u) => u.company)).toEqual([2, 2]);
    const companies = await get<{ id: number }[]>(t.app, '/api/v2/company', tokens.globex);
    expect(companies.body.map((c) => c.id)).toEqual([2]);
  });
});

describe('service gating', () => {
  it('answers 403 to AML reads when the company has no AML provider', async () => {
    const { status, body } = await get(t.app, `/api/v2/profile/${globexProfileId}/aml`, tokens.globex);
    expect(status).toBe(403);
    expect(body).toEqual({ detail: 'AML is not enabled for this company' });
    expect((await get(t.app, '/api/v2/profile/1/aml', tokens.admin)).status).toBe(200);
  });
});
