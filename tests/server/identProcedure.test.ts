/**
 * The identification procedure per company (GET/PUT /ident_procedure) and the step
 * results of a call (GET/POST /videocall/{id}/steps).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CALL_STATUS_TALKING } from '#contract/constants';
import {
  type CallStep,
  DEFAULT_IDENT_PROCEDURE,
  type IdentProcedure,
  type IdentProcedureBody,
} from '#contract/identProcedure';
import { identProcedures, videoCalls } from '../../server/db/schema';
import { STEP_GRACE_MS } from '../../server/domain/identProcedure';
import { createCall } from '../../server/domain/videocalls/lifecycle';
import {
  bearer,
  get,
  PASSWORDS,
  startTestApp,
  type TestApp,
  takeScreenshot,
  talkingCall,
  tokenFor,
  userId,
} from './helpers';

let t: TestApp;
const tokens = { admin: '', agent: '', viewer: '', globex: '' };
const ids = { admin: 0, agent: 0 };

beforeAll(async () => {
  t = await startTestApp();
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.viewer = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
  tokens.globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
  ids.admin = await userId(t.app, 'admin@acme.test');
  ids.agent = await userId(t.app, 'agent@acme.test');
});
afterAll(async () => t?.close());

const URL = '/api/v2/ident_procedure';

const put = (payload: unknown, token = tokens.admin, ifMatch?: string) =>
  t.app.inject({
    method: 'PUT',
    url: URL,
    payload: payload as object,
    headers: { ...bearer(token), ...(ifMatch ? { 'if-match': ifMatch } : {}) },
  });

const procedureOf = (token: string) => get<IdentProcedure>(t.app, URL, token);

/** A valid procedure to change from: the default template as plain data. */
const base = (): IdentProcedureBody => structuredClone(DEFAULT_IDENT_PROCEDURE);

const stepRows = async () => t.app.ctx.db.select().from(identProcedures);

