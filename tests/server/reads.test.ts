import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_STATUSES, RISK_LEVELS } from '#contract/common';
import type { Document } from '#contract/documents';
import type { ProfileSummary } from '#contract/profiles';
import { get, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

let t: TestApp;
let token = '';
const profilesPage = (query: string) => get<Page<ProfileSummary>>(t.app, `/api/v2/profile?${query}`, token);

beforeAll(async () => {
  t = await startTestApp();
  token = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
});
afterAll(() => t.close());

describe('GET /profile', () => {
  it('pages with limit and offset, Django REST style', async () => {
    const first = await profilesPage('limit=20');
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(240);
    expect(first.body.results).toHaveLength(20);
    expect(first.body.previous).toBeNull();
    expect(new URL(first.body.next ?? '').searchParams.get('offset')).toBe('20');
    const last = await profilesPage('limit=20&offset=230');
    expect(last.body.results).toHaveLength(10);
    expect(last.body.next).toBeNull();
    expect(new URL(last.body.previous ?? '').searchParams.get('offset')).toBe('210');
    const ids = new Set([...first.body.results, ...last.body.results].map((p) => p.id));
    expect(ids.size).toBe(30);
    const beyond = await profilesPage('limit=20&offset=1000');
    expect(beyond.body).toMatchObject({ count: 240, results: [], next: null });
    const filtered = await profilesPage('status=Approved&risk_level=High&limit=1');
    expect(filtered.body.count).toBe(
      (await profilesPage('status=Approved&risk_level=High&limit=200')).body.results.length,
    );
  });

  it('sorts newest first by default and follows ordering', async () => {
    const dates = (await profilesPage('limit=50')).body.results.map((p) => p.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    const ascending = (await profilesPage('limit=50&ordering=created_at')).body.results.map(
      (p) => p.created_at,
    );
    expect([...ascending].sort()).toEqual(ascending);
    const risks = (await profilesPage('limit=200&ordering=risk_level')).body.results.map((p) =>
      RISK_LEVELS.indexOf(p.risk_level),
    );
    expect([...risks].sort((a, b) => a - b)).toEqual(risks);
  });

  it('spreads the demo over every status and risk level', async () => {
    for (const status of PROFILE_STATUSES) {
      const page = await profilesPage(`status=${encodeURIComponent(status)}&limit=200`);
      expect(page.body.count, status).toBeGreaterThan(0);
      expect(page.body.results.every((p) => p.status === status)).toBe(true);
    }
    for (const risk of RISK_LEVELS) {
      const page = await profilesPage(`risk_level=${encodeURIComponent(risk)}`);
      expect(page.body.count, risk).toBeGreaterThan(0);
    }
  });

  it('searches by name, e-mail, id card number and id', async () => {
    const one = (
      await get<{ id: number; name: string; email: string; id_card_number: string }>(
        t.app,
        '/api/v2/profile/7',
        token,
      )
    ).body;
    for (const term of [one.name, one.email.toUpperCase(), one.id_card_number, '7']) {
      const page = await profilesPage(`search=${encodeURIComponent(term)}&limit=200`);
      expect(
        page.body.results.map((p) => p.id),
        term,
      ).toContain(7);
    }
    expect((await profilesPage('search=%25')).body.count).toBe(0);
  });

  it('filters by creation date', async () => {
    const all = (await profilesPage('limit=200&ordering=created_at')).body.results;
    const pivot = all[100]?.created_at ?? '';
    const after = await profilesPage(`created_after=${encodeURIComponent(pivot)}&limit=200`);
    expect(after.body.results.every((p) => p.created_at >= pivot)).toBe(true);
    expect(after.body.count).toBe(all.filter((p) => p.created_at >= pivot).length + 40);
  });

  it('answers 400 with a detail for bad queries', async () => {
    for (const query of [
      'limit=0',
      'limit=abc',
      'limit=1000',
      'offset=-1',
      'status=Unknown',
      'ordering=password',
      'colour=red',
      'created_after=yesterday',
    ]) {
      const { status, body } = await profilesPage(query);
      expect(status, query).toBe(400);
      expect((body as unknown as { detail: string }).detail, query).toMatch(/^querystring/);
    }
    const { status, body } = await get(t.app, '/api/v2/profile/abc', token);
    expect(status).toBe(400);
    expect(body).toEqual({ detail: expect.stringMatching(/^params\.id/) });
  });

  it('answers 404 for unknown ids', async () => {
    for (const url of [
      '/api/v2/profile/999999',
      '/api/v2/profile/999999/documents',
      '/api/v2/profile/999999/logs',
      '/api/v2/nothing-here',
    ]) {
      expect(await get(t.app, url, token), url).toEqual({ status: 404, body: { detail: 'Not found.' } });
    }
  });
});

describe('profile sub-resources', () => {
  it('lists documents with pages, checks, alerts and content, filtered by archived and upload_source', async () => {
    const { status, body } = await get<Document[]>(t.app, '/api/v2/profile/6/documents', token);
    expect(status).toBe(200);
    expect(body.length).toBe(3);
    const doc = body[0] as Document;
    expect(doc.document_class).toBe('ID');
    expect(doc.pages).toHaveLength(2);
    expect(Object.keys(doc.checks).sort()).toEqual(['biometric', 'cross', 'document', 'fraud']);
    expect(doc.content.IDNumber).toEqual(expect.any(String));
    const image = await t.app.inject({
      method: 'GET',
      url: new URL(doc.pages[0]?.url ?? '').pathname + new URL(doc.pages[0]?.url ?? '').search,
    });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.subarray(1, 4).toString()).toBe('PNG');

    const archived = await get<Document[]>(t.app, '/api/v2/profile/6/documents?archived=true', token);
    const active = await get<Document[]>(t.app, '/api/v2/profile/6/documents?archived=false', token);
    expect(archived.body.length + active.body.length).toBe(3);
    const source = doc.upload_source;
    const bySource = await get<Document[]>(
      t.app,
      `/api/v2/profile/6/documents?upload_source=${source}`,
      token,
    );
    expect(bySource.body.every((d) => d.upload_source === source)).toBe(true);
    expect((await get(t.app, '/api/v2/profile/6/documents?archived=maybe', token)).status).toBe(400);
  });

  it('pages logs with limit (default 20) and after_id', async () => {
    type Logs = { results: { id: number }[]; has_more: boolean };
    const first = await get<Logs>(t.app, '/api/v2/profile/1/logs', token);
    expect(first.body.results).toHaveLength(20);
    expect(first.body.has_more).toBe(true);
    const lastId = first.body.results.at(-1)?.id;
    const second = await get<Logs>(t.app, `/api/v2/profile/1/logs?after_id=${lastId}&limit=30`, token);
    expect(second.body.results).toHaveLength(25);
    expect(second.body.has_more).toBe(false);
    expect(second.body.results.every((l) => l.id < (lastId ?? 0))).toBe(true);
  });

  it('reads notes, checklist, AML, calls and questionnaires', async () => {
    expect((await get<unknown[]>(t.app, '/api/v2/profile/1/note', token)).body.length).toBeGreaterThan(0);
    const checklist = await get<{ questions: { answer: boolean | null }[] }[]>(
      t.app,
      '/api/v2/profile/1/checklist',
      token,
    );
    expect(checklist.body.map((g) => g.questions.length)).toEqual([3, 2]);
    const aml = await get<{ history: unknown[]; provider: string }>(t.app, '/api/v2/profile/1/aml', token);
    expect(aml.body.provider).toBe('Local AML lists');
    expect(aml.body.history.length).toBeGreaterThan(0);
    // GET /aml/check runs a new screening (a write): tests/server/aml.test.ts.
    expect(aml.body.history[0]).toMatchObject({ status: 'hit' });
    const calls = await get<Page<{ status: number; profile: number }>>(
      t.app,
      '/api/v2/videocall?profile=1',
      token,
    );
    expect(calls.body.results.every((c) => c.profile === 1)).toBe(true);
    const statusList = await get<{ code: number; name: string }[]>(
      t.app,
      '/api/v2/videocall/status_list',
      token,
    );
    expect(statusList.body.map((s) => s.code)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(statusList.body[9]?.name).toBe('SUSPICIOUS');
    const questions = await get<{ sort_order: number }[]>(t.app, '/api/v2/questionnaire/questions', token);
    expect(questions.body.map((q) => q.sort_order)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const answers = await get<unknown[]>(t.app, '/api/v2/questionnaire/answer?profile=1', token);
    expect(answers.body).toHaveLength(10);
    const tr = await get<{ question: string }[]>(t.app, '/api/v2/videocall/1/questions?lang=TR', token);
    expect(tr.body[0]?.question).toMatch(/kimlik/);
  });

  it('reads webhook logs 10 at a time and the IP allow-list', async () => {
    const logs = await get<Page<unknown>>(t.app, '/api/v2/webhook/logs', token);
    expect(logs.body.results).toHaveLength(10);
    expect(logs.body.count).toBe(50);
    const endpointLogs = await get<{ results: { event: string }[] }>(
      t.app,
      '/api/v2/webhook_endpoint/1/logs?search=document',
      token,
    );
    expect(endpointLogs.body.results.every((l) => l.event.startsWith('document'))).toBe(true);
    const ips = await get<{ address: string }[]>(t.app, '/api/v2/ip-whitelist', token);
    // The demo seeds an empty list, which lets every address in (docs/product/entities.md).
    expect(ips.status).toBe(200);
    expect(ips.body).toEqual([]);
  });
});
