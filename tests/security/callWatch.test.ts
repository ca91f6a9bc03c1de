/**
 * Nobody without `monitor_calls` watches a call, on the socket or over HTTP: Restricted Users and API users (even
 * granted the permission), agents without it, other companies' staff. A watcher takes no part in the
 * agent–customer connection, and nothing it sends reaches the customer.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, userGroups } from '../../server/db/schema';
import { heardOf, type WatchWorld, watchWorld } from '../server/callWatchSupport';
import { bearer, PASSWORDS, talkingCall, tokenFor, userId } from '../server/helpers';

let w: WatchWorld;
const tokens = { admin: '', agent: '', viewer: '', api: '', globex: '' };
const ids = { admin: 0, agent: 0, viewer: 0, api: 0, globex: 0 };
const seededGroups = new Map<string, number[]>();
const REFUSED = { detail: 'You do not have permission to perform this action' };

beforeAll(async () => {
  w = await watchWorld();
  const app = w.t.app;
  [tokens.admin, tokens.agent, tokens.viewer, tokens.api, tokens.globex] = await Promise.all([
    tokenFor(app, 'admin@acme.test', PASSWORDS.admin),
    tokenFor(app, 'agent@acme.test', PASSWORDS.user),
    tokenFor(app, 'viewer@acme.test', PASSWORDS.user),
    tokenFor(app, 'api@acme.test', PASSWORDS.api),
    tokenFor(app, 'admin@globex.test', PASSWORDS.admin),
  ]);
  for (const [key, email] of [
    ['admin', 'admin@acme.test'],
    ['agent', 'agent@acme.test'],
    ['viewer', 'viewer@acme.test'],
    ['api', 'api@acme.test'],
    ['globex', 'admin@globex.test'],
  ] as const) {
    ids[key] = await userId(app, email);
    if (key !== 'admin' && key !== 'globex') {
      const rows = await app.ctx.db.select().from(userGroups).where(eq(userGroups.userId, ids[key]));
      seededGroups.set(
        email,
        rows.map((row) => row.groupId),
      );
    }
  }
});
// A grant made by one test must not decide what another test's caller may do.
beforeEach(async () => {
  for (const [email, groups] of seededGroups) await setGroups(email, groups);
});
afterAll(async () => {
  await w?.close();
});

async function setGroups(email: string, groups: number[]) {
  const patched = await w.t.app.inject({
    method: 'PATCH',
    url: `/api/v2/user/${await userId(w.t.app, email)}`,
    headers: bearer(tokens.admin),
    payload: { password: PASSWORDS.admin, groups },
  });
  expect(patched.statusCode, patched.body).toBe(200);
}

/** Puts the user in one new group holding monitor_calls (and keeps their seeded groups). */
async function grantMonitor(email: string) {
  const group = await w.t.app.inject({
    method: 'POST',
    url: '/api/v2/group',
    headers: bearer(tokens.admin),
    payload: { name: `Supervisors ${randomUUID().slice(0, 8)}`, permissions: ['monitor_calls'] },
  });
  expect(group.statusCode, group.body).toBe(201);
  await setGroups(email, [...(seededGroups.get(email) ?? []), group.json<{ id: number }>().id]);
}