describe('the procedure of a company', () => {
  // Every test starts from companies that never saved a procedure, and saves the versions it needs.
  beforeEach(async () => {
    await t.app.ctx.db.delete(identProcedures);
  });

  it('answers the default template (BaFin 3/2017) to a company that never saved one, to every staff member', async () => {
    for (const token of [tokens.admin, tokens.agent, tokens.viewer]) {
      const { status, body } = await procedureOf(token);
      expect(status).toBe(200);
      expect(body.is_default).toBe(true);
      expect(body.version).toBe(0);
      expect(body.steps.map((s) => s.kind)).toEqual([
        'consent',
        'face_screenshot',
        'id_front',
        'id_back',
        'security_features',
        'serial_number',
        'second_channel_code',
        'questions',
        'decision',
      ]);
      expect(body.steps.find((s) => s.kind === 'security_features')).toMatchObject({ min_categories: 3 });
      expect(body.steps.find((s) => s.kind === 'second_channel_code')).toMatchObject({
        channel: 'email',
        max_tries: 3,
      });
      expect(body.abort_reasons.map((r) => r.id)).toEqual([
        'light',
        'picture',
        'sound',
        'connection',
        'document_not_accepted',
        'suspected_fraud',
        'customer_left',
      ]);
    }
    const response = await t.app.inject({ method: 'GET', url: URL, headers: bearer(tokens.agent) });
    expect(response.headers.etag).toBe('"0"');
  });

  it('saves a procedure (Admin), answers it back with a new version, and audits the change', async () => {
    const wanted = base();
    // Move the serial number before the ID front, make the back optional, ask one question in Turkish.
    const steps = wanted.steps;
    const serial = steps.splice(5, 1)[0];
    if (!serial) throw new Error('no serial step');
    steps.splice(2, 0, serial);
    const back = steps.find((s) => s.kind === 'id_back');
    if (back) back.mandatory = false;
    const questions = steps.find((s) => s.kind === 'questions');
    if (questions?.kind !== 'questions') throw new Error('no questions step');
    questions.pool = [
      { text: 'Your mother’s first name?', text_tr: 'Annenizin adı nedir?' },
      { text: 'Your city?' },
    ];
    questions.count = 1;
    const response = await put(wanted, tokens.admin, '"0"');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers.etag).toBe('"1"');
    const saved = response.json<IdentProcedure>();
    expect(saved).toMatchObject({ is_default: false, version: 1, updated_by: ids.admin });
    expect(saved.steps.map((s) => s.kind).slice(0, 4)).toEqual([
      'consent',
      'face_screenshot',
      'serial_number',
      'id_front',
    ]);

    const read = await procedureOf(tokens.agent);
    expect(read.body.steps).toEqual(saved.steps);
    expect(read.body.steps.find((s) => s.kind === 'id_back')?.mandatory).toBe(false);
    const pool = read.body.steps.find((s) => s.kind === 'questions');
    expect(pool).toMatchObject({
      count: 1,
      pool: [{ text_tr: 'Annenizin adı nedir?' }, { text: 'Your city?' }],
    });

    const audit = await get<{
      results: {
        action: string;
        object_type: string;
        before: { version: number };
        after: { version: number };
      }[];
    }>(t.app, '/api/v2/audit?action=ident_procedure_changed&limit=10', tokens.admin);
    expect(audit.body.results[0]).toMatchObject({
      object_type: 'company',
      before: { version: 0, procedure: null },
      after: { version: 1 },
    });
  });

  it('refuses a save against an older version with 409 and the current procedure', async () => {
    expect((await put(base(), tokens.admin, '"0"')).statusCode).toBe(200);
    const before = await procedureOf(tokens.admin);
    const stale = await put(base(), tokens.admin, '"0"');
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ current: { version: before.body.version } });
    expect((await procedureOf(tokens.admin)).body).toEqual(before.body);
    expect((await put(base(), tokens.admin, '"abc"')).statusCode).toBe(400);
  });

  it('lets only Admins save it', async () => {
    const before = await procedureOf(tokens.admin);
    for (const token of [tokens.agent, tokens.viewer]) {
      expect((await put(base(), token)).statusCode).toBe(403);
    }
    expect((await t.app.inject({ method: 'PUT', url: URL, payload: base() })).statusCode).toBe(401);
    expect((await procedureOf(tokens.admin)).body).toEqual(before.body);
  });

  it("keeps another company's procedure apart", async () => {
    const globex = await procedureOf(tokens.globex);
    expect(globex.body.is_default).toBe(true);
    const mine = base();
    mine.steps = mine.steps.filter((s) => s.kind !== 'second_channel_code');
    expect((await put(mine, tokens.globex)).statusCode).toBe(200);
    const acme = await procedureOf(tokens.admin);
    expect(acme.body.steps.some((s) => s.kind === 'second_channel_code')).toBe(true);
    expect((await procedureOf(tokens.globex)).body.steps.some((s) => s.kind === 'second_channel_code')).toBe(
      false,
    );
  });

  it('refuses bad procedures with 400 naming the field, and changes nothing', async () => {
    const long = 'x'.repeat(10_000);
    const cases: [string, (p: IdentProcedureBody) => unknown, RegExp][] = [
      [
        'duplicate kind',
        (p) => ({ ...p, steps: [...p.steps.slice(0, 2), p.steps[1], ...p.steps.slice(3)] }),
        /body\.steps\.2\.kind: face_screenshot appears more than once/,
      ],
      [
        'decision not last',
        (p) => ({ ...p, steps: [...p.steps.slice(-1), ...p.steps.slice(0, -1)] }),
        /body\.steps: decision must be the last step/,
      ],
      ['no decision', (p) => ({ ...p, steps: p.steps.slice(0, -1) }), /decision must be the last step/],
      [
        'decision optional',
        (p) => ({
          ...p,
          steps: p.steps.map((s) => (s.kind === 'decision' ? { ...s, mandatory: false } : s)),
        }),
        /body\.steps\.8\.mandatory: decision must be mandatory/,
      ],
      [
        'consent not first',
        (p) => ({ ...p, steps: [p.steps[1], p.steps[0], ...p.steps.slice(2)] }),
        /body\.steps\.1\.kind: consent must be the first step/,
      ],
      ['empty steps', (p) => ({ ...p, steps: [] }), /body\.steps/],
      [
        'unknown kind',
        (p) => ({ ...p, steps: [{ kind: 'selfie', mandatory: true }, ...p.steps.slice(1)] }),
        /body\.steps\.0/,
      ],
      [
        'wrong type',
        (p) => ({ ...p, steps: p.steps.map((s) => ({ ...s, mandatory: 'yes' })) }),
        /body\.steps\.0\.mandatory/,
      ],
      [
        'min categories 5',
        (p) => ({
          ...p,
          steps: p.steps.map((s) => (s.kind === 'security_features' ? { ...s, min_categories: 5 } : s)),
        }),
        /body\.steps\.4\.min_categories/,
      ],
      [
        'min categories 0',
        (p) => ({
          ...p,
          steps: p.steps.map((s) => (s.kind === 'security_features' ? { ...s, min_categories: 0 } : s)),
        }),
        /min_categories/,
      ],
      [
        'tries 11',
        (p) => ({
          ...p,
          steps: p.steps.map((s) => (s.kind === 'second_channel_code' ? { ...s, max_tries: 11 } : s)),
        }),
        /max_tries/,
      ],
      [
        'fax channel',
        (p) => ({
          ...p,
          steps: p.steps.map((s) => (s.kind === 'second_channel_code' ? { ...s, channel: 'fax' } : s)),
        }),
        /channel/,
      ],
      [
        'more drawn than pool',
        (p) => ({ ...p, steps: p.steps.map((s) => (s.kind === 'questions' ? { ...s, count: 7 } : s)) }),
        /body\.steps\.7\.count: Cannot draw more/,
      ],
      [
        '10k-char question',
        (p) => ({
          ...p,
          steps: p.steps.map((s) =>
            s.kind === 'questions' ? { ...s, pool: [{ text: long }], count: 1 } : s,
          ),
        }),
        /pool\.0\.text/,
      ],
      [
        'empty question',
        (p) => ({
          ...p,
          steps: p.steps.map((s) =>
            s.kind === 'questions' ? { ...s, pool: [{ text: '   ' }], count: 1 } : s,
          ),
        }),
        /pool\.0\.text/,
      ],
      [
        'NUL in a question',
        (p) => ({
          ...p,
          steps: p.steps.map((s) =>
            s.kind === 'questions' ? { ...s, pool: [{ text: 'a\u0000b' }], count: 1 } : s,
          ),
        }),
        /pool\.0\.text: Must not contain control characters/,
      ],
      [
        'NUL in consent',
        (p) => ({ ...p, consent_text: { ...p.consent_text, tr: 'ok\u0000' } }),
        /consent_text\.tr/,
      ],
      [
        '10k-char consent',
        (p) => ({ ...p, consent_text: { ...p.consent_text, en: long } }),
        /consent_text\.en/,
      ],
      [
        'empty pool',
        (p) => ({ ...p, steps: p.steps.map((s) => (s.kind === 'questions' ? { ...s, pool: [] } : s)) }),
        /pool/,
      ],
      [
        'huge pool',
        (p) => ({
          ...p,
          steps: p.steps.map((s) =>
            s.kind === 'questions' ? { ...s, pool: Array.from({ length: 5000 }, () => ({ text: 'Q?' })) } : s,
          ),
        }),
        /pool/,
      ],
      [
        'huge step list',
        (p) => ({ ...p, steps: Array.from({ length: 1000 }, () => p.steps[1]) }),
        /body\.steps/,
      ],
      ['no abort reasons', (p) => ({ ...p, abort_reasons: [] }), /abort_reasons/],
      [
        'duplicate abort reason',
        (p) => ({ ...p, abort_reasons: [...p.abort_reasons, p.abort_reasons[0]] }),
        /abort_reasons\.7\.id: light appears more than once/,
      ],
      [
        'bad reason id',
        (p) => ({ ...p, decision_reasons: [{ id: 'Bad Id!', en: 'a', tr: 'b' }] }),
        /decision_reasons\.0\.id/,
      ],
      ['reason without tr', (p) => ({ ...p, abort_reasons: [{ id: 'x', en: 'a' }] }), /abort_reasons\.0\.tr/],
      ['unknown key', (p) => ({ ...p, colour: 'red' }), /colour|Unrecognized key/],
      [
        'unknown step key',
        (p) => ({ ...p, steps: p.steps.map((s) => ({ ...s, extra: 1 })) }),
        /body\.steps\.0/,
      ],
      ['not an object', () => [1, 2, 3], /body/],
      ['no consent text', (p) => ({ ...p, consent_text: undefined }), /consent_text/],
    ];
    // Both companies have saved a procedure: none of the refusals below may change either.
    for (const token of [tokens.admin, tokens.globex])
      expect((await put(base(), token)).statusCode).toBe(200);
    const before = await procedureOf(tokens.admin);
    for (const [name, change, detail] of cases) {
      const response = await put(change(base()), tokens.admin);
      expect(response.statusCode, name).toBe(400);
      expect(response.json<{ detail: string }>().detail, name).toMatch(detail);
    }
    expect((await procedureOf(tokens.admin)).body).toEqual(before.body);
    expect(await stepRows()).toHaveLength(2);
  });

  it('accepts the extremes inside the bounds', async () => {
    const p = base();
    p.steps = [
      {
        kind: 'questions',
        mandatory: false,
        count: 20,
        pool: Array.from({ length: 200 }, (_, i) => ({ text: `${'q'.repeat(195)}${i}`.slice(0, 200) })),
      },
      { kind: 'security_features', mandatory: true, min_categories: 4 },
      { kind: 'second_channel_code', mandatory: true, channel: 'sms', max_tries: 10 },
      { kind: 'decision', mandatory: true },
    ];
    const response = await put(p, tokens.globex);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<IdentProcedure>().steps[0]).toMatchObject({ count: 20 });
  });
});

