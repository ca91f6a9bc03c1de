import { setTimeout as delay } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALL_STATUS_TALKING } from '#contract/constants';
import { CUSTOMER_NOT_CONNECTED, type InstantStats, type QueuedCall } from '#contract/socket';
import { profileLogs, users, videoCalls } from '../../server/db/schema';
import { bearer, FAST_CALLS, makeAgents, PASSWORDS, type TestApp, tokenFor } from './helpers';
import { type ClientSocket, type LiveApp, liveApp, next } from './liveSockets';

/** Long enough that a loaded machine's reconnection fits well inside it. */
const TALKING_GRACE_MS = 3_000;
let live: LiveApp;
let t: TestApp;
let adminToken = '';
const WEBM = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(2048, 7)]);

beforeAll(async () => {
  // A call stays unattached long enough for a burst of 30 customers to connect on a loaded machine: at 2 s the
  // first calls of the burst were missed before their customers' sockets got in.
  // A talking customer's grace longer than a waiting one's, so a test can come back between the two.
  live = await liveApp({
    calls: { ...FAST_CALLS, unattachedCallMs: 30_000, talkingCustomerGraceMs: TALKING_GRACE_MS },
  });
  t = live.t;
  adminToken = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
});
afterAll(() => live.close());

const connect: LiveApp['connect'] = (auth, listen) => live.connect(auth, listen);

/** A staff socket of a user, made Online (or another status) first. */
async function agentSocket(userId: number, status = 'Online'): Promise<ClientSocket> {
  await t.app.ctx.db.update(users).set({ agentStatus: status }).where(eq(users.id, userId));
  const token = await t.app.ctx.tokens.signSocket({ user_id: userId, company_id: 1 });
  return connect({ token });
}

async function joinLink(profile: number) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/v2/profile/url',
    headers: bearer(adminToken),
    payload: { profile },
  });
  expect(response.statusCode).toBe(200);
  return response.json() as { url: string; token: string };
}

/** A customer's call, created through their join link (POST /videocall); their socket is not connected yet. */
async function createdCall(profile: number) {
  const { token } = await joinLink(profile);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v2/videocall',
    headers: bearer(token),
    payload: { profile, status: 0 },
  });
  expect(created.statusCode).toBe(201);
  const call = created.json() as { id: number; room_id: string; status: number };
  expect(call.status).toBe(0);
  return { call, token };
}

/** A customer who opened the join link, created the call and connected: waiting in the queue. */
async function waitingCustomer(profile: number) {
  const { call, token } = await createdCall(profile);
  let position: Promise<unknown> = Promise.resolve();
  const socket = await connect({ customer: token, call_id: call.id }, (s) => {
    position = next(s, 'queue.position');
  });
  return { call, socket, token, position };
}

const statusOf = async (callId: number) =>
  (await t.app.ctx.db.select().from(videoCalls).where(eq(videoCalls.id, callId)))[0];

describe('join links and call creation', () => {
  it('makes a join link for the company’s profile only, and only for users with the calls page', async () => {
    const { url: link, token } = await joinLink(1);
    expect(link).toMatch(/\/customer\.html\?token=/);
    expect(token.length).toBeGreaterThan(20);

    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/v2/profile/url',
      headers: bearer(adminToken),
      payload: { profile: 999_999 },
    });
    expect(foreign.statusCode).toBe(404);

    const viewer = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/v2/profile/url',
      headers: bearer(viewer),
      payload: { profile: 1 },
    });
    expect(refused.statusCode).toBe(403);
  });

  it('creates a call only with the customer’s own token and profile', async () => {
    const { token } = await joinLink(2);
    const post = (auth: string, profile: number) =>
      t.app.inject({ method: 'POST', url: '/api/v2/videocall', headers: bearer(auth), payload: { profile } });
    expect((await post(adminToken, 2)).statusCode).toBe(401);
    expect((await post(token, 3)).statusCode).toBe(403);
    const before = (await t.app.ctx.db.select().from(videoCalls)).length;
    expect((await post('nonsense', 2)).statusCode).toBe(401);
    expect((await t.app.ctx.db.select().from(videoCalls)).length).toBe(before);
  });

  it('refuses a customer socket without a valid join token', async () => {
    await expect(connect({ customer: 'nope', call_id: 1 })).rejects.toThrow('Token is invalid or expired');
    const { token } = await joinLink(1);
    await expect(connect({ customer: token })).rejects.toThrow('Token is invalid or expired');
  });
});