const http = (method: 'POST' | 'DELETE' | 'GET', url: string, token: string, payload?: object) =>
  w.t.app.inject({ method, url: `/api/v2${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });

/** Every HTTP way into watching a call, for one caller. */
const everyWay = (callId: number, token: string) => [
  http('POST', `/videocall/${callId}/watch`, token),
  http('DELETE', `/videocall/${callId}/watch`, token),
  http('POST', `/videocall/${callId}/whispers`, token, { text: 'hello' }),
  http('GET', '/videocall/watching', token),
];

describe('over HTTP', () => {
  it('refuses a Restricted User, an API user and an agent without monitor_calls (403), and watches nothing', async () => {
    const { callId } = await talkingCall(w.t.app, ids.admin, 20);
    for (const token of [tokens.viewer, tokens.api, tokens.agent])
      for (const answer of await Promise.all(everyWay(callId, token))) {
        expect(answer.statusCode, answer.body).toBe(403);
        expect(answer.json()).toEqual(REFUSED);
      }
    const started = await w.t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'call_watch_started'), eq(auditLog.objectId, String(callId))));
    expect(started).toEqual([]);
  });

  it('refuses a Restricted User and an API user even when a group grants monitor_calls', async () => {
    const { callId } = await talkingCall(w.t.app, ids.admin, 21);
    for (const email of ['viewer@acme.test', 'api@acme.test']) await grantMonitor(email);
    for (const token of [tokens.viewer, tokens.api])
      for (const answer of await Promise.all(everyWay(callId, token))) expect(answer.statusCode).toBe(403);
  });

  it('lets an agent watch once a group grants monitor_calls: a permission, not a role', async () => {
    const { callId } = await talkingCall(w.t.app, ids.admin, 22);
    await grantMonitor('agent@acme.test');
    expect((await http('POST', `/videocall/${callId}/watch`, tokens.agent)).statusCode).toBe(201);
    expect((await http('DELETE', `/videocall/${callId}/watch`, tokens.agent)).statusCode).toBe(204);
  });

  it("does not show another company's call to its staff (404), nor its watchers or whispers", async () => {
    const { callId } = await talkingCall(w.t.app, ids.agent, 23);
    for (const answer of await Promise.all([
      http('POST', `/videocall/${callId}/watch`, tokens.globex),
      http('DELETE', `/videocall/${callId}/watch`, tokens.globex),
      http('POST', `/videocall/${callId}/whispers`, tokens.globex, { text: 'hello' }),
      http('GET', `/videocall/${callId}/watchers`, tokens.globex),
      http('GET', `/videocall/${callId}/whispers`, tokens.globex),
    ]))
      expect(answer.statusCode, answer.body).toBe(404);
  });

  it('keeps whispers from a Restricted User (403) and refuses the setting to non-Admins', async () => {
    const { callId } = await talkingCall(w.t.app, ids.agent, 24);
    expect((await http('GET', `/videocall/${callId}/whispers`, tokens.viewer)).statusCode).toBe(403);
    expect((await http('GET', `/videocall/${callId}/watchers`, tokens.viewer)).statusCode).toBe(403);
    const put = await w.t.app.inject({
      method: 'PUT',
      url: '/api/v2/call_watch',
      headers: bearer(tokens.agent),
      payload: { customer_notice: false },
    });
    expect(put.statusCode).toBe(403);
  });
});

describe('on the socket', () => {
  it('refuses the watch channel to anyone without a grant, and to the customer', async () => {
    const agent = await w.staff(ids.agent);
    const { callId, room, customer } = await w.liveCall(agent, 25);
    const refused = { ok: false, detail: 'Not your call' };
    // Without monitor_calls, another company's admin, and an Admin who holds no grant for the call.
    const others = [
      await w.staff(ids.viewer),
      await w.staff(ids.globex, { companyId: 2 }),
      await w.staff(ids.admin),
    ];
    const plainAgent = await w.staff(ids.agent);
    for (const other of [...others, plainAgent]) {
      expect(await other.socket.emitWithAck('watch.join', { call_id: callId })).toEqual(refused);
      expect(
        await other.socket.emitWithAck('watch.signal', {
          call_id: callId,
          data: { type: 'answer', sdp: 'x' },
        }),
      ).toEqual(refused);
    }
    // Nobody but the call's agent may signal to a watcher, whose channel nobody else may join.
    expect((await http('POST', `/videocall/${callId}/watch`, tokens.admin)).statusCode).toBe(201);
    for (const other of others)
      expect(
        await other.socket.emitWithAck('watch.signal', {
          call_id: callId,
          watcher_id: ids.admin,
          data: { type: 'offer', sdp: 'x' },
        }),
      ).toEqual(refused);
    // The customer takes no part in watching.
    expect(await customer.socket.emitWithAck('watch.join', { call_id: callId })).toEqual(refused);
    expect(
      await customer.socket.emitWithAck('watch.signal', {
        call_id: callId,
        watcher_id: ids.admin,
        data: { a: 1 },
      }),
    ).toEqual(refused);

    // A watcher with a grant joins its channel, but never the agent–customer room, and its signals reach the
    // agent alone.
    const watcher = await w.staff(ids.admin);
    expect(await watcher.socket.emitWithAck('watch.join', { call_id: callId })).toMatchObject({ ok: true });
    expect(await watcher.socket.emitWithAck('signal.join', { room })).toEqual(refused);
    expect(
      await watcher.socket.emitWithAck('signal.send', { room, data: { type: 'offer', sdp: 'x' } }),
    ).toEqual({
      ok: false,
      detail: 'Join the room first',
    });
    expect(
      await watcher.socket.emitWithAck('watch.signal', {
        call_id: callId,
        data: { type: 'answer', sdp: 'y' },
      }),
    ).toEqual({
      ok: true,
    });
    await expect.poll(() => heardOf(agent.heard, 'watch.signal')).toHaveLength(1);
    // Posing as the agent (naming a watcher) is refused to the watcher itself.
    expect(
      await watcher.socket.emitWithAck('watch.signal', {
        call_id: callId,
        watcher_id: ids.admin,
        data: { a: 1 },
      }),
    ).toEqual(refused);
    expect(heardOf(customer.heard, 'signal.message')).toEqual([]);
    expect(JSON.stringify(customer.heard)).not.toMatch(/watch|whisper/);
    await agent.socket.emitWithAck('call.hangup', { call_id: callId });
  });

  it('ends the watches of a user who loses monitor_calls, and refuses their channel from then on', async () => {
    await grantMonitor('agent@acme.test');
    const { callId } = await talkingCall(w.t.app, ids.admin, 26);
    expect((await http('POST', `/videocall/${callId}/watch`, tokens.agent)).statusCode).toBe(201);
    const watcher = await w.staff(ids.agent);
    expect(await watcher.socket.emitWithAck('watch.join', { call_id: callId })).toMatchObject({ ok: true });
    await setGroups('agent@acme.test', seededGroups.get('agent@acme.test') ?? []);
    await expect
      .poll(() => heardOf(watcher.heard, 'watch.ended'))
      .toContainEqual(expect.objectContaining({ call_id: callId, reason: 'access' }));
    expect(await watcher.socket.emitWithAck('watch.join', { call_id: callId })).toEqual({
      ok: false,
      detail: 'Not your call',
    });
  });
});
