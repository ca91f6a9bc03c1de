/**
 * A guided procedure. Off by default (every existing flow saves COMPLETE without steps); on,
 * COMPLETE needs the latest result of every mandatory step passed, and every final status a reason id from the
 * company's lists, stored with the call. Without guidance the reason id stays optional but is checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_IDENT_PROCEDURE,
  type IdentProcedure,
  type IdentProcedureBody,
  isScreenshotStep,
} from '#contract/identProcedure';
import type { VideoCall } from '#contract/videocalls';
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
const tokens = { admin: '', agent: '' };
let agentId = 0;

beforeAll(async () => {
  t = await startTestApp();
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  agentId = await userId(t.app, 'agent@acme.test');
});
afterAll(async () => t?.close());

const saveProcedure = (payload: IdentProcedureBody) =>
  t.app.inject({ method: 'PUT', url: '/api/v2/ident_procedure', payload, headers: bearer(tokens.admin) });

async function guide(guided: boolean, change: (p: IdentProcedureBody) => void = () => {}) {
  const procedure: IdentProcedureBody = { ...structuredClone(DEFAULT_IDENT_PROCEDURE), guided };
  change(procedure);
  const saved = await saveProcedure(procedure);
  expect(saved.statusCode).toBe(200);
  expect(saved.json<IdentProcedure>().guided).toBe(guided);
}

const setStatus = (callId: number, payload: object, token = tokens.agent) =>
  t.app.inject({ method: 'PUT', url: `/api/v2/videocall/${callId}`, payload, headers: bearer(token) });

/** Records a step result; a passed face, ID or security-features step with a screenshot taken just before. */
const step = async (callId: number, kind: string, result: 'passed' | 'failed', offset_ms: number) => {
  const details =
    result === 'passed' && isScreenshotStep(kind)
      ? { screenshots: [await takeScreenshot(t.app, tokens.agent, callId, kind)] }
      : {};
  return t.app.inject({
    method: 'POST',
    url: `/api/v2/videocall/${callId}/steps`,
    payload: { kind, result, details, offset_ms },
    headers: bearer(tokens.agent),
  });
};

const callOf = async (callId: number) =>
  (await get<VideoCall>(t.app, `/api/v2/videocall/${callId}`, tokens.admin)).body;

/** Every mandatory step of the default template but the decision. */
const MANDATORY = DEFAULT_IDENT_PROCEDURE.steps.map((s) => s.kind).filter((kind) => kind !== 'decision');

describe('the guided switch of the procedure', () => {
  it('is off for the default template and for a PUT without it (existing clients), on when an Admin says so', async () => {
    const before = await get<IdentProcedure>(t.app, '/api/v2/ident_procedure', tokens.agent);
    expect(before.body.guided).toBe(false);
    const { guided: _left, ...withoutGuided } = DEFAULT_IDENT_PROCEDURE;
    const saved = await saveProcedure(withoutGuided);
    expect(saved.statusCode).toBe(200);
    expect(saved.json<IdentProcedure>().guided).toBe(false);
    await guide(true);
    const after = await get<IdentProcedure>(t.app, '/api/v2/ident_procedure', tokens.agent);
    expect(after.body.guided).toBe(true);
    const refused = await saveProcedure({ ...DEFAULT_IDENT_PROCEDURE, guided: 'yes' as unknown as boolean });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ detail: string }>().detail).toContain('guided');
  });
});