describe('the queue', () => {
  it('rings the company when the customer connects, tells the customer its place, and syncs', async () => {
    const [agentId] = await makeAgents(t.app, 'ring', 1);
    const agent = await agentSocket(agentId as number);
    const incoming = next(agent, 'call.incoming');
    const { call, socket, position } = await waitingCustomer(3);
    const rung = (await incoming) as QueuedCall;
    expect(rung).toMatchObject({ call_id: call.id, profile: 3, status: 0 });
    expect(rung.profile_name).toEqual(expect.any(String));
    expect(await position).toMatchObject({ call_id: call.id, position: 1 });
    const synced = await agent.emitWithAck('queue.sync');
    expect(synced.ok && synced.calls.map((c) => c.call_id)).toContain(call.id);

    // The customer leaves before an answer: the call is MISSED and the agents stop ringing.
    const cancelled = next(agent, 'call.cancelled', (e) => e.call_id === call.id);
    socket.disconnect();
    expect(await cancelled).toEqual({ call_id: call.id, reason: 'customer_left' });
    expect((await statusOf(call.id))?.status).toBe(2);
    const after = await agent.emitWithAck('queue.sync');
    expect(after.ok && after.calls.map((c) => c.call_id)).not.toContain(call.id);
  });

  it('a burst of 30 customers: each hears its place when it changes, and the queue is told at most once a second', async () => {
    const heard = new Map<number, { position: number; expected_wait_s: number | null }[]>();
    const started = Date.now();
    const customers = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const { call, token } = await createdCall(5);
        const told: { position: number; expected_wait_s: number | null }[] = [];
        heard.set(call.id, told);
        return connect({ customer: token, call_id: call.id }, (socket) =>
          socket.on('queue.position', ({ position, expected_wait_s }) =>
            told.push({ position, expected_wait_s }),
          ),
        );
      }),
    );
    const joinedInSeconds = Math.ceil((Date.now() - started) / 1000);
    // Every customer ends up knowing its place in the queue as the server holds it (other tests' waiting
    // customers included).
    await expect
      .poll(async () => {
        const queue = await t.app.ctx.calls.queue(1);
        return [...heard].filter(
          ([callId, told]) => told.at(-1)?.position !== queue.findIndex((c) => c.call_id === callId) + 1,
        );
      })
      .toEqual([]);
    for (const told of heard.values()) {
      // Nothing said twice over.
      for (let i = 1; i < told.length; i++) expect(told[i]).not.toEqual(told[i - 1]);
      // One announcement a second at most while the joins went on, and the one after the last join: each
      // join telling everyone behind it their place made 465 messages for 30 customers.
      expect(told.length).toBeLessThanOrEqual(joinedInSeconds + 2);
    }
    for (const socket of customers) socket.disconnect();
  });

  it('gives a call to exactly one of 20 agents answering at once; the others hear Call Already Answered', async () => {
    const ids = await makeAgents(t.app, 'race', 20);
    const agents = await Promise.all(ids.map((id) => agentSocket(id)));
    const { call, socket } = await waitingCustomer(4);
    const answered = next(socket, 'call.answered');
    const replies = await Promise.all(agents.map((a) => a.emitWithAck('call.answer', { call_id: call.id })));
    const winners = replies.filter((r) => r.ok);
    expect(winners).toHaveLength(1);
    expect(replies.filter((r) => !r.ok).map((r) => !r.ok && r.detail)).toEqual(
      Array(19).fill('Call Already Answered'),
    );
    const row = await statusOf(call.id);
    expect(row?.status).toBe(1);
    expect(ids).toContain(row?.agentId);
    expect(await answered).toMatchObject({ call_id: call.id, room_id: call.room_id });
  });

  it('refuses a waiting call whose customer is not connected as such, and rings it once they are back', async () => {
    const [id] = await makeAgents(t.app, 'away', 1);
    const agent = await agentSocket(id as number);
    const { call, token } = await createdCall(7);
    // The customer's socket has not connected (as after a server restart, before they are back).
    expect(await agent.emitWithAck('call.answer', { call_id: call.id })).toEqual({
      ok: false,
      detail: CUSTOMER_NOT_CONNECTED,
    });
    expect((await statusOf(call.id))?.status).toBe(0);
    const rings = next(agent, 'call.incoming', (c) => c.call_id === call.id);
    const customer = await connect({ customer: token, call_id: call.id });
    await rings;
    expect((await agent.emitWithAck('call.answer', { call_id: call.id })).ok).toBe(true);
    customer.disconnect();
  });

  it('offers calls only to Online agents who are not in a call', async () => {
    const [breakId, busyId] = await makeAgents(t.app, 'only', 2);
    const onBreak = await agentSocket(breakId as number, 'Break');
    const busy = await agentSocket(busyId as number);
    const first = await waitingCustomer(5);
    const second = await waitingCustomer(6);
    expect(await onBreak.emitWithAck('call.answer', { call_id: first.call.id })).toEqual({
      ok: false,
      detail: 'Set your status to Online to answer',
    });
    expect((await busy.emitWithAck('call.answer', { call_id: first.call.id })).ok).toBe(true);
    expect(await busy.emitWithAck('call.answer', { call_id: second.call.id })).toEqual({
      ok: false,
      detail: 'You are already in a call',
    });
  });
});

