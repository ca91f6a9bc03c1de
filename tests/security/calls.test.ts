/**
 * Probes of the call path: a call's room holds its two people only, the room id is learnt from the answer
 * alone, `call.incoming` reaches only staff who may take calls, API users and Restricted Users never go
 * Online, answer or join, and only an admin closes someone else's call or corrects a final status (audited
 * with before and after).
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueuedCall } from '#contract/socket';
import { hashPassword } from '../../server/auth/passwords';
import { auditLog, users, videoCalls } from '../../server/db/schema';
import { bearer, FAST_CALLS, PASSWORDS, type TestApp, tokenFor, userId } from '../server/helpers';
import { type LiveApp, liveApp } from '../server/liveSockets';

let live: LiveApp;
let t: TestApp;
const tokens = { admin: '', agent: '', viewer: '', api: '' };
const ids = { admin: 0, agent: 0, viewer: 0, api: 0, other: 0 };

beforeAll(async () => {
  // The grace periods outlast the test (a loaded machine is slow): nobody's call is closed behind its back.
  live = await liveApp({
    calls: { ...FAST_CALLS, agentGraceMs: 60_000, customerGraceMs: 60_000, unattachedCallMs: 60_000 },
  });
  t = live.t;
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  tokens.viewer = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
  tokens.api = await tokenFor(t.app, 'api@acme.test', PASSWORDS.api);
  ids.admin = await userId(t.app, 'admin@acme.test');
  ids.agent = await userId(t.app, 'agent@acme.test');
  ids.viewer = await userId(t.app, 'viewer@acme.test');
  ids.api = await userId(t.app, 'api@acme.test');
  const [other] = await t.app.ctx.db
    .insert(users)
    .values({
      companyId: 1,
      email: 'other-agent@acme.test',
      firstName: 'Other',
      lastName: 'Agent',
      passwordHash: await hashPassword('Other@2026', t.app.ctx.config.argon2),
      role: 'User',
    })
    .returning({ id: users.id });
  ids.other = other?.id ?? 0;
});
afterAll(() => live.close());

/** A staff socket of a user (Online first when asked), recording every call event and signal it receives. */
const staff = (user: number, online = false) => live.staff(user, { online });
const customer = (profile: number) => live.customer(profile);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const callRow = async (id: number) =>
  (await t.app.ctx.db.select().from(videoCalls).where(eq(videoCalls.id, id)))[0];

describe('a room holds two', () => {
  it('rings only staff who may take calls, never with the room; only the winner learns it and may join', async () => {
    const winner = await staff(ids.agent, true);
    const other = await staff(ids.other, true);
    const viewer = await staff(ids.viewer);
    const api = await staff(ids.api);
    const incoming = new Promise<QueuedCall>((resolve) => other.socket.once('call.incoming', resolve));
    const waiting = await customer(3);
    const rung = await incoming;
    expect(rung.call_id).toBe(waiting.call.id);
    expect(rung).not.toHaveProperty('room_id');
    expect(JSON.stringify(rung)).not.toContain(waiting.call.room_id);

    // A Restricted User and an API user neither hear the queue nor may read it or answer.
    expect(await viewer.socket.emitWithAck('queue.sync')).toEqual({
      ok: false,
      detail: 'You may not take calls',
    });
    expect(await api.socket.emitWithAck('call.answer', { call_id: waiting.call.id })).toEqual({
      ok: false,
      detail: 'You may not take calls',
    });
    expect(await viewer.socket.emitWithAck('call.answer', { call_id: waiting.call.id })).toEqual({
      ok: false,
      detail: 'You may not take calls',
    });

    const answer = await winner.socket.emitWithAck('call.answer', { call_id: waiting.call.id });
    expect(answer).toMatchObject({
      ok: true,
      call: { call_id: waiting.call.id, room_id: waiting.call.room_id },
    });
    const room = waiting.call.room_id;

    // Everyone else who knows the room id (read from the database here) is refused the room and cannot send.
    for (const intruder of [other, viewer, api]) {
      expect(await intruder.socket.emitWithAck('signal.join', { room })).toEqual({
        ok: false,
        detail: 'Not your call',
      });
      expect(
        await intruder.socket.emitWithAck('signal.send', { room, data: { type: 'answer', sdp: 'x' } }),
      ).toEqual({ ok: false, detail: 'Join the room first' });
    }
    expect(await winner.socket.emitWithAck('signal.join', { room })).toMatchObject({ ok: true });
    expect(
      await winner.socket.emitWithAck('signal.send', { room, data: { type: 'offer', sdp: 'v=0 secret' } }),
    ).toEqual({ ok: true });
    await expect
      .poll(() => waiting.heard.filter((h) => h.event === 'signal.message').map((h) => h.payload))
      .toEqual([{ room, from: winner.socket.id, data: { type: 'offer', sdp: 'v=0 secret' } }]);
    await sleep(200);
    for (const intruder of [other, viewer, api]) {
      const seen = JSON.stringify(intruder.heard);
      expect(seen).not.toContain('v=0 secret');
      expect(seen).not.toContain(room);
    }
    // Nothing the intruders sent reached the customer: only the agent's offer.
    expect(waiting.heard.filter((h) => h.event === 'signal.message')).toHaveLength(1);
    // The room was never broadcast to anyone.
    expect(JSON.stringify(other.heard)).not.toContain(room);
    await winner.socket.emitWithAck('call.hangup', { call_id: waiting.call.id });
  });
});

