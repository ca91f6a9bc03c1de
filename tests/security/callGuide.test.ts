/**
 * The customer's side of a guided call, as an attacker would try it: another customer's join link,
 * another company's, a staff token on the customer's routes, an agent on a colleague's call, and every input at
 * the extremes of its type. Each answers 4xx and records nothing.
 */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_IDENT_PROCEDURE, type IdentProcedureBody } from '#contract/identProcedure';
import { oneTimeCodes, videoCallSteps, videoCalls } from '../../server/db/schema';
import {
  bearer,
  PASSWORDS,
  startTestApp,
  type TestApp,
  talkingCall,
  tokenFor,
  userId,
} from '../server/helpers';

let t: TestApp;
const tokens = { admin: '', agent: '' };
let agentId = 0;

beforeAll(async () => {
  t = await startTestApp();
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  agentId = await userId(t.app, 'agent@acme.test');
  const body: IdentProcedureBody = { ...structuredClone(DEFAULT_IDENT_PROCEDURE), guided: true };
  const saved = await t.app.inject({
    method: 'PUT',
    url: '/api/v2/ident_procedure',
    payload: body,
    headers: { ...bearer(tokens.admin), 'if-match': '*' },
  });
  expect(saved.statusCode).toBe(200);
});
afterAll(async () => t?.close());