describe('a talking customer whose connection drops', () => {
  it('keeps the call past a waiting customer’s grace, and has hung up once gone for the talking grace', async () => {
    const [agentId] = await makeAgents(t.app, 'drop', 1);
    const agent = await agentSocket(agentId as number);
    const ended: unknown[] = [];
    agent.on('call.ended', (event) => ended.push(event));
    const { call, socket, token } = await waitingCustomer(2);
    expect((await agent.emitWithAck('call.answer', { call_id: call.id })).ok).toBe(true);
    const talking = { status: CALL_STATUS_TALKING, callEndTime: null };

    // Gone six times a waiting customer's grace, then back: the call goes on.
    socket.disconnect();
    const dropped = Date.now();
    await delay(6 * FAST_CALLS.customerGraceMs);
    expect(await statusOf(call.id)).toMatchObject(talking);
    const back = await connect({ customer: token, call_id: call.id });
    // Past the talking grace counted from the drop: coming back called it off.
    await delay(dropped + TALKING_GRACE_MS + 500 - Date.now());
    expect(await statusOf(call.id)).toMatchObject(talking);
    expect(ended).toEqual([]);

    // Gone for good: after the talking grace, the customer has hung up.
    const hungUp = next(agent, 'call.ended', (e) => e.call_id === call.id);
    const gone = Date.now();
    back.disconnect();
    expect(await hungUp).toEqual({ call_id: call.id, by: 'customer' });
    // A timer may fire a millisecond before its time by the wall clock.
    expect(Date.now() - gone).toBeGreaterThanOrEqual(TALKING_GRACE_MS - 5);
    expect((await statusOf(call.id))?.callEndTime).not.toBeNull();
  });
});

