/**
 * Inputs at the extremes of their types. A third-party OpenAPI fuzzer got 500 from ids the
 * schema allowed up to 2^53 (the id columns are PostgreSQL `integer`, up to 2^31 − 1), from impossible dates
 * and from a NUL byte in text. Each finding is refused with a 400 whose detail names the field, and changes
 * nothing. (The sweep in tests/server/badInput.test.ts covers every operation; these are the findings.)
 */
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, get, PASSWORDS, startTestApp, type TestApp, tokenFor } from '../server/helpers';

/** Allowed by the old schemas (Number.MAX_SAFE_INTEGER − 1), far past an integer column. */
const NEAR_2_53 = 9_007_199_254_740_990;
/** The largest value an integer column holds: still a well-formed id (it names nothing). */
const MAX_ID = 2_147_483_647;

let t: TestApp;
let admin = '';

beforeAll(async () => {
  t = await startTestApp();
  admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
});
afterAll(() => t.close());

async function send(method: InjectOptions['method'], url: string, payload?: object) {
  const response = await t.app.inject({
    method,
    url,
    headers: bearer(admin),
    ...(payload ? { payload } : {}),
  });
  return { status: response.statusCode, detail: (response.json() as { detail?: string }).detail };
}

/** A row count of every table, to show that a refusal changed nothing. */
async function rowCounts(): Promise<Record<string, number>> {
  const tables = (await t.app.ctx.db.execute(
    sql`SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
  )) as unknown as { rows: { t: string }[] };
  const counts: Record<string, number> = {};
  for (const { t: table } of tables.rows) {
    const result = (await t.app.ctx.db.execute(
      sql.raw(`SELECT count(*)::int AS n FROM "${table}"`),
    )) as unknown as {
      rows: { n: number }[];
    };
    counts[table] = result.rows[0]?.n ?? 0;
  }
  return counts;
}

/** The first document of the admin's company. */
async function someDocumentId(): Promise<number> {
  const profiles = await get<{ results: { id: number }[] }>(t.app, '/api/v2/profile?limit=50', admin);
  for (const profile of profiles.body.results) {
    const documents = await get<{ id: number }[]>(t.app, `/api/v2/profile/${profile.id}/documents`, admin);
    const first = documents.body[0];
    if (first) return first.id;
  }
  throw new Error('the seed has no document in the admin company');
}

describe('ids are bounded to the integer columns (2^31 − 1), in queries and bodies alike', () => {
  it('GET /videocall?profile=2^53 − 2 is a 400 naming querystring.profile', async () => {
    const answer = await send('GET', `/api/v2/videocall?profile=${NEAR_2_53}`);
    expect(answer).toEqual({ status: 400, detail: expect.stringContaining('querystring.profile') });
    expect((await send('GET', `/api/v2/videocall?profile=${MAX_ID}`)).status).toBe(404);
  });

  it('POST /profile/url with profile 2^53 − 2 is a 400 naming body.profile', async () => {
    const before = await rowCounts();
    const answer = await send('POST', '/api/v2/profile/url', { profile: NEAR_2_53 });
    expect(answer).toEqual({ status: 400, detail: expect.stringContaining('body.profile') });
    expect((await send('POST', '/api/v2/profile/url', { profile: MAX_ID })).status).toBe(404);
    expect(await rowCounts()).toEqual(before);
  });

  it('PATCH /document/{id} with document_type 2^53 − 2 is a 400 naming body.document_type', async () => {
    const id = await someDocumentId();
    const before = await rowCounts();
    const answer = await send('PATCH', `/api/v2/document/${id}`, { document_type: NEAR_2_53 });
    expect(answer).toEqual({ status: 400, detail: expect.stringContaining('body.document_type') });
    expect(await rowCounts()).toEqual(before);
  });

  it('POST /webhook_endpoint/retry with an id of 2^53 − 2 is a 400 naming body.ids.0', async () => {
    const answer = await send('POST', '/api/v2/webhook_endpoint/retry', { ids: [NEAR_2_53] });
    expect(answer).toEqual({ status: 400, detail: expect.stringContaining('body.ids.0') });
    expect((await send('POST', '/api/v2/webhook_endpoint/retry', { ids: [MAX_ID] })).status).toBe(404);
  });

  it('POST /payment/buy_package with package 2^53 − 2 is a 400 naming body.package', async () => {
    const before = await rowCounts();
    const answer = await send('POST', '/api/v2/payment/buy_package', {
      package: NEAR_2_53,
      studio_url: 'http://localhost:5173/payment',
    });
    expect(answer).toEqual({ status: 400, detail: expect.stringContaining('body.package') });
    expect(await rowCounts()).toEqual(before);
  });

  it('path ids past 2^31 − 1 are a 400 too (the AML history entry, the rule override)', async () => {
    for (const [method, url] of [
      ['GET', '/api/v2/profile/1/aml/history/2147483648'],
      ['PUT', '/api/v2/profile/1/rule/2147483648'],
    ] as const) {
      const answer = await send(
        method,
        url,
        method === 'PUT' ? { reason: 'A reason long enough' } : undefined,
      );
      expect(answer, url).toEqual({
        status: 400,
        detail: expect.stringMatching(/^params\.(checkId|ruleId)/),
      });
    }
  });
});

describe('dates must exist on the calendar', () => {
  it.each([
    ['start_date', '2026-13-01'],
    ['start_date', '0000-00-00'],
    ['end_date', '2026-02-30'],
    ['end_date', '0000-01-01'],
  ])('GET /audit?%s=%s is a 400 naming the field', async (field, value) => {
    const answer = await send('GET', `/api/v2/audit?${field}=${value}`);
    expect(answer).toEqual({ status: 400, detail: `querystring.${field}: Expected a real date YYYY-MM-DD` });
  });

  it('the dashboard and the profile filter refuse the year 0 as well (29 February of a leap year is a day)', async () => {
    expect((await send('GET', '/api/v2/audit?start_date=2024-02-29&end_date=2026-12-31')).status).toBe(200);
    const bitool = await send('GET', '/api/v2/bitool?start_date=0000-01-01&end_date=0000-02-01');
    expect(bitool).toEqual({ status: 400, detail: expect.stringContaining('querystring.start_date') });
    const profiles = await send('GET', '/api/v2/profile?created_after=0000-01-01');
    expect(profiles).toEqual({ status: 400, detail: expect.stringContaining('querystring.created_after') });
  });
});

describe('text refuses control characters', () => {
  it('POST /profile with a NUL in the name is a 400 naming body.name, and creates nothing', async () => {
    const before = await rowCounts();
    const answer = await send('POST', '/api/v2/profile', {
      id_card_number: 'qa_nul_check',
      name: 'Ay\u0000şe',
    });
    expect(answer).toEqual({ status: 400, detail: 'body.name: Must not contain control characters' });
    expect(await rowCounts()).toEqual(before);
  });

  it('an e-mail address with a control character inside is refused before any lookup', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/v2/user/reset_password/send',
      payload: { email: 'a\u0000dmin@acme.test' },
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().detail).toBe('body.email: Must not contain control characters');
  });

  it('notes keep their line breaks and Turkish letters; other control characters are refused', async () => {
    const note = 'Kimlik kartı görüldü.\nİmza ve fotoğraf uyuşuyor;\r\n\tçağrı sonrası kontrol edildi.';
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/v2/profile/1/note',
      headers: bearer(admin),
      payload: { note },
    });
    expect(saved.statusCode).toBe(201);
    expect(saved.json().note).toBe(note.trim());
    const bell = await send('POST', '/api/v2/profile/1/note', { note: 'Ten or more letters\u0007' });
    expect(bell).toEqual({
      status: 400,
      detail: 'body.note: Must not contain control characters other than line breaks and tabs',
    });
  });
});