const call = (method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

/** What an attempt could have changed: the call's steps, its codes, its shown step. */
async function traces(callId: number) {
  const [steps] = await t.app.ctx.db
    .select({ n: count() })
    .from(videoCallSteps)
    .where(eq(videoCallSteps.callId, callId));
  const [codes] = await t.app.ctx.db
    .select({ n: count() })
    .from(oneTimeCodes)
    .where(eq(oneTimeCodes.email, `call:${callId}`));
  const [row] = await t.app.ctx.db
    .select({ step: videoCalls.currentStep })
    .from(videoCalls)
    .where(eq(videoCalls.id, callId));
  return { steps: steps?.n, codes: codes?.n, step: row?.step };
}

describe('who may', () => {
  it('another customer of the company, or another company’s join link: 404 on every route, nothing recorded', async () => {
    const { callId } = await talkingCall(t.app, agentId, 1);
    const before = await traces(callId);
    const strangers = [
      await t.app.ctx.tokens.signCustomer({ profile_id: 2, company_id: 1 }, 3600),
      await t.app.ctx.tokens.signCustomer({ profile_id: 1, company_id: 2 }, 3600),
    ];
    for (const stranger of strangers) {
      expect((await call('GET', `/api/v2/videocall/guide?call_id=${callId}`, stranger)).statusCode).toBe(404);
      expect(
        (
          await call('POST', '/api/v2/videocall/serial_number', stranger, {
            call_id: callId,
            serial_number: 'X1',
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (await call('POST', '/api/v2/videocall/code', stranger, { call_id: callId, code: '123456' }))
          .statusCode,
      ).toBe(404);
    }
    expect(await traces(callId)).toEqual(before);
  });

  it('a staff token on the customer’s routes, a customer token on the agent’s: refused', async () => {
    const { callId, customer } = await talkingCall(t.app, agentId, 1);
    const before = await traces(callId);
    const staff = await call('POST', '/api/v2/videocall/serial_number', tokens.agent, {
      call_id: callId,
      serial_number: 'X1',
    });
    expect([401, 403]).toContain(staff.statusCode);
    const shown = await call('PUT', `/api/v2/videocall/${callId}/current_step`, customer, {
      kind: 'id_front',
    });
    expect([401, 403]).toContain(shown.statusCode);
    const sent = await call('POST', `/api/v2/videocall/${callId}/code`, customer);
    expect([401, 403]).toContain(sent.statusCode);
    expect(await traces(callId)).toEqual(before);
  });

  it('an agent on a colleague’s call, an Admin included: 403; another company’s call: 404', async () => {
    const { callId } = await talkingCall(t.app, agentId, 1);
    const before = await traces(callId);
    expect((await call('POST', `/api/v2/videocall/${callId}/code`, tokens.admin)).statusCode).toBe(403);
    expect(
      (await call('PUT', `/api/v2/videocall/${callId}/current_step`, tokens.admin, { kind: 'id_front' }))
        .statusCode,
    ).toBe(403);
    const globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
    expect((await call('POST', `/api/v2/videocall/${callId}/code`, globex)).statusCode).toBe(404);
    expect(await traces(callId)).toEqual(before);
  });
});

describe('inputs at the extremes', () => {
  it('call ids, codes, serial numbers and kinds out of their types: 400, never 500, nothing recorded', async () => {
    const { callId, customer } = await talkingCall(t.app, agentId, 1);
    const before = await traces(callId);
    const ids = [2 ** 53, 2 ** 31, -1, 0, 1.5, '1e3', '7', null, 'x\u0000'];
    for (const id of ids) {
      const serial = await call('POST', '/api/v2/videocall/serial_number', customer, {
        call_id: id,
        serial_number: 'A1',
      });
      expect(serial.statusCode, `serial call_id ${String(id)}`).toBe(400);
      const code = await call('POST', '/api/v2/videocall/code', customer, { call_id: id, code: '123456' });
      expect(code.statusCode, `code call_id ${String(id)}`).toBe(400);
    }
    for (const query of ['9007199254740992', '-1', '1e3x', '%00', '']) {
      const guide = await call('GET', `/api/v2/videocall/guide?call_id=${query}`, customer);
      expect(guide.statusCode, `guide call_id ${query}`).toBe(400);
    }
    for (const serial of ['', ' ', 'A\u0000B', 'x'.repeat(41), 12345, null])
      expect(
        (
          await call('POST', '/api/v2/videocall/serial_number', customer, {
            call_id: callId,
            serial_number: serial,
          })
        ).statusCode,
        `serial ${JSON.stringify(serial)}`,
      ).toBe(400);
    for (const code of ['12345', '1234567', '12345\u0000', 'abcdef', '١٢٣٤٥٦', 123456, ''])
      expect(
        (await call('POST', '/api/v2/videocall/code', customer, { call_id: callId, code })).statusCode,
        `code ${JSON.stringify(code)}`,
      ).toBe(400);
    for (const kind of ['nonsense', 'id_front\u0000', '', 7])
      expect(
        (await call('PUT', `/api/v2/videocall/${callId}/current_step`, tokens.agent, { kind })).statusCode,
        `kind ${JSON.stringify(kind)}`,
      ).toBe(400);
    for (const path of ['9007199254740992', '-1', '1e3', '2147483648'])
      expect(
        (await call('POST', `/api/v2/videocall/${path}/code`, tokens.agent)).statusCode,
        `code path ${path}`,
      ).toBeLessThan(500);
    expect(await traces(callId)).toEqual(before);
  });

  it('a code cannot be guessed: after the tries, even the right code is refused', async () => {
    const { callId, customer } = await talkingCall(t.app, agentId, 1);
    await t.app.ctx.db.execute(
      // The demo profile may have no e-mail address: give it one, so a code can be sent.
      `update profiles set email = 'guess@example.test' where id = 1`,
    );
    expect((await call('POST', `/api/v2/videocall/${callId}/code`, tokens.agent)).statusCode).toBe(200);
    let accepted = 0;
    for (let guess = 0; guess < 10; guess++) {
      const tried = await call('POST', '/api/v2/videocall/code', customer, {
        call_id: callId,
        code: String(guess).padStart(6, '0'),
      });
      if (tried.statusCode === 200 && tried.json<{ accepted: boolean }>().accepted) accepted += 1;
    }
    // The default procedure allows 3 tries: at most 3 guesses were checked at all (1 in 333,333 to win).
    const steps = await t.app.ctx.db.select().from(videoCallSteps).where(eq(videoCallSteps.callId, callId));
    expect(steps.filter((s) => s.kind === 'second_channel_code')).toHaveLength(1);
    expect(accepted).toBeLessThanOrEqual(1);
  });
});
