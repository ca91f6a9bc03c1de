/**
 * The step results of a call are bound to its company and its agent, and a company's identification
 * procedure to its Admins. Another company's staff learn nothing (404) and write nothing; another user
 * of the same company may read the results but never write one in the agent's name.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallStep, IdentProcedure } from '#contract/identProcedure';
import { DEFAULT_IDENT_PROCEDURE } from '#contract/identProcedure';
import {
  bearer,
  get,
  PASSWORDS,
  startTestApp,
  type TestApp,
  talkingCall,
  tokenFor,
  userId,
} from '../server/helpers';

let t: TestApp;
const tokens = { admin: '', agent: '', viewer: '', globex: '' };
const step = { kind: 'serial_number', result: 'passed', details: { serial: 'k' }, offset_ms: 1000 };

beforeAll(async () => {
  t = await startTestApp();
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.viewer = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
  tokens.globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
});
afterAll(async () => t?.close());

const postStep = (token: string, id: number, payload: object = step) =>
  t.app.inject({ method: 'POST', url: `/api/v2/videocall/${id}/steps`, payload, headers: bearer(token) });

/** Each test's own call, answered by the agent: no test reads the steps another one wrote. */
const agentsCall = async () => (await talkingCall(t.app, await userId(t.app, 'agent@acme.test'))).callId;

describe('step results of a call', () => {
  it("are written by the call's agent only: an Admin or another user of the company gets 403", async () => {
    const callId = await agentsCall();
    expect((await postStep(tokens.agent, callId)).statusCode).toBe(201);
    expect((await postStep(tokens.admin, callId)).statusCode).toBe(403);
    expect((await postStep(tokens.viewer, callId)).statusCode).toBe(403);
    const steps = await get<CallStep[]>(t.app, `/api/v2/videocall/${callId}/steps`, tokens.admin);
    expect(steps.status).toBe(200);
    expect(steps.body).toHaveLength(1);
  });

  it('are hidden from another company (404 for reading and writing), and nothing is written', async () => {
    const callId = await agentsCall();
    expect((await postStep(tokens.agent, callId)).statusCode).toBe(201);
    expect((await get(t.app, `/api/v2/videocall/${callId}/steps`, tokens.globex)).status).toBe(404);
    expect((await postStep(tokens.globex, callId)).statusCode).toBe(404);
    const steps = await get<CallStep[]>(t.app, `/api/v2/videocall/${callId}/steps`, tokens.agent);
    expect(steps.body.map((s) => s.created_by)).toEqual([await userId(t.app, 'agent@acme.test')]);
  });
});

describe("a company's identification procedure", () => {
  it("is changed by its own Admins only: a User is refused and another company's Admin changes only its own", async () => {
    const mine = { ...DEFAULT_IDENT_PROCEDURE, steps: DEFAULT_IDENT_PROCEDURE.steps.slice(1) };
    const put = (token: string) =>
      t.app.inject({ method: 'PUT', url: '/api/v2/ident_procedure', payload: mine, headers: bearer(token) });
    expect((await put(tokens.agent)).statusCode).toBe(403);
    expect((await put(tokens.globex)).statusCode).toBe(200);
    const acme = await get<IdentProcedure>(t.app, '/api/v2/ident_procedure', tokens.agent);
    expect(acme.status).toBe(200);
    expect(acme.body.is_default).toBe(true);
    expect(acme.body.steps[0]?.kind).toBe('consent');
    const globex = await get<IdentProcedure>(t.app, '/api/v2/ident_procedure', tokens.globex);
    expect(globex.body.steps[0]?.kind).toBe('face_screenshot');
  });
});
