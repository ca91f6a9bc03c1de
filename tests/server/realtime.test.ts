import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServerToClientEvents } from '#contract/socket';
import { users } from '../../server/db/schema';
import { agentStatusOf } from '../../server/realtime/rooms';
import {
  bearer,
  FAST_CALLS,
  PASSWORDS,
  startTestApp,
  type TestApp,
  talkingCall,
  tokenFor,
  userId,
} from './helpers';
import { type ClientSocket, type LiveApp, liveApp, next } from './liveSockets';

let live: LiveApp;
let t: TestApp;

beforeAll(async () => {
  live = await liveApp({ calls: FAST_CALLS });
  t = live.t;
});
afterAll(() => live.close());

/** The studio's socket of a user who signs in to `app` with `email` and `password`. */
const studioOf = async (
  email: string,
  password: string,
  { app = live, listen }: { app?: LiveApp; listen?: (socket: ClientSocket) => void } = {},
) => app.studio(await tokenFor(app.t.app, email, password), listen);

/** Resolves with what arrives within `ms`, else with undefined. */
function nothingWithin<E extends keyof ServerToClientEvents>(socket: ClientSocket, event: E, ms = 300) {
  return Promise.race([
    next(socket, event),
    new Promise<undefined>((r) => setTimeout(() => r(undefined), ms)),
  ]);
}

describe('socket.io hub', () => {
  it('refuses a connection without a token, with a bad token or with an access token', async () => {
    const access = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
    for (const token of [undefined, 'nope', access]) {
      await expect(live.connect({ token })).rejects.toThrow('Token is invalid or expired');
    }
  });

  it('sends the agent status on connect and broadcasts changes to the company only', async () => {
    let initial: ReturnType<typeof next<'agent.status'>> | undefined;
    const agent = await studioOf('agent@acme.test', PASSWORDS.user, {
      listen: (socket) => {
        initial = next(socket, 'agent.status');
      },
    });
    expect(await initial).toEqual({ user_id: 2, status: 'Offline', call_id: null });

    const colleague = await studioOf('admin@acme.test', PASSWORDS.admin);
    const stranger = await studioOf('admin@globex.test', PASSWORDS.admin);
    const seenByColleague = next(colleague, 'agent.status');
    const seenByStranger = nothingWithin(stranger, 'agent.status');

    const access = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
    const set = (status: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v2/videocall/agent_status',
        headers: bearer(access),
        payload: { status },
      });
    const ok = await set('Online');
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ status: 'Online' });
    expect(await seenByColleague).toEqual({ user_id: 2, status: 'Online', call_id: null });
    expect(await seenByStranger).toBeUndefined();

    const bad = await set('Sleeping');
    expect(bad.statusCode).toBe(400);

    // A second sign-in while the agent is live (a socket connected) keeps the status: nobody hears a change.
    const unchanged = nothingWithin(colleague, 'agent.status');
    await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
    expect(await unchanged).toBeUndefined();

    // Once the agent's last socket is gone for the grace period, they are Offline for everyone.
    const offline = next(colleague, 'agent.status');
    agent.disconnect();
    expect(await offline).toEqual({ user_id: 2, status: 'Offline', call_id: null });
  });

  it('a sign-in with no socket of the agent connected starts Offline, and every screen hears it', async () => {
    // A grace period far longer than the test: the Offline below can only come from the sign-in.
    const slow = await liveApp({ calls: { ...FAST_CALLS, agentGraceMs: 600_000 } });
    try {
      const admin = await studioOf('admin@acme.test', PASSWORDS.admin, { app: slow });
      const agentAccess = await tokenFor(slow.t.app, 'agent@acme.test', PASSWORDS.user);
      const agentSocket = await slow.studio(agentAccess);
      const online = next(admin, 'agent.status');
      await slow.t.app.inject({
        method: 'POST',
        url: '/api/v2/videocall/agent_status',
        headers: bearer(agentAccess),
        payload: { status: 'Online' },
      });
      expect(await online).toEqual({ user_id: 2, status: 'Online', call_id: null });
      // The agent's studio is gone (still within its grace period); a new sign-in starts Offline, told at once.
      agentSocket.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 50));
      const offline = next(admin, 'agent.status');
      await tokenFor(slow.t.app, 'agent@acme.test', PASSWORDS.user);
      expect(await offline).toEqual({ user_id: 2, status: 'Offline', call_id: null });
    } finally {
      await slow.close();
    }
  });

  it('an agent an earlier run left Online goes Offline after the grace, even a grace shorter than the start', async () => {
    // The grace ends while the new process is still starting (before its socket server is up): the check must
    // wait for it, not fail and leave the agent Online for good.
    const restarted = await startTestApp({ calls: { ...FAST_CALLS, agentGraceMs: 1 } });
    try {
      const { db } = restarted.database;
      const [agent] = await db
        .update(users)
        .set({ agentStatus: 'Online' })
        .where(eq(users.email, 'agent@acme.test'))
        .returning({ id: users.id });
      if (!agent) throw new Error('no agent@acme.test in the seed');
      await restarted.restart();
      await vi.waitFor(async () => expect(await agentStatusOf(db, agent.id)).toBe('Offline'), {
        timeout: 5_000,
      });
    } finally {
      await restarted.close();
    }
  });

  it('relays WebRTC signals within a call room between its agent and its customer', async () => {
    const agentId = await userId(t.app, 'admin@acme.test');
    const { callId, room, customer: customerToken } = await talkingCall(t.app, agentId);
    const a = await studioOf('admin@acme.test', PASSWORDS.admin);
    const outsider = await studioOf('admin@globex.test', PASSWORDS.admin);
    const b = await live.connect({ customer: customerToken, call_id: callId });

    expect(await a.emitWithAck('signal.send', { room, data: { type: 'offer' } })).toEqual({
      ok: false,
      detail: 'Join the room first',
    });
    // The customer's socket is in its call's room from the start.
    await expect
      .poll(async () => (await a.emitWithAck('signal.join', { room })) as unknown)
      .toEqual({ ok: true, peers: [b.id] });
    // The room's name is no key: another company's admin who knows it is refused.
    expect(await outsider.emitWithAck('signal.join', { room })).toEqual({
      ok: false,
      detail: 'Not your call',
    });

    const received = next(b, 'signal.message');
    const leaked = nothingWithin(outsider, 'signal.message');
    expect(await a.emitWithAck('signal.send', { room, data: { type: 'offer', sdp: 'v=0' } })).toEqual({
      ok: true,
    });
    expect(await received).toEqual({ room, from: a.id, data: { type: 'offer', sdp: 'v=0' } });
    expect(await leaked).toBeUndefined();

    const left = next(b, 'signal.peer_left');
    expect(await a.emitWithAck('signal.leave', { room })).toEqual({ ok: true });
    expect(await left).toEqual({ room, peer: a.id });
  });

  it('lets the server emit to a company room (used by the call queue)', async () => {
    const agent = await studioOf('agent@acme.test', PASSWORDS.user);
    const stranger = await studioOf('admin@globex.test', PASSWORDS.admin);
    const incoming = next(agent, 'call.incoming');
    const leaked = nothingWithin(stranger, 'call.incoming');
    const call = {
      call_id: 1,
      profile: 1,
      profile_name: 'Ada',
      status: 0,
      created_at: new Date().toISOString(),
    };
    t.app.hub.toCompany(1).emit('call.incoming', call);
    expect(await incoming).toEqual(call);
    expect(await leaked).toBeUndefined();
  });
});
