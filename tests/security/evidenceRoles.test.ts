/**
 * Who reads a call's evidence (docs/decisions/0198-rate-limits-and-evidence-roles.md): the step results, with
 * what the customer typed, and the screenshots need `view_calls_page`, which a Restricted User lacks; the signed
 * evidence package needs `download_evidence`, which Admins hold and an Admin grants through a group (a bank's
 * archive user, for one). Each refusal is shown next to a caller the same rule lets through.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, users } from '../../server/db/schema';
import { endedCall } from '../server/endedCall';
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
} from '../server/helpers';

let t: TestApp;
const tokens = { admin: '', agent: '', viewer: '', api: '' };
let callId = 0;
let agentId = 0;
/** The groups the seed gives the two users whom tests grant a permission, put back before every test. */
const seededGroups = new Map<string, number[]>();

beforeAll(async () => {
  t = await startTestApp();
  [tokens.admin, tokens.agent, tokens.viewer, tokens.api] = await Promise.all([
    tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin),
    tokenFor(t.app, 'agent@acme.test', PASSWORDS.user),
    tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user),
    tokenFor(t.app, 'api@acme.test', PASSWORDS.api),
  ]);
  agentId = await userId(t.app, 'agent@acme.test');
  ({ callId } = await talkingCall(t.app, agentId));
  await takeScreenshot(t.app, tokens.agent, callId, 'id_front');
  const step = await t.app.inject({
    method: 'POST',
    url: `/api/v2/videocall/${callId}/steps`,
    headers: bearer(tokens.agent),
    payload: { kind: 'serial_number', result: 'passed', details: { serial: 'A12345678' }, offset_ms: 1000 },
  });
  expect(step.statusCode, step.body).toBe(201);
  for (const email of ['viewer@acme.test', 'api@acme.test']) {
    const user = await get<{ groups: { id: number }[] }>(
      t.app,
      `/api/v2/user/${await userId(t.app, email)}`,
      tokens.admin,
    );
    seededGroups.set(
      email,
      user.body.groups.map((g) => g.id),
    );
  }
});
// A grant made by one test must not decide what another test's caller may do.
beforeEach(async () => {
  for (const [email, groups] of seededGroups) await setGroups(email, groups);
});
afterAll(async () => {
  await t?.close();
});

/** Sets the user's groups (the Admin confirms with their password). */
async function setGroups(email: string, groups: number[]) {
  const id = await userId(t.app, email);
  const patched = await t.app.inject({
    method: 'PATCH',
    url: `/api/v2/user/${id}`,
    headers: bearer(tokens.admin),
    payload: { password: PASSWORDS.admin, groups },
  });
  expect(patched.statusCode, patched.body).toBe(200);
}

/** Puts the user in one new group holding `permissions`. */
async function grant(email: string, permissions: string[]) {
  const group = await t.app.inject({
    method: 'POST',
    url: '/api/v2/group',
    headers: bearer(tokens.admin),
    payload: { name: `Granted ${randomUUID().slice(0, 8)}`, permissions },
  });
  expect(group.statusCode, group.body).toBe(201);
  await setGroups(email, [group.json<{ id: number }>().id]);
}

describe("a call's step results and screenshots", () => {
  const reads = () => [`/api/v2/videocall/${callId}/steps`, `/api/v2/videocall/${callId}/screenshots`];

  it('are refused to a Restricted User (403), who may still read the profile', async () => {
    for (const url of reads()) expect((await get(t.app, url, tokens.viewer)).status, url).toBe(403);
    expect((await get(t.app, '/api/v2/profile/1', tokens.viewer)).status).toBe(200);
  });

  it('are read by the users with the calls permission: the agent and an Admin, serial number included', async () => {
    for (const token of [tokens.agent, tokens.admin]) {
      for (const url of reads()) expect((await get(t.app, url, token)).status, url).toBe(200);
      const steps = await get<{ details: unknown }[]>(t.app, reads()[0] as string, token);
      expect(steps.body.map((s) => s.details)).toEqual([{ serial: 'A12345678' }]);
    }
  });
});

describe("a call's evidence package", () => {
  // Each test downloads the package of its own ended call, so the audit lines it reads are its own.
  let endedCallId = 0;
  beforeEach(async () => {
    endedCallId = await endedCall(t.app, agentId);
  });
  const download = (token: string) =>
    t.app.inject({ method: 'GET', url: `/api/v2/videocall/${endedCallId}/evidence`, headers: bearer(token) });
  const downloadedBy = async () =>
    (
      await t.app.ctx.db
        .select({ actor: auditLog.actorEmail })
        .from(auditLog)
        .where(and(eq(auditLog.action, 'evidence_downloaded'), eq(auditLog.objectId, String(endedCallId))))
    ).map((row) => row.actor);

  it('is refused without download_evidence: to a Restricted User, to the call\u2019s own agent and to the API user', async () => {
    for (const token of [tokens.viewer, tokens.agent, tokens.api]) {
      const refused = await download(token);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ detail: 'You do not have permission to perform this action' });
    }
    expect(await downloadedBy()).toEqual([]);
  });

  it('is downloaded by an Admin', async () => {
    expect((await download(tokens.admin)).statusCode).toBe(200);
    expect(await downloadedBy()).toEqual(['admin@acme.test']);
  });

  it('is downloaded by the API user once an Admin grants download_evidence through a group (next request)', async () => {
    await grant('api@acme.test', ['download_evidence']);
    const me = await get<{ permissions: string[] }>(
      t.app,
      `/api/v2/user/${await userId(t.app, 'api@acme.test')}`,
      tokens.api,
    );
    expect(me.body.permissions).toContain('download_evidence');
    const archived = await download(tokens.api);
    expect(archived.statusCode).toBe(200);
    expect(archived.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect(await downloadedBy()).toContain('api@acme.test');
  });

  it('is a permission, not a role: a Restricted User granted view_calls_page reads the steps', async () => {
    await grant('viewer@acme.test', ['view_calls_page']);
    expect((await get(t.app, `/api/v2/videocall/${callId}/steps`, tokens.viewer)).status).toBe(200);
    expect((await download(tokens.viewer)).statusCode).toBe(403);
  });
});

describe('the permission itself', () => {
  it('is held by Admins by their role, not by Users', async () => {
    const admin = await get<{ permissions: string[] }>(
      t.app,
      `/api/v2/user/${await userId(t.app, 'admin@acme.test')}`,
      tokens.admin,
    );
    expect(admin.body.permissions).toContain('download_evidence');
    const [agent] = await t.app.ctx.db.select().from(users).where(eq(users.email, 'agent@acme.test'));
    const read = await get<{ permissions: string[] }>(t.app, `/api/v2/user/${agent?.id}`, tokens.agent);
    expect(read.body.permissions).not.toContain('download_evidence');
  });
});
