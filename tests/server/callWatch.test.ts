/**
 * Supervisors watch live calls: the grant, the watch channel between the watcher and the call's agent, who
 * watches (the agent always knows), whispers, the end of a watch, the company's notice, and the evidence.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallQuality } from '#contract/callQuality';
import type { CallWatcher, WatchGrant, Whisper } from '#contract/callWatch';
import { auditLog, videoCallWatches } from '../../server/db/schema';
import { callFacts, callJson } from '../../server/domain/evidencePackage';
import { heardOf, type WatchWorld, watchWorld } from './callWatchSupport';
import { bearer, PASSWORDS, talkingCall, tokenFor, userId } from './helpers';

let w: WatchWorld;
const tokens = { admin: '', agent: '' };
const ids = { admin: 0, agent: 0 };

beforeAll(async () => {
  w = await watchWorld(300);
  tokens.admin = await tokenFor(w.t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.agent = await tokenFor(w.t.app, 'agent@acme.test', PASSWORDS.user);
  ids.admin = await userId(w.t.app, 'admin@acme.test');
  ids.agent = await userId(w.t.app, 'agent@acme.test');
});
afterAll(async () => {
  await w?.close();
});

const call = (method: 'POST' | 'DELETE' | 'GET' | 'PUT', url: string, token: string, payload?: object) =>
  w.t.app.inject({ method, url: `/api/v2${url}`, headers: bearer(token), ...(payload ? { payload } : {}) });

const audits = async (callId: number, action: string) =>
  w.t.app.ctx.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.objectId, String(callId))));

describe('watching a live call', () => {
  it('grants, tells the agent, carries signals between watcher and agent only, whispers, and ends with the call', async () => {
    const agent = await w.staff(ids.agent);
    const { callId, customer } = await w.liveCall(agent, 4);

    const started = await call('POST', `/videocall/${callId}/watch`, tokens.admin);
    expect(started.statusCode, started.body).toBe(201);
    const grant = started.json() as WatchGrant;
    expect(grant).toMatchObject({
      call_id: callId,
      profile: 4,
      agent: { id: ids.agent, name: 'Umut Agent' },
      watch: { user_id: ids.admin, name: 'Ada Admin', ended_at: null },
      whispers: [],
    });
    expect(grant.call_start_time).not.toBeNull();
    // The grant never names the call's room, and its TURN credentials are the watcher's own.
    expect(JSON.stringify(grant)).not.toContain(customer.call.room_id);
    expect(grant.ice.iceServers.at(-1)?.username).toMatch(
      new RegExp(`^\\d+:call${callId}-watcher-${ids.admin}$`),
    );
    expect(grant.watchers.map((x) => x.user_id)).toEqual([ids.admin]);
    // The agent knows at once who watches.
    await expect
      .poll(() => heardOf(agent.heard, 'call.watchers').at(-1))
      .toMatchObject({ call_id: callId, watchers: [{ name: 'Ada Admin' }] });

    // A reload takes up the same watch: 200, no second audit line.
    const again = await call('POST', `/videocall/${callId}/watch`, tokens.admin);
    expect(again.statusCode).toBe(200);
    expect((again.json() as WatchGrant).watch.id).toBe(grant.watch.id);
    expect(await audits(callId, 'call_watch_started')).toHaveLength(1);

    // The watcher's socket joins its channel; the agent's browser is asked to offer it the call's media.
    const watcher = await w.staff(ids.admin);
    const joined = await watcher.socket.emitWithAck('watch.join', { call_id: callId, receiver: 'page-1' });
    expect(joined).toMatchObject({ ok: true, watchers: [{ user_id: ids.admin }] });
    // The agent's browser hears which of the watcher's receivers asks: one that already plays keeps its connection.
    await expect
      .poll(() => heardOf(agent.heard, 'watch.ready'))
      .toContainEqual({ call_id: callId, watcher_id: ids.admin, receiver: 'page-1' });
    expect(
      await watcher.socket.emitWithAck('watch.join', { call_id: callId, receiver: 'x'.repeat(65) }),
    ).toMatchObject({ ok: false });
    const offer = { type: 'offer', sdp: 'v=0\r\n' };
    expect(
      await agent.socket.emitWithAck('watch.signal', { call_id: callId, watcher_id: ids.admin, data: offer }),
    ).toEqual({ ok: true });
    await expect
      .poll(() => heardOf(watcher.heard, 'watch.signal'))
      .toEqual([{ call_id: callId, watcher_id: ids.admin, data: offer }]);
    const answer = { type: 'answer', sdp: 'v=0\r\n' };
    expect(await watcher.socket.emitWithAck('watch.signal', { call_id: callId, data: answer })).toEqual({
      ok: true,
    });
    await expect
      .poll(() => heardOf(agent.heard, 'watch.signal'))
      .toEqual([{ call_id: callId, watcher_id: ids.admin, data: answer }]);

    // A whisper reaches the agent, is kept with the call and audited.
    const whispered = await call('POST', `/videocall/${callId}/whispers`, tokens.admin, {
      text: '  Ask for the back of the ID again  ',
    });
    expect(whispered.statusCode, whispered.body).toBe(201);
    expect(whispered.json()).toMatchObject({
      text: 'Ask for the back of the ID again',
      author: { id: ids.admin },
    });
    await expect
      .poll(() => heardOf(agent.heard, 'call.whisper').map((x) => (x as Whisper).text))
      .toEqual(['Ask for the back of the ID again']);
    const kept = await call('GET', `/videocall/${callId}/whispers`, tokens.agent);
    expect((kept.json() as Whisper[]).map((x) => x.text)).toEqual(['Ask for the back of the ID again']);
    expect(await audits(callId, 'call_whisper_sent')).toHaveLength(1);

    // The customer heard nothing of it: no watcher, no signal of the channel, no whisper.
    const customerHeard = JSON.stringify(customer.heard);
    for (const secret of ['watch.', 'call.watchers', 'call.whisper', 'Ask for the back', 'Ada'])
      expect(customerHeard).not.toContain(secret);

    // The call ends: the watcher is told how, and the watch ends with it (audited).
    await agent.socket.emitWithAck('call.hangup', { call_id: callId });
    await expect
      .poll(() => heardOf(watcher.heard, 'watch.ended'))
      .toEqual([expect.objectContaining({ call_id: callId, reason: 'call_ended' })]);
    const watchers = (
      await call('GET', `/videocall/${callId}/watchers`, tokens.agent)
    ).json() as CallWatcher[];
    expect(watchers).toEqual([
      expect.objectContaining({ user_id: ids.admin, ended_at: expect.any(String), end_reason: 'call_ended' }),
    ]);
    expect((await audits(callId, 'call_watch_stopped')).map((a) => a.after)).toEqual([
      { watcher: ids.admin, watch: grant.watch.id, reason: 'call_ended' },
    ]);
    // A whisper after the end is refused.
    expect(
      (await call('POST', `/videocall/${callId}/whispers`, tokens.admin, { text: 'late' })).statusCode,
    ).toBe(409);

    // The evidence lists who watched, from when to when, and the whisper.
    const facts = await callFacts(w.t.app.ctx.db, 1, callId);
    const json = callJson(facts, {
      packageId: 'p',
      generatedAt: new Date(),
      by: { id: ids.admin, email: 'admin@acme.test' },
      files: [],
      missing: [],
      evidence: [],
    });
    expect(json.watchers).toEqual([
      expect.objectContaining({
        name: 'Ada Admin',
        started_at: expect.any(String),
        ended_at: expect.any(String),
      }),
    ]);
    expect(json.whispers.map((x) => x.text)).toEqual(['Ask for the back of the ID again']);
    watcher.socket.disconnect();
    agent.socket.disconnect();
  });

  it('pushes the steps and the quality of a watched call to its watchers alone', async () => {
    const agent = await w.staff(ids.agent);
    const agentsOther = await w.staff(ids.agent);
    const { callId, customer } = await w.liveCall(agent, 14);
    const watcher = await w.staff(ids.admin);
    // The same supervisor's socket that did not join the channel hears nothing: it is the channel, not the user.
    const watchersOther = await w.staff(ids.admin);
    try {
      expect((await call('POST', `/videocall/${callId}/watch`, tokens.admin)).statusCode).toBe(201);
      expect(await watcher.socket.emitWithAck('watch.join', { call_id: callId })).toMatchObject({ ok: true });

      // A step the agent records reaches the watcher at once, without what the customer typed.
      const step = await call('POST', `/videocall/${callId}/steps`, tokens.agent, {
        kind: 'id_front',
        result: 'failed',
        details: { typed_serial: 'A1234567' },
        offset_ms: 1200,
      });
      expect(step.statusCode, step.body).toBe(201);
      const recorded = step.json() as { id: number; created_at: string };
      await expect
        .poll(() => heardOf(watcher.heard, 'watch.step'))
        .toEqual([
          {
            call_id: callId,
            step: {
              id: recorded.id,
              kind: 'id_front',
              result: 'failed',
              offset_ms: 1200,
              created_at: recorded.created_at,
            },
          },
        ]);

      // A quality reading of either side: the watcher gets both sides' summaries so far.
      const sample = { width: 640, height: 480, fps: 30, loss_pct: 0, kbps: 900, audio_level: 0.2 };
      expect(
        (await call('POST', `/videocall/${callId}/quality`, tokens.agent, { samples: [sample] })).statusCode,
      ).toBe(204);
      await expect
        .poll(() => heardOf(watcher.heard, 'watch.quality').at(-1))
        .toMatchObject({ call_id: callId, agent: { count: 1 }, customer: null });
      const fromCustomer = await w.t.app.inject({
        method: 'POST',
        url: `/api/v2/videocall/${callId}/quality/customer`,
        headers: bearer(customer.token),
        payload: { samples: [{ ...sample, height: 240, fps: 8 }] },
      });
      expect(fromCustomer.statusCode, fromCustomer.body).toBe(204);
      await expect
        .poll(() => heardOf(watcher.heard, 'watch.quality').at(-1))
        .toMatchObject({ call_id: callId, customer: { count: 1 } });
      // The same summaries as the call's quality reads.
      const read = (await call('GET', `/videocall/${callId}/quality`, tokens.admin)).json() as CallQuality;
      expect(heardOf(watcher.heard, 'watch.quality').at(-1)).toEqual({
        call_id: callId,
        agent: read.agent,
        customer: read.customer,
      });

      // Nobody else heard either: not the agent's sockets, not the customer, not the supervisor's other tab. A
      // whisper, sent last to every watcher and the agent, shows each socket has heard all it will.
      expect(
        (await call('POST', `/videocall/${callId}/whispers`, tokens.admin, { text: 'fence' })).statusCode,
      ).toBe(201);
      for (const socket of [agent, agentsOther, watcher])
        await expect.poll(() => heardOf(socket.heard, 'call.whisper')).toHaveLength(1);
      for (const other of [agent.heard, agentsOther.heard, customer.heard, watchersOther.heard])
        expect(other.filter((h) => h.event === 'watch.step' || h.event === 'watch.quality')).toEqual([]);
    } finally {
      // Hung up whatever happened: the agent in a call would be refused the next tests' calls.
      await agent.socket.emitWithAck('call.hangup', { call_id: callId });
      for (const socket of [agent, agentsOther, watcher, watchersOther]) socket.socket.disconnect();
    }
  });

  it('stops on request, and ends when no socket of the watcher comes back', async () => {
    const agent = await w.staff(ids.agent);
    const { callId } = await w.liveCall(agent, 5);
    expect((await call('POST', `/videocall/${callId}/watch`, tokens.admin)).statusCode).toBe(201);
    const stopped = await call('DELETE', `/videocall/${callId}/watch`, tokens.admin);
    expect(stopped.statusCode).toBe(204);
    await expect
      .poll(() => heardOf(agent.heard, 'call.watchers').at(-1))
      .toEqual({ call_id: callId, watchers: [] });
    expect(
      (await audits(callId, 'call_watch_stopped')).map((a) => (a.after as { reason: string }).reason),
    ).toEqual(['stopped']);
    // Nothing to stop is fine.
    expect((await call('DELETE', `/videocall/${callId}/watch`, tokens.admin)).statusCode).toBe(204);

    // A watcher who goes away (no socket back within the grace) stops watching; the agent is told.
    expect((await call('POST', `/videocall/${callId}/watch`, tokens.admin)).statusCode).toBe(201);
    const watcher = await w.staff(ids.admin);
    expect(await watcher.socket.emitWithAck('watch.join', { call_id: callId })).toMatchObject({ ok: true });
    watcher.socket.disconnect();
    await expect
      .poll(async () => (await call('GET', `/videocall/${callId}/watchers`, tokens.admin)).json())
      .toContainEqual(expect.objectContaining({ end_reason: 'left' }));
    await expect
      .poll(() => heardOf(agent.heard, 'call.watchers').at(-1))
      .toEqual({ call_id: callId, watchers: [] });
    await agent.socket.emitWithAck('call.hangup', { call_id: callId });
    agent.socket.disconnect();
  });

  it('lists the calls watched (the wall after a reload) and stops at four', async () => {
    // The agent connected: after the first test's disconnect, this file's short reconnect grace would end their calls.
    await w.staff(ids.agent);
    const callIds: number[] = [];
    for (const profile of [6, 7, 8, 9, 10])
      callIds.push((await talkingCall(w.t.app, ids.agent, profile)).callId);
    for (const id of callIds.slice(0, 4))
      expect((await call('POST', `/videocall/${id}/watch`, tokens.admin)).statusCode).toBe(201);
    const fifth = await call('POST', `/videocall/${callIds[4]}/watch`, tokens.admin);
    expect(fifth.statusCode).toBe(409);
    expect(fifth.json()).toEqual({ detail: 'You can watch up to 4 calls at once' });
    const watching = (await call('GET', '/videocall/watching', tokens.admin)).json() as { call_id: number }[];
    expect(watching.map((x) => x.call_id)).toEqual(callIds.slice(0, 4));
    for (const id of callIds) await call('DELETE', `/videocall/${id}/watch`, tokens.admin);
    expect(
      await w.t.app.ctx.db.select().from(videoCallWatches).where(eq(videoCallWatches.watcherId, ids.admin)),
    ).toSatisfy((rows: { endedAt: Date | null }[]) => rows.every((row) => row.endedAt !== null));
  });

  it('refuses a call not in progress and the call’s own agent', async () => {
    const agentApp = await talkingCall(w.t.app, ids.admin, 11);
    // The Admin is this call's agent: they are in it, not watching it.
    const own = await call('POST', `/videocall/${agentApp.callId}/watch`, tokens.admin);
    expect(own.statusCode).toBe(409);
    expect(own.json()).toEqual({ detail: 'You are the agent of this call' });
  });
});

describe('whispers', () => {
  it('are one line of 1 to 500 characters, only from a watcher of the call', async () => {
    // A call whose agent is connected: after a disconnect, this file's short reconnect grace would end it.
    const agent = await w.staff(ids.agent);
    const { callId } = await w.liveCall(agent, 12);
    const send = (text: unknown) => call('POST', `/videocall/${callId}/whispers`, tokens.admin, { text });
    const notWatching = await send('hello');
    expect(notWatching.statusCode).toBe(409);
    expect(notWatching.json()).toEqual({ detail: 'You are not watching this call' });
    expect((await call('POST', `/videocall/${callId}/watch`, tokens.admin)).statusCode).toBe(201);
    for (const bad of ['', '   ', 'x'.repeat(501), 'a\u0000b', 'line\nbreak', 42, null])
      expect((await send(bad)).statusCode, JSON.stringify(bad)).toBe(400);
    expect((await send('x'.repeat(500))).statusCode).toBe(201);
    expect((await send('x')).statusCode).toBe(201);
    await call('DELETE', `/videocall/${callId}/watch`, tokens.admin);
  });
});

describe("the customers' notice", () => {
  it('is on by default, set by Admins only, audited, and read by the customer’s page', async () => {
    expect((await call('GET', '/call_watch', tokens.admin)).json()).toEqual({ customer_notice: true });
    const customerToken = await w.t.app.ctx.tokens.signCustomer({ profile_id: 13, company_id: 1 }, 3600);
    const notice = () => call('GET', '/videocall/watch_notice', customerToken);
    expect((await notice()).json()).toEqual({ customer_notice: true });
    expect((await call('PUT', '/call_watch', tokens.agent, { customer_notice: false })).statusCode).toBe(403);
    const off = await call('PUT', '/call_watch', tokens.admin, { customer_notice: false });
    expect(off.statusCode).toBe(200);
    expect((await notice()).json()).toEqual({ customer_notice: false });
    const [audit] = await w.t.app.ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'call_watch_changed'));
    expect(audit?.after).toEqual({ customer_notice: false });
    expect((await call('PUT', '/call_watch', tokens.admin, { customer_notice: true })).statusCode).toBe(200);
    expect((await call('PUT', '/call_watch', tokens.admin, { customer_notice: 'yes' })).statusCode).toBe(400);
  });
});