describe('a call from answer to recording', () => {
  it('hangs up, takes the final status from the agent, the recording and the answers', async () => {
    const [agentId] = await makeAgents(t.app, 'life', 1);
    const agent = await agentSocket(agentId as number);
    const agentAccess = (
      await t.app.ctx.sessions.start(t.app.ctx.db, {
        userId: agentId as number,
        companyId: 1,
        email: 'life0@acme.test',
        isApiUser: false,
      })
    ).access;
    const { call, socket } = await waitingCustomer(7);
    expect((await agent.emitWithAck('call.answer', { call_id: call.id })).ok).toBe(true);

    // Signals flow between the two sides of the room once both joined.
    expect((await agent.emitWithAck('signal.join', { room: call.room_id })).ok).toBe(true);
    const offer = next(socket, 'signal.message');
    await agent.emitWithAck('signal.send', { room: call.room_id, data: { type: 'offer' } });
    expect((await offer).data).toEqual({ type: 'offer' });

    const api = (method: 'PUT' | 'POST' | 'PATCH' | 'DELETE', path: string, payload?: unknown) =>
      t.app.inject({
        method,
        url: `/api/v2/videocall/${call.id}${path}`,
        headers: bearer(agentAccess),
        payload: payload as never,
      });

    const questions = await t.app.inject({
      method: 'GET',
      url: `/api/v2/videocall/${call.id}/questions?lang=tr`,
      headers: bearer(agentAccess),
    });
    const [question] = questions.json() as { id: number }[];
    const answer = await api('POST', '/answers', { question: question?.id, value: 'Yes, it is me' });
    expect(answer.statusCode).toBe(201);
    expect((await api('POST', '/answers', { question: 999_999, value: 'x' })).statusCode).toBe(400);
    expect((await api('POST', '/notes', { note: 'short' })).statusCode).toBe(400);
    expect((await api('POST', '/notes', { note: 'The customer held the ID card up well.' })).statusCode).toBe(
      201,
    );

    // The customer hangs up: the agent hears it; the status is still the agent's to set.
    const ended = next(agent, 'call.ended');
    expect((await socket.emitWithAck('call.hangup', { call_id: call.id })).ok).toBe(true);
    expect(await ended).toEqual({ call_id: call.id, by: 'customer' });
    expect((await api('PUT', '', { status: 1 })).statusCode).toBe(400);
    const done = await api('PUT', '', { status: 3 });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ status: 3, status_name: 'COMPLETE', agent: { id: agentId } });

    // Recording: webm only, within the size limit.
    const upload = (body: Buffer, name = 'file') => {
      const boundary = 'x-boundary';
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="call.webm"\r\n` +
            'Content-Type: video/webm\r\n\r\n',
        ),
        body,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return t.app.inject({
        method: 'PATCH',
        url: `/api/v2/videocall/${call.id}`,
        headers: { ...bearer(agentAccess), 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
    };
    const notWebm = await upload(Buffer.from('hello, not a video at all'));
    expect(notWebm.statusCode).toBe(400);
    const tooBig = await upload(Buffer.concat([WEBM, Buffer.alloc(FAST_CALLS.maxRecordingBytes)]));
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toEqual({ detail: 'Size must be less than 300MB' });
    expect((await statusOf(call.id))?.recordingKey).toBeNull();
    const stored = await upload(WEBM);
    expect(stored.statusCode).toBe(200);
    const file = stored.json().recorded_file as string;
    const fetched = await t.app.inject({ method: 'GET', url: file.replace(/^https?:\/\/[^/]+/, '') });
    expect(fetched.statusCode).toBe(200);
    expect(fetched.rawPayload.subarray(0, 4)).toEqual(WEBM.subarray(0, 4));

    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/v2/videocall?profile=7',
      headers: bearer(agentAccess),
    });
    expect(listed.json().results[0]).toMatchObject({ id: call.id, status: 3 });

    // Deleting the video keeps the call and its status.
    expect((await api('DELETE', '')).statusCode).toBe(204);
    expect((await api('DELETE', '')).statusCode).toBe(404);
    expect(await statusOf(call.id)).toMatchObject({ status: 3, recordingKey: null });
    const logs = await t.app.ctx.db.select().from(profileLogs).where(eq(profileLogs.profileId, 7));
    expect(logs.map((l) => l.action)).toEqual(
      expect.arrayContaining(['call_status_set', 'call_recording_stored', 'video_deleted']),
    );
  });

  it('never lets a status be set on an unanswered call, or by another agent during the call', async () => {
    const [a, b] = await makeAgents(t.app, 'guard', 2);
    const agentA = await agentSocket(a as number);
    const { call } = await waitingCustomer(8);
    const put = async (userId: number, status: number) => {
      const access = (
        await t.app.ctx.sessions.start(t.app.ctx.db, {
          userId: userId,
          companyId: 1,
          email: `x${userId}@acme.test`,
          isApiUser: false,
        })
      ).access;
      return t.app.inject({
        method: 'PUT',
        url: `/api/v2/videocall/${call.id}`,
        headers: bearer(access),
        payload: { status },
      });
    };
    expect((await put(a as number, 3)).statusCode).toBe(409);
    await agentA.emitWithAck('call.answer', { call_id: call.id });
    expect((await put(b as number, 9)).statusCode).toBe(403);
    expect((await statusOf(call.id))?.status).toBe(1);
  });
});

describe('instant stats', () => {
  it('are sent on connect and pushed as the queue and the agents move', async () => {
    const [agentId] = await makeAgents(t.app, 'stats', 1);
    let latest: InstantStats | null = null;
    const supervisor = await connect(
      { token: await t.app.ctx.tokens.signSocket({ user_id: 1, company_id: 1 }) },
      (s) => s.on('stats.update', (stats) => (latest = stats)),
    );
    await expect.poll(() => latest).not.toBeNull();
    const stats = () => latest as unknown as InstantStats;
    const agent = await agentSocket(agentId as number);
    // An agent added after the figures were built joins the board when they connect.
    await expect.poll(() => stats().agents.map((a) => a.id)).toContain(agentId);
    const before = stats();
    const { call, socket } = await waitingCustomer(9);
    await expect.poll(() => stats().waiting.count).toBe(before.waiting.count + 1);

    await agent.emitWithAck('call.answer', { call_id: call.id });
    await expect.poll(() => stats().agents.find((a) => a.id === agentId)?.call_id).toBe(call.id);
    expect(stats().talking).toBe(before.talking + 1);
    expect(stats().answered_today).toBe(before.answered_today + 1);
    expect(stats().waiting.count).toBe(before.waiting.count);

    await socket.emitWithAck('call.hangup', { call_id: call.id });
    await expect.poll(() => stats().talking).toBe(before.talking);
    expect(stats().agents.find((a) => a.id === agentId)?.call_id).toBeNull();
    expect(stats().average_handling_s).not.toBeNull();

    const access = (
      await t.app.ctx.sessions.start(t.app.ctx.db, {
        userId: agentId as number,
        companyId: 1,
        email: 'stats0@acme.test',
        isApiUser: false,
      })
    ).access;
    await t.app.inject({
      method: 'POST',
      url: '/api/v2/videocall/agent_status',
      headers: bearer(access),
      payload: { status: 'Break' },
    });
    await expect.poll(() => stats().agents.find((a) => a.id === agentId)?.status).toBe('Break');
    expect(Date.parse(stats().agents.find((a) => a.id === agentId)?.since ?? '')).toBeGreaterThan(
      Date.now() - 60_000,
    );

    // Only an Admin may set another agent's availability.
    const other = (auth: string, user: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v2/videocall/agent_status',
        headers: bearer(auth),
        payload: { status: 'Online', user },
      });
    expect((await other(access, 1)).statusCode).toBe(403);
    expect((await other(adminToken, 999_999)).statusCode).toBe(404);
    expect((await other(adminToken, agentId as number)).statusCode).toBe(200);
    await expect.poll(() => stats().agents.find((a) => a.id === agentId)?.status).toBe('Online');

    // A customer who leaves counts as missed today.
    const left = await waitingCustomer(10);
    left.socket.disconnect();
    await expect.poll(() => stats().missed_today).toBe(before.missed_today + 1);
    supervisor.disconnect();
  });
});
