/**
 * The customer's side of a guided call: the agent shows a step (`call.step` to the
 * customer), sends the second-channel code (e-mail outbox or the SMS stand-in), the customer types it and the
 * serial number; each entry is a step result recorded by the server, which the agent hears.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CALL_GUIDE_LIMITS,
  type CallStep,
  type CustomerGuide,
  DEFAULT_IDENT_PROCEDURE,
  type IdentProcedureBody,
} from '#contract/identProcedure';
import { documents, profiles } from '../../server/db/schema';
import { hideContact, normalSerial } from '../../server/domain/callGuide';
import { bearer, get, PASSWORDS, post, type TestApp, talkingCall, tokenFor, userId } from './helpers';
import { type LiveApp, liveApp, next } from './liveSockets';

let live: LiveApp;
let t: TestApp;
const tokens = { admin: '', agent: '' };
let agentId = 0;
let profile = 0;
const EMAIL = 'customer-one@example.test';
const PHONE = '+90 555 010 2042';
const SERIAL = 'A12-345 678';

beforeAll(async () => {
  live = await liveApp();
  t = live.t;
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  agentId = await userId(t.app, 'agent@acme.test');
  // A customer of Acme with a document on file: the serial number is compared with its number.
  const db = t.app.ctx.db;
  const [doc] = await db
    .select({ id: documents.id, profileId: documents.profileId })
    .from(documents)
    .where(eq(documents.companyId, 1))
    .limit(1);
  if (!doc) throw new Error('Acme has no document');
  profile = doc.profileId;
  await db.update(profiles).set({ email: EMAIL, phone: PHONE }).where(eq(profiles.id, profile));
  await db
    .update(documents)
    .set({ content: sql`${documents.content} || ${JSON.stringify({ DocumentNumber: 'A12345678' })}::jsonb` })
    .where(eq(documents.id, doc.id));
});
afterAll(() => live?.close());

async function procedure(channel: 'email' | 'sms' = 'email', maxTries = 3) {
  const body: IdentProcedureBody = structuredClone({ ...DEFAULT_IDENT_PROCEDURE, guided: true });
  body.steps = body.steps.map((s) =>
    s.kind === 'second_channel_code' ? { ...s, channel, max_tries: maxTries } : s,
  );
  const saved = await t.app.inject({
    method: 'PUT',
    url: '/api/v2/ident_procedure',
    payload: body,
    headers: { ...bearer(tokens.admin), 'if-match': '*' },
  });
  expect(saved.statusCode).toBe(200);
}

const showStep = (callId: number, kind: string, token = tokens.agent) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/v2/videocall/${callId}/current_step`,
    payload: { kind },
    headers: bearer(token),
  });
const sendCode = (callId: number, token = tokens.agent) =>
  post(t.app, `/api/v2/videocall/${callId}/code`, {}, token);
const enterCode = (customer: string, callId: number, code: string) =>
  post<{ accepted: boolean; tries_left: number; detail?: string }>(
    t.app,
    '/api/v2/videocall/code',
    { call_id: callId, code },
    customer,
  );
const enterSerial = (customer: string, callId: number, serial: string) =>
  post<{ accepted: boolean; tries_left: number; detail?: string }>(
    t.app,
    '/api/v2/videocall/serial_number',
    { call_id: callId, serial_number: serial },
    customer,
  );
const guideOf = (customer: string, callId: number) =>
  get<CustomerGuide>(t.app, `/api/v2/videocall/guide?call_id=${callId}`, customer);
const stepsOf = async (callId: number) =>
  (await get<CallStep[]>(t.app, `/api/v2/videocall/${callId}/steps`, tokens.admin)).body;

async function newestCode(path: string): Promise<string> {
  const { body } = await get<{ body: string }[]>(t.app, path);
  const code = /\b(\d{6})\b/.exec(body[0]?.body ?? '')?.[1];
  if (!code) throw new Error(`no code at ${path}`);
  return code;
}
const mailed = () => newestCode(`/api/dev/outbox?to=${encodeURIComponent(EMAIL)}`);
const texted = () => newestCode(`/api/dev/sms?to=${encodeURIComponent(PHONE)}`);

describe('the step the customer is shown', () => {
  it('the agent shows a step: the customer socket hears it, and the page reads it again after a reload', async () => {
    await procedure();
    const { callId, customer } = await talkingCall(t.app, agentId, profile);
    const socket = await live.connect({ customer, call_id: callId });
    const heard = next(socket, 'call.step');
    expect((await showStep(callId, 'id_back')).statusCode).toBe(204);
    expect(await heard).toEqual({ call_id: callId, kind: 'id_back' });
    const guide = await guideOf(customer, callId);
    expect(guide.status).toBe(200);
    expect(guide.body).toEqual({
      step: 'id_back',
      code: null,
      serial_tries_left: CALL_GUIDE_LIMITS.serialTries,
    });
  });

  it('only the call’s agent, while it talks, and only a step of the procedure', async () => {
    const { callId } = await talkingCall(t.app, agentId, profile);
    expect((await showStep(callId, 'id_back', tokens.admin)).statusCode).toBe(403);
    expect((await showStep(callId, 'nonsense')).statusCode).toBe(400);
    const other = await talkingCall(t.app, await userId(t.app, 'admin@acme.test'), profile);
    expect((await showStep(other.callId, 'id_front')).statusCode).toBe(403);
  });
});

describe('the second-channel code', () => {
  it('goes by e-mail; a wrong code counts a try; the right one passes the step, which the agent hears', async () => {
    await procedure('email', 3);
    const { callId, customer } = await talkingCall(t.app, agentId, profile);
    const agentSocket = await live.studio(tokens.agent);
    const customerSocket = await live.connect({ customer, call_id: callId });
    const told = next(customerSocket, 'call.code_sent');
    const sent = await sendCode(callId);
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ channel: 'email', to: hideContact(EMAIL), tries_left: 3 });
    expect(await told).toMatchObject({ call_id: callId, channel: 'email', to: 'c•••@example.test' });
    const code = await mailed();

    const wrong = code === '000000' ? '111111' : '000000';
    expect((await enterCode(customer, callId, wrong)).body).toEqual({ accepted: false, tries_left: 2 });
    expect((await guideOf(customer, callId)).body.code).toEqual({
      channel: 'email',
      to: 'c•••@example.test',
      tries_left: 2,
      sent_at: (sent.body as { sent_at: string }).sent_at,
    });
    const recorded = next(agentSocket, 'call.step_recorded');
    expect((await enterCode(customer, callId, code)).body).toEqual({ accepted: true, tries_left: 2 });
    const heard = await recorded;
    expect(heard.step).toMatchObject({ kind: 'second_channel_code', result: 'passed', created_by: null });
    expect(heard.step.offset_ms).toBeGreaterThanOrEqual(0);
    // Used: it cannot be typed again.
    expect((await enterCode(customer, callId, code)).status).toBe(409);
    expect((await stepsOf(callId)).filter((s) => s.kind === 'second_channel_code')).toHaveLength(1);
  });

  it('goes by SMS to the stand-in outbox; the last wrong try fails the step', async () => {
    await procedure('sms', 2);
    const { callId, customer } = await talkingCall(t.app, agentId, profile);
    const sent = await sendCode(callId);
    expect(sent.body).toMatchObject({ channel: 'sms', to: '•••42', tries_left: 2 });
    const code = await texted();
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await enterCode(customer, callId, wrong)).body).toEqual({ accepted: false, tries_left: 1 });
    expect((await enterCode(customer, callId, wrong)).body).toEqual({ accepted: false, tries_left: 0 });
    // Spent: even the right code is refused now, and the step failed once.
    expect((await enterCode(customer, callId, code)).status).toBe(409);
    const results = (await stepsOf(callId)).filter((s) => s.kind === 'second_channel_code');
    expect(results.map((s) => s.result)).toEqual(['failed']);
    // The stored message does not hold the code.
    const stored = await t.app.ctx.db.execute(sql`select body from sms_outbox order by id desc limit 1`);
    expect(JSON.stringify(stored)).not.toContain(code);
  });

  it('a new code replaces the previous one; a call sends at most 3', async () => {
    await procedure('email', 3);
    const { callId, customer } = await talkingCall(t.app, agentId, profile);
    expect((await sendCode(callId)).status).toBe(200);
    const first = await mailed();
    expect((await sendCode(callId)).status).toBe(200);
    const second = await mailed();
    if (first !== second) expect((await enterCode(customer, callId, first)).body.accepted).toBe(false);
    expect((await sendCode(callId)).status).toBe(200);
    const refused = await sendCode(callId);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      detail: `The code was sent ${CALL_GUIDE_LIMITS.codeSends} times already`,
    });
  });

  it('a profile without an e-mail address: 409 saying so, nothing sent', async () => {
    await procedure('email', 3);
    const other = profile === 2 ? 3 : 2;
    const { callId } = await talkingCall(t.app, agentId, other);
    await t.app.ctx.db.update(profiles).set({ email: null }).where(eq(profiles.id, other));
    const refused = await sendCode(callId);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ detail: 'The profile has no e-mail address' });
  });
});

describe('the serial number', () => {
  it('compared with the document on file, whatever spaces and dashes: passed, and the agent sees what was typed', async () => {
    await procedure();
    const { callId, customer } = await talkingCall(t.app, agentId, profile);
    const typed = await enterSerial(customer, callId, SERIAL.toLowerCase());
    expect(typed.body).toEqual({ accepted: true, tries_left: CALL_GUIDE_LIMITS.serialTries - 1 });
    const [step] = (await stepsOf(callId)).filter((s) => s.kind === 'serial_number');
    expect(step).toMatchObject({
      result: 'passed',
      created_by: null,
      details: { typed: SERIAL.toLowerCase(), matches: true, source: 'join_page' },
    });
    expect(normalSerial('a12 345-678')).toBe('A12345678');
  });

  it('a number that is not on file fails the step; three entries, then 409', async () => {
    const { callId, customer } = await talkingCall(t.app, agentId, profile);
    for (const left of [2, 1, 0])
      expect((await enterSerial(customer, callId, 'ZZ999')).body.tries_left).toBe(left);
    const refused = await enterSerial(customer, callId, SERIAL);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ detail: 'No tries left' });
    const results = (await stepsOf(callId)).filter((s) => s.kind === 'serial_number').map((s) => s.result);
    expect(results).toEqual(['failed', 'failed', 'failed']);
    expect((await guideOf(customer, callId)).body.serial_tries_left).toBe(0);
  });
});