describe('the step results of a call', () => {
  const stepsUrl = (id: number | string) => `/api/v2/videocall/${id}/steps`;
  const postStep = (id: number | string, payload: unknown, token = tokens.agent) =>
    t.app.inject({ method: 'POST', url: stepsUrl(id), payload: payload as object, headers: bearer(token) });
  const passed = {
    kind: 'id_front',
    result: 'passed',
    details: { screenshot: 'calls/1/front.png' },
    offset_ms: 12_000,
  };

  it("stores the agent's results and answers them in the order of the recording", async () => {
    const { callId } = await talkingCall(t.app, ids.agent);
    const front = await takeScreenshot(t.app, tokens.agent, callId, 'id_front');
    const second = await postStep(callId, {
      ...passed,
      details: { ...passed.details, screenshots: [front] },
    });
    expect(second.statusCode, second.body).toBe(201);
    const features = [];
    for (let i = 0; i < 3; i++)
      features.push(await takeScreenshot(t.app, tokens.agent, callId, 'security_features'));
    const first = await postStep(callId, {
      kind: 'security_features',
      result: 'passed',
      details: {
        categories: ['holograms_kinegrams', 'material', 'security_printing'],
        screenshots: features,
      },
      offset_ms: 5_000,
    });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json<CallStep>()).toMatchObject({ call: callId, created_by: ids.agent, offset_ms: 5_000 });
    const list = await get<CallStep[]>(t.app, stepsUrl(callId), tokens.admin);
    expect(list.status).toBe(200);
    expect(list.body.map((s) => [s.kind, s.offset_ms])).toEqual([
      ['security_features', 5_000],
      ['id_front', 12_000],
    ]);
    expect(list.body[1]?.details).toEqual({ screenshot: 'calls/1/front.png', screenshots: [front] });
  });

  it("lets only the call's agent post, while the call is on or just ended", async () => {
    const { callId } = await talkingCall(t.app, ids.agent);
    const admin = await postStep(callId, passed, tokens.admin);
    expect(admin.statusCode).toBe(403);
    expect(admin.json()).toEqual({ detail: 'Only the agent of the call can record its steps' });
    expect((await postStep(callId, passed, tokens.viewer)).statusCode).toBe(403);
    // Just ended: still accepted.
    await t.app.ctx.db
      .update(videoCalls)
      .set({ status: 3, callEndTime: new Date() })
      .where(eq(videoCalls.id, callId));
    expect((await postStep(callId, { ...passed, kind: 'decision' })).statusCode).toBe(201);
    // Long ended: refused.
    await t.app.ctx.db
      .update(videoCalls)
      .set({ callEndTime: new Date(Date.now() - STEP_GRACE_MS - 60_000) })
      .where(eq(videoCalls.id, callId));
    expect((await postStep(callId, passed)).statusCode).toBe(409);
    // Never answered.
    const waiting = await createCall(t.app.ctx.db, 1, 1);
    await t.app.ctx.db.update(videoCalls).set({ agentId: ids.agent }).where(eq(videoCalls.id, waiting.id));
    expect((await postStep(waiting.id, passed)).statusCode).toBe(409);
    const steps = await get<CallStep[]>(t.app, stepsUrl(callId), tokens.admin);
    expect(steps.body.map((s) => s.kind)).toEqual(['decision']);
  });

  it("refuses a kind outside the company's procedure and bad bodies with 400", async () => {
    const { callId } = await talkingCall(t.app, ids.agent);
    const [row] = await t.app.ctx.db
      .select({ status: videoCalls.status })
      .from(videoCalls)
      .where(eq(videoCalls.id, callId));
    expect(row?.status).toBe(CALL_STATUS_TALKING);
    // Acme's saved procedure has all kinds; drop one.
    const current = await procedureOf(tokens.admin);
    const { version, is_default, updated_at, updated_by, ...fields } = current.body;
    fields.steps = fields.steps.filter((s) => s.kind !== 'serial_number');
    expect((await put(fields, tokens.admin, `"${version}"`)).statusCode).toBe(200);
    const outside = await postStep(callId, { ...passed, kind: 'serial_number' });
    expect(outside.statusCode).toBe(400);
    expect(outside.json()).toEqual({
      detail: "kind: serial_number is not a step of the company's procedure",
    });
    for (const bad of [
      { ...passed, kind: 'selfie' },
      { ...passed, result: 'maybe' },
      { ...passed, offset_ms: -1 },
      { ...passed, offset_ms: 24 * 3600 * 1000 + 1 },
      { ...passed, offset_ms: 2 ** 53 },
      { ...passed, offset_ms: 1.5 },
      { ...passed, details: { note: 'a\u0000b' } },
      { ...passed, details: { note: 'x'.repeat(10_000) } },
      { ...passed, details: { 'Bad Key': 1 } },
      { ...passed, details: Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`k${i}`, i])) },
      { ...passed, extra: true },
      { kind: 'id_front' },
    ]) {
      const response = await postStep(callId, bad);
      expect(response.statusCode, JSON.stringify(bad).slice(0, 80)).toBe(400);
      expect(response.json<{ detail: string }>().detail).toMatch(/^body/);
    }
    expect((await get<CallStep[]>(t.app, stepsUrl(callId), tokens.admin)).body).toEqual([]);
  });

  it("answers 404 for another company's call and 400/404 for ids out of range, never 500", async () => {
    const { callId } = await talkingCall(t.app, ids.agent);
    expect((await get(t.app, stepsUrl(callId), tokens.globex)).status).toBe(404);
    expect((await postStep(callId, passed, tokens.globex)).statusCode).toBe(404);
    for (const id of [2 ** 53, -1, 0, 'abc', 2 ** 31, '1e3', '']) {
      const read = await get(t.app, stepsUrl(id), tokens.admin);
      expect([400, 404], `GET ${id}`).toContain(read.status);
      const write = await postStep(id, passed);
      expect([400, 404], `POST ${id}`).toContain(write.statusCode);
    }
    expect((await get(t.app, stepsUrl(2_147_483_647), tokens.admin)).status).toBe(404);
  });
});