describe('the final status of a call of a guided company', () => {
  it('refuses COMPLETE naming the mandatory steps not passed, in procedure order; a failed then passed step counts', async () => {
    await guide(true);
    const { callId } = await talkingCall(t.app, agentId);
    const none = await setStatus(callId, { status: 3, outcome_reason: 'identity_verified' });
    expect(none.statusCode).toBe(400);
    expect(none.json<{ detail: string }>().detail).toContain(MANDATORY.join(', '));

    // Recorded out of order, one failed then passed, one passed then failed.
    expect((await step(callId, 'id_front', 'passed', 3000)).statusCode).toBe(201);
    expect((await step(callId, 'consent', 'passed', 1000)).statusCode).toBe(201);
    expect((await step(callId, 'face_screenshot', 'failed', 2000)).statusCode).toBe(201);
    expect((await step(callId, 'face_screenshot', 'passed', 2500)).statusCode).toBe(201);
    expect((await step(callId, 'id_back', 'passed', 4000)).statusCode).toBe(201);
    expect((await step(callId, 'id_back', 'failed', 4500)).statusCode).toBe(201);
    const some = await setStatus(callId, { status: 3, outcome_reason: 'identity_verified' });
    expect(some.statusCode).toBe(400);
    expect(some.json<{ detail: string }>().detail).toMatch(
      /: id_back, security_features, serial_number, second_channel_code, questions$/,
    );
    expect((await callOf(callId)).status).toBe(1);

    let offset = 5000;
    for (const kind of MANDATORY.slice(3))
      expect((await step(callId, kind, 'passed', offset++)).statusCode).toBe(201);
    // Every step passed, but no reason, or an abort reason for a passing status.
    const noReason = await setStatus(callId, { status: 3 });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json<{ detail: string }>().detail).toContain('decision reasons (identity_verified');
    const abortReason = await setStatus(callId, { status: 3, outcome_reason: 'light' });
    expect(abortReason.statusCode).toBe(400);
    expect(abortReason.json<{ detail: string }>().detail).toBe(
      "outcome_reason: light is not one of the company's decision reasons",
    );
    expect((await callOf(callId)).status).toBe(1);

    const done = await setStatus(callId, { status: 3, outcome_reason: 'identity_verified' });
    expect(done.statusCode).toBe(200);
    expect(done.json<VideoCall>()).toMatchObject({ status: 3, outcome_reason: 'identity_verified' });
    expect(await callOf(callId)).toMatchObject({ status: 3, outcome_reason: 'identity_verified' });
  });

  it('names only mandatory steps: an optional one left out does not block COMPLETE', async () => {
    await guide(true, (p) => {
      for (const s of p.steps) if (s.kind !== 'decision' && s.kind !== 'consent') s.mandatory = false;
    });
    const { callId } = await talkingCall(t.app, agentId);
    const refused = await setStatus(callId, { status: 3, outcome_reason: 'identity_verified' });
    expect(refused.json<{ detail: string }>().detail).toMatch(/: consent$/);
    expect((await step(callId, 'consent', 'passed', 10)).statusCode).toBe(201);
    expect((await setStatus(callId, { status: 3, outcome_reason: 'identity_verified' })).statusCode).toBe(
      200,
    );
  });

  it('saves an abort status without steps, with one of the abort reasons only', async () => {
    await guide(true);
    const { callId } = await talkingCall(t.app, agentId);
    const none = await setStatus(callId, { status: 6 });
    expect(none.statusCode).toBe(400);
    expect(none.json<{ detail: string }>().detail).toContain('abort reasons (light, picture, sound');
    const decision = await setStatus(callId, { status: 6, outcome_reason: 'identity_verified' });
    expect(decision.json<{ detail: string }>().detail).toBe(
      "outcome_reason: identity_verified is not one of the company's abort reasons",
    );
    const unknown = await setStatus(callId, { status: 6, outcome_reason: 'no_such_reason' });
    expect(unknown.statusCode).toBe(400);
    const done = await setStatus(callId, { status: 6, outcome_reason: 'light' });
    expect(done.statusCode).toBe(200);
    expect(done.json<VideoCall>()).toMatchObject({ status: 6, outcome_reason: 'light' });
  });

  it("applies to an Admin's close and correction too", async () => {
    await guide(true);
    const waiting = await createCall(t.app.ctx.db, 1, 1);
    const close = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v2/videocall/${waiting.id}/close`,
        payload: { reason: 'The customer asked to stop.', ...payload },
        headers: bearer(tokens.admin),
      });
    const complete = await close({ status: 3, outcome_reason: 'identity_verified' });
    expect(complete.statusCode).toBe(400);
    expect(complete.json<{ detail: string }>().detail).toContain('consent, face_screenshot');
    expect((await close({ status: 4 })).statusCode).toBe(400);
    expect((await callOf(waiting.id)).status).toBe(0);
    const closed = await close({ status: 4, outcome_reason: 'customer_left' });
    expect(closed.statusCode).toBe(200);
    expect(closed.json<VideoCall>()).toMatchObject({ status: 4, outcome_reason: 'customer_left' });

    const correct = (payload: object) =>
      setStatus(waiting.id, { reason: 'Wrong status chosen at first.', ...payload }, tokens.admin);
    expect((await correct({ status: 3, outcome_reason: 'identity_verified' })).statusCode).toBe(400);
    const corrected = await correct({ status: 5, outcome_reason: 'suspected_fraud' });
    expect(corrected.statusCode).toBe(200);
    expect(corrected.json<VideoCall>()).toMatchObject({ status: 5, outcome_reason: 'suspected_fraud' });
  });
});

describe('the final status of a call of a company without guidance', () => {
  it('saves COMPLETE without steps nor reason, as before; a reason id given is checked and stored', async () => {
    await guide(false);
    const plain = await talkingCall(t.app, agentId);
    const done = await setStatus(plain.callId, { status: 3 });
    expect(done.statusCode).toBe(200);
    expect(done.json<VideoCall>()).toMatchObject({ status: 3, outcome_reason: null });

    const { callId } = await talkingCall(t.app, agentId);
    const unknown = await setStatus(callId, { status: 3, outcome_reason: 'light' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ detail: string }>().detail).toBe(
      "outcome_reason: light is not one of the company's decision reasons",
    );
    expect((await callOf(callId)).status).toBe(1);
    const given = await setStatus(callId, { status: 3, outcome_reason: 'identity_verified' });
    expect(given.json<VideoCall>()).toMatchObject({ status: 3, outcome_reason: 'identity_verified' });
  });
});
