/**
 * On a guided procedure a refused final status changes nothing (the call, its audit trail,
 * its webhook messages and deliveries, the profile's log), a reason id is one of the caller's own company's
 * lists only, and extreme reason ids or call ids answer 4xx, never 500.
 */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_IDENT_PROCEDURE,
  type IdentProcedure,
  type IdentProcedureBody,
  isScreenshotStep,
} from '#contract/identProcedure';
import {
  auditLog,
  profileLogs,
  videoCalls,
  webhookDeliveries,
  webhookMessages,
} from '../../server/db/schema';
import {
  bearer,
  PASSWORDS,
  startTestApp,
  type TestApp,
  takeScreenshot,
  talkingCall,
  tokenFor,
  userId,
} from '../server/helpers';

let t: TestApp;
const tokens = { admin: '', agent: '', globex: '' };
let agentId = 0;

const saveProcedure = (payload: IdentProcedureBody, token: string) =>
  t.app.inject({ method: 'PUT', url: '/api/v2/ident_procedure', payload, headers: bearer(token) });

beforeAll(async () => {
  t = await startTestApp();
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
  agentId = await userId(t.app, 'agent@acme.test');
  // Acme is guided; Globex has a decision reason of its own.
  const acme = await saveProcedure({ ...DEFAULT_IDENT_PROCEDURE, guided: true }, tokens.admin);
  expect(acme.statusCode).toBe(200);
  expect(acme.json<IdentProcedure>().guided).toBe(true);
  const globex = await saveProcedure(
    {
      ...DEFAULT_IDENT_PROCEDURE,
      decision_reasons: [{ id: 'globex_only', en: 'Globex decision', tr: 'Globex kararı' }],
    },
    tokens.globex,
  );
  expect(globex.statusCode).toBe(200);
});
afterAll(async () => t?.close());

const setStatus = (callId: number | string, payload: object, token = tokens.agent) =>
  t.app.inject({ method: 'PUT', url: `/api/v2/videocall/${callId}`, payload, headers: bearer(token) });

const closeCall = (callId: number | string, payload: object) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v2/videocall/${callId}/close`,
    payload: { reason: 'The customer asked to stop.', ...payload },
    headers: bearer(tokens.admin),
  });

async function passEverything(callId: number) {
  for (const [index, { kind }] of DEFAULT_IDENT_PROCEDURE.steps.entries()) {
    if (kind === 'decision') continue;
    const posted = await t.app.inject({
      method: 'POST',
      url: `/api/v2/videocall/${callId}/steps`,
      payload: {
        kind,
        result: 'passed',
        details: isScreenshotStep(kind)
          ? { screenshots: [await takeScreenshot(t.app, tokens.agent, callId, kind)] }
          : {},
        offset_ms: (index + 1) * 1000,
      },
      headers: bearer(tokens.agent),
    });
    expect(posted.statusCode).toBe(201);
  }
}

/** What a final status writes: the call row, its audit entries, webhook messages and deliveries, the log. */
async function traces(callId: number) {
  const { db } = t.app.ctx;
  const [call] = await db.select().from(videoCalls).where(eq(videoCalls.id, callId));
  const [audit] = await db
    .select({ n: count() })
    .from(auditLog)
    .where(eq(auditLog.objectId, String(callId)));
  const [messages] = await db.select({ n: count() }).from(webhookMessages);
  const [deliveries] = await db.select({ n: count() }).from(webhookDeliveries);
  const [logs] = await db.select({ n: count() }).from(profileLogs);
  return {
    status: call?.status,
    end: call?.callEndTime,
    setBy: call?.statusSetBy,
    outcome: call?.outcomeReason,
    audit: audit?.n,
    messages: messages?.n,
    deliveries: deliveries?.n,
    logs: logs?.n,
  };
}

describe('a guided call whose status is refused', () => {
  it('keeps its status, end time, audit entries, webhook messages and deliveries and the log unchanged', async () => {
    const { callId } = await talkingCall(t.app, agentId);
    const before = await traces(callId);
    const refused = await setStatus(callId, { status: 3, outcome_reason: 'identity_verified' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ detail: string }>().detail).toContain('consent, face_screenshot, id_front');
    const closed = await closeCall(callId, { status: 3, outcome_reason: 'identity_verified' });
    expect(closed.statusCode).toBe(400);
    const noReason = await setStatus(callId, { status: 6 });
    expect(noReason.statusCode).toBe(400);
    expect(await traces(callId)).toEqual(before);
    expect(before.status).toBe(1);

    // The same call then ends properly: the traces do move, so the comparison above means something.
    await passEverything(callId);
    expect((await setStatus(callId, { status: 3, outcome_reason: 'identity_verified' })).statusCode).toBe(
      200,
    );
    const after = await traces(callId);
    expect(after.status).toBe(3);
    expect(after.audit).toBeGreaterThan(before.audit ?? 0);
    expect(after.messages).toBeGreaterThan(before.messages ?? 0);
  });
});

describe("another company's reason ids", () => {
  it('are refused with 400 and nothing is stored, even with every step passed', async () => {
    const { callId } = await talkingCall(t.app, agentId);
    await passEverything(callId);
    const before = await traces(callId);
    const refused = await setStatus(callId, { status: 3, outcome_reason: 'globex_only' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ detail: string }>().detail).toBe(
      "outcome_reason: globex_only is not one of the company's decision reasons",
    );
    expect(await traces(callId)).toEqual(before);
    expect((await setStatus(callId, { status: 3, outcome_reason: 'identity_verified' })).statusCode).toBe(
      200,
    );
  });
});

describe('extreme input', () => {
  it('answers 400 for a reason id of 10,000 characters, with NUL bytes or of the wrong type; the call stays open', async () => {
    const { callId } = await talkingCall(t.app, agentId);
    await passEverything(callId);
    const before = await traces(callId);
    for (const outcome_reason of [
      'a'.repeat(10_000),
      'identity_verified\u0000',
      '\u0000',
      'identity\u0000verified',
      '',
      12,
      null,
      ['identity_verified'],
    ]) {
      for (const response of [
        await setStatus(callId, { status: 3, outcome_reason }),
        await closeCall(callId, { status: 4, outcome_reason }),
      ]) {
        expect(response.statusCode).toBe(400);
        expect(response.json<{ detail: string }>().detail).toContain('outcome_reason');
      }
    }
    expect(await traces(callId)).toEqual(before);
    expect((await setStatus(callId, { status: 3, outcome_reason: 'identity_verified' })).statusCode).toBe(
      200,
    );
  });

  it('answers 4xx, never 500, for call ids up to 2^53 in the path', async () => {
    for (const id of [0, 2 ** 31 - 1, 2 ** 31, 2 ** 53 - 1, 2 ** 53, '9'.repeat(30), '-1', '1e3']) {
      for (const response of [
        await setStatus(id, { status: 3, outcome_reason: 'identity_verified' }),
        await closeCall(id, { status: 4, outcome_reason: 'light' }),
      ]) {
        expect(response.statusCode, `id ${id}`).toBeGreaterThanOrEqual(400);
        expect(response.statusCode, `id ${id}`).toBeLessThan(500);
      }
    }
  });
});