describe('who may take calls', () => {
  it('never lets an API user or a Restricted User go Online, nor an admin make them', async () => {
    for (const token of [tokens.api, tokens.viewer]) {
      const online = await t.app.inject({
        method: 'POST',
        url: '/api/v2/videocall/agent_status',
        headers: bearer(token),
        payload: { status: 'Online' },
      });
      expect(online.statusCode).toBe(403);
    }
    for (const user of [ids.api, ids.viewer]) {
      const made = await t.app.inject({
        method: 'POST',
        url: '/api/v2/videocall/agent_status',
        headers: bearer(tokens.admin),
        payload: { status: 'Online', user },
      });
      expect(made.statusCode).toBe(403);
      expect(made.json()).toEqual({ detail: 'You may not take calls' });
    }
    const statuses = await t.app.ctx.db
      .select({ status: users.agentStatus })
      .from(users)
      .where(eq(users.id, ids.api));
    expect(statuses[0]?.status).toBe('Offline');
  });

  it('stops ringing a connected agent made a Restricted User, without a reconnect', async () => {
    const demoted = await staff(ids.other, true);
    const change = (role: string) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/v2/user/${ids.other}`,
        headers: bearer(tokens.admin),
        payload: { password: PASSWORDS.admin, role },
      });
    expect((await change('Restricted User')).statusCode).toBe(200);
    const waiting = await customer(3);
    // Another agent of the company hears the call ring; the demoted one's socket, still connected, does not.
    const agent = await staff(ids.agent, true);
    await expect.poll(() => agent.socket.emitWithAck('queue.sync')).toMatchObject({ ok: true });
    await sleep(300);
    expect(demoted.socket.connected).toBe(true);
    expect(demoted.heard.filter((h) => h.event === 'call.incoming')).toEqual([]);
    waiting.socket.disconnect();
    expect((await change('User')).statusCode).toBe(200);
  });
});

describe('closing and correcting a call', () => {
  it('lets only manage_calls close a talking call, with a status and a reason, audited; only an Admin corrects', async () => {
    const agent = await staff(ids.agent, true);
    const waiting = await customer(4);
    await expect
      .poll(async () => (await agent.socket.emitWithAck('call.answer', { call_id: waiting.call.id })).ok)
      .toBe(true);
    const close = (token: string, body: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v2/videocall/${waiting.call.id}/close`,
        headers: bearer(token),
        payload: body,
      });
    expect((await close(tokens.agent, { status: 8, reason: 'The agent left the desk' })).statusCode).toBe(
      403,
    );
    expect((await close(tokens.admin, { status: 8, reason: 'short' })).statusCode).toBe(400);
    expect((await callRow(waiting.call.id))?.status).toBe(1);

    const closedForAgent = new Promise((resolve) => agent.socket.once('call.closed', resolve));
    const ended = new Promise((resolve) => waiting.socket.once('call.ended', resolve));
    const closed = await close(tokens.admin, { status: 8, reason: 'Left talking after a crash' });
    expect(closed.statusCode).toBe(200);
    expect(closed.json()).toMatchObject({ status: 8, end_reason: 'closed_by_admin' });
    expect(await closedForAgent).toEqual({ call_id: waiting.call.id, status: 8, reason: 'closed_by_admin' });
    await ended;
    expect((await close(tokens.admin, { status: 3, reason: 'Closing it once more' })).statusCode).toBe(409);
    // The agent is free again (the server says so).
    expect(t.app.ctx.calls.callOf(ids.agent)).toBeUndefined();

    // The agent cannot set a status on a call closed without them; an Admin corrects, with a reason.
    const put = (token: string, body: Record<string, unknown>) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v2/videocall/${waiting.call.id}`,
        headers: bearer(token),
        payload: body,
      });
    expect((await put(tokens.agent, { status: 3 })).statusCode).toBe(409);
    expect((await put(tokens.admin, { status: 3 })).statusCode).toBe(400);
    const corrected = await put(tokens.admin, { status: 3, reason: 'The identification was complete' });
    expect(corrected.statusCode).toBe(200);
    expect(corrected.json()).toMatchObject({ status: 3 });

    const audit = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.objectType, 'videocall'), eq(auditLog.objectId, String(waiting.call.id))));
    const closeEntry = audit.find((a) => a.action === 'call_closed');
    expect(closeEntry).toMatchObject({ actorId: ids.admin });
    expect(closeEntry?.before).toMatchObject({ status: 1 });
    expect(closeEntry?.after).toMatchObject({ status: 8, reason: 'closed_by_admin' });
    const correction = audit.find((a) => a.action === 'call_status_corrected');
    expect(correction?.before).toMatchObject({ status: 8 });
    expect(correction?.after).toMatchObject({ status: 3, reason: 'The identification was complete' });
  });

  it("answers an Admin in its own call, closed behind it, as the call's agent: 409, not a correction", async () => {
    // The truth test found it: a restart closed an Admin's call, its wrap-up then asked for a correction reason.
    const admin = await staff(ids.admin, true);
    const waiting = await customer(6);
    await expect
      .poll(async () => (await admin.socket.emitWithAck('call.answer', { call_id: waiting.call.id })).ok)
      .toBe(true);
    const closed = await t.app.inject({
      method: 'POST',
      url: `/api/v2/videocall/${waiting.call.id}/close`,
      headers: bearer(tokens.admin),
      payload: { status: 8, reason: 'Closed as a restart would' },
    });
    expect(closed.statusCode).toBe(200);
    const wrapUp = await t.app.inject({
      method: 'PUT',
      url: `/api/v2/videocall/${waiting.call.id}`,
      headers: bearer(tokens.admin),
      payload: { status: 3 },
    });
    expect(wrapUp.statusCode).toBe(409);
    expect(wrapUp.json()).toMatchObject({ detail: 'The call is already closed' });
    expect((await callRow(waiting.call.id))?.status).toBe(8);
    // What the studio reads again after its socket comes back: the call, closed and why; never another
    // company's call.
    const read = (token: string) =>
      t.app.inject({ method: 'GET', url: `/api/v2/videocall/${waiting.call.id}`, headers: bearer(token) });
    expect((await read(tokens.agent)).json()).toMatchObject({ status: 8, end_reason: 'closed_by_admin' });
    const stranger = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
    expect((await read(stranger)).statusCode).toBe(404);
  });

  it('lets the agent set the final status once; another user can never change it', async () => {
    const agent = await staff(ids.agent, true);
    const waiting = await customer(5);
    await expect
      .poll(async () => (await agent.socket.emitWithAck('call.answer', { call_id: waiting.call.id })).ok)
      .toBe(true);
    const put = (token: string, status: number) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/v2/videocall/${waiting.call.id}`,
        headers: bearer(token),
        payload: { status },
      });
    expect((await put(tokens.agent, 3)).statusCode).toBe(200);
    // A retry of the same request changes nothing; another status from the agent is refused.
    expect((await put(tokens.agent, 3)).statusCode).toBe(200);
    expect((await put(tokens.agent, 9)).statusCode).toBe(409);
    const user = await tokenFor(t.app, 'other-agent@acme.test', 'Other@2026');
    expect((await put(user, 9)).statusCode).toBe(403);
    expect((await callRow(waiting.call.id))?.status).toBe(3);
  });
});
