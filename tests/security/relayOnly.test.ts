/**
 * TURN credentials reach only the call's two people, and a relay-only call's signalling carries no address but
 * the TURN server's, whatever a client sends: the company setting (GET/PUT /call_network), the answer's and the
 * customer's ICE, `call.ice`, and the server's filter both ways.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallIce } from '#contract/socket';
import { auditLog } from '../../server/db/schema';
import { RELAY_ONLY_NEEDS_TURN, setCallNetwork } from '../../server/domain/callIce';
import { HttpError } from '../../server/errors';
import { bearer, FAST_CALLS, PASSWORDS, type TestApp, tokenFor, userId } from '../server/helpers';
import { type Heard, type LiveApp, liveApp } from '../server/liveSockets';

const ICE = {
  urls: ['stun:stun.example.com:3478', 'turn:turn.example.com:3478?transport=udp'],
  secret: 'relay-test-secret',
  credentialTtlSeconds: 900,
  transportPolicy: 'all' as const,
};

let live: LiveApp;
let t: TestApp;
const tokens = { admin: '', agent: '' };
const ids = { admin: 0, agent: 0 };

beforeAll(async () => {
  live = await liveApp({
    calls: { ...FAST_CALLS, agentGraceMs: 60_000, customerGraceMs: 60_000, unattachedCallMs: 60_000 },
    ice: ICE,
  });
  t = live.t;
  tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  tokens.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  ids.admin = await userId(t.app, 'admin@acme.test');
  ids.agent = await userId(t.app, 'agent@acme.test');
});
afterAll(() => live.close());

const staff = (user: number) => live.staff(user);
const customer = (profile: number) => live.customer(profile);

const setRelayOnly = (relayOnly: boolean, token = tokens.admin) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/v2/call_network',
    headers: bearer(token),
    payload: { relay_only: relayOnly },
  });

const signals = (heard: Heard) =>
  heard.filter((h) => h.event === 'signal.message').map((h) => (h.payload as { data: unknown }).data);

const HOST = 'candidate:1 1 udp 2122260223 10.1.2.3 50000 typ host generation 0';
const SRFLX =
  'candidate:2 1 udp 1686052607 198.18.0.9 50000 typ srflx raddr 10.1.2.3 rport 50000 generation 0';
const RELAY =
  'candidate:3 1 udp 41885439 192.0.2.50 60000 typ relay raddr 198.18.0.9 rport 50000 generation 0';
const candidate = (line: string) => ({
  type: 'candidate',
  candidate: { candidate: line, sdpMLineIndex: 0, sdpMid: '0' },
});
const OFFER = {
  type: 'offer',
  sdp: ['v=0', 'm=video 9 UDP/TLS/RTP/SAVPF 96', 'c=IN IP4 10.1.2.3', `a=${HOST}`, `a=${RELAY}`, ''].join(
    '\r\n',
  ),
};

describe('relay-only calls, a company setting', () => {
  it('is read on the company page, changed by admins only, audited, and refused without a TURN server', async () => {
    expect(
      (await t.app.inject({ url: '/api/v2/call_network', headers: bearer(tokens.admin) })).json(),
    ).toEqual({
      relay_only: false,
      relay_only_by_server: false,
      turn_configured: true,
    });
    expect((await setRelayOnly(true, tokens.agent)).statusCode).toBe(403);
    const set = await setRelayOnly(true);
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ relay_only: true });
    const [audit] = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'call_network_changed'), eq(auditLog.companyId, 1)));
    expect(audit?.before).toEqual({ relay_only: false });
    expect(audit?.after).toEqual({ relay_only: true });
    const refused = setCallNetwork(
      t.app.ctx.db,
      { ...ICE, urls: ['stun:stun.example.com:3478'] },
      1,
      ids.admin,
      {
        relay_only: true,
      },
    );
    await expect(refused).rejects.toBeInstanceOf(HttpError);
    await expect(refused).rejects.toMatchObject({ message: RELAY_ONLY_NEEDS_TURN });
  });
});

describe('a relay-only call', () => {
  it('gives each side its own credentials, and takes every other address out of the signals both ways', async () => {
    expect((await setRelayOnly(true)).statusCode).toBe(200);
    const agent = await staff(ids.agent);
    const waiting = await customer(3);
    const callId = waiting.call.id;

    // The customer's socket gets its servers as it joins its call: relay-only, its own subject, no STUN.
    await expect.poll(() => waiting.heard.find((h) => h.event === 'call.ice')).toBeTruthy();
    const pushed = waiting.heard.find((h) => h.event === 'call.ice')?.payload as { ice: CallIce } | undefined;
    if (!pushed) throw new Error('no call.ice');
    const customerIce = pushed.ice;
    expect(customerIce.iceTransportPolicy).toBe('relay');
    expect(customerIce.iceServers).toEqual([
      {
        urls: ['turn:turn.example.com:3478?transport=udp'],
        username: expect.any(String),
        credential: expect.any(String),
      },
    ]);
    const [expiry, subject] = customerIce.iceServers[0]?.username?.split(':') ?? [];
    expect(subject).toBe(`call${callId}-customer`);
    expect(Number(expiry) - Date.now() / 1000).toBeGreaterThan(ICE.credentialTtlSeconds - 60);
    expect(Number(expiry) - Date.now() / 1000).toBeLessThanOrEqual(ICE.credentialTtlSeconds);

    const answer = await agent.socket.emitWithAck('call.answer', { call_id: callId });
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.ice.iceTransportPolicy).toBe('relay');
    expect(answer.ice.iceServers[0]?.username).toMatch(new RegExp(`^\\d+:call${callId}-agent$`));
    // Nobody else heard either side's credentials.
    expect(JSON.stringify(agent.heard)).not.toContain(customerIce.iceServers[0]?.credential);

    const room = waiting.call.room_id;
    expect(await agent.socket.emitWithAck('signal.join', { room })).toMatchObject({ ok: true });
    for (const data of [OFFER, candidate(HOST), candidate(SRFLX), candidate(RELAY)])
      expect(await agent.socket.emitWithAck('signal.send', { room, data })).toEqual({ ok: true });
    await expect.poll(() => signals(waiting.heard)).toHaveLength(2);
    const [offer, relay] = signals(waiting.heard) as [{ type: string; sdp: string }, unknown];
    expect(offer.type).toBe('offer');
    expect(offer.sdp).toContain('192.0.2.50 60000 typ relay raddr 0.0.0.0 rport 0');
    expect(relay).toEqual(candidate(RELAY.replace('raddr 198.18.0.9 rport 50000', 'raddr 0.0.0.0 rport 0')));
    const seen = JSON.stringify(waiting.heard);
    for (const address of ['10.1.2.3', '198.18.0.9']) expect(seen).not.toContain(address);

    // The other way: a modified customer page's host candidate never reaches the agent.
    await waiting.socket.emitWithAck('signal.send', { room, data: candidate(HOST) });
    await waiting.socket.emitWithAck('signal.send', {
      room,
      data: { type: 'answer', sdp: `v=0\r\na=${SRFLX}\r\n` },
    });
    await expect.poll(() => signals(agent.heard)).toHaveLength(1);
    expect(JSON.stringify(agent.heard)).not.toMatch(/10\.1\.2\.3|198\.18\.0\.9/);

    // Fresh credentials on request, for the call's own two people only.
    const fresh = await agent.socket.emitWithAck('call.ice', { call_id: callId });
    expect(fresh).toMatchObject({ ok: true, ice: { iceTransportPolicy: 'relay' } });
    expect(await waiting.socket.emitWithAck('call.ice', { call_id: callId })).toMatchObject({ ok: true });
    expect(await waiting.socket.emitWithAck('call.ice', { call_id: callId + 1000 })).toEqual({
      ok: false,
      detail: 'Not your call',
    });
    const other = await staff(ids.admin);
    expect(await other.socket.emitWithAck('call.ice', { call_id: callId })).toEqual({
      ok: false,
      detail: 'Not your call',
    });
    await agent.socket.emitWithAck('call.hangup', { call_id: callId });
    expect(await agent.socket.emitWithAck('call.ice', { call_id: callId })).toEqual({
      ok: false,
      detail: 'Not your call',
    });
  });

  it('is an ordinary call again once the setting is off: every candidate passes', async () => {
    expect((await setRelayOnly(false)).statusCode).toBe(200);
    const agent = await staff(ids.agent);
    const waiting = await customer(3);
    const answer = await agent.socket.emitWithAck('call.answer', { call_id: waiting.call.id });
    expect(answer).toMatchObject({ ok: true, ice: { iceTransportPolicy: 'all' } });
    if (!answer.ok) return;
    expect(answer.ice.iceServers.map((server) => server.urls)).toEqual([
      ['stun:stun.example.com:3478'],
      ['turn:turn.example.com:3478?transport=udp'],
    ]);
    const room = waiting.call.room_id;
    await agent.socket.emitWithAck('signal.join', { room });
    await agent.socket.emitWithAck('signal.send', { room, data: candidate(HOST) });
    await expect.poll(() => signals(waiting.heard)).toEqual([candidate(HOST)]);
    await agent.socket.emitWithAck('call.hangup', { call_id: waiting.call.id });
  });
});
