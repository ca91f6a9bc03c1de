/**
 * A live call for watch tests: a test app listening on a port, staff and customer sockets that record what they
 * hear, and a call created by its customer and answered by its agent through the desk, as the studio does.
 */
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import { expect } from 'vitest';
import type { ClientToServerEvents, ServerToClientEvents } from '#contract/socket';
import { users } from '../../server/db/schema';
import { bearer, FAST_CALLS, startTestApp, type TestApp } from './helpers';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type Heard = { event: string; payload: unknown }[];

export const WATCH_ICE = {
  urls: ['stun:stun.example.com:3478', 'turn:turn.example.com:3478?transport=udp'],
  secret: 'watch-test-secret',
  credentialTtlSeconds: 900,
  transportPolicy: 'all' as const,
};

export interface WatchWorld {
  t: TestApp;
  staff(user: number, companyId?: number): Promise<{ socket: ClientSocket; heard: Heard }>;
  customer(profile: number): Promise<{
    call: { id: number; room_id: string };
    token: string;
    socket: ClientSocket;
    heard: Heard;
  }>;
  /** A call of `profile` answered by `agent` (whose socket is given), talking. */
  liveCall(
    agent: { socket: ClientSocket },
    profile: number,
  ): Promise<{ callId: number; room: string; customer: Awaited<ReturnType<WatchWorld['customer']>> }>;
  close(): Promise<void>;
}

/** `watchGraceMs`: how long a watcher's channel may stay empty before the watch ends (the agents' grace). */
export async function watchWorld(watchGraceMs = 60_000): Promise<WatchWorld> {
  const t = await startTestApp({
    calls: { ...FAST_CALLS, agentGraceMs: watchGraceMs, customerGraceMs: 60_000, unattachedCallMs: 60_000 },
    ice: WATCH_ICE,
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const sockets: ClientSocket[] = [];

  function connect(auth: Record<string, unknown>, heard: Heard) {
    const socket: ClientSocket = io(url, {
      path: '/socket.io',
      auth,
      transports: ['websocket'],
      reconnection: false,
      autoConnect: false,
    });
    sockets.push(socket);
    socket.onAny((event, payload) => heard.push({ event, payload }));
    socket.connect();
    return new Promise<ClientSocket>((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });
  }

  const world: WatchWorld = {
    t,
    async staff(user, companyId = 1) {
      await t.app.ctx.db.update(users).set({ agentStatus: 'Online' }).where(eq(users.id, user));
      const heard: Heard = [];
      const token = await t.app.ctx.tokens.signSocket({ user_id: user, company_id: companyId });
      return { socket: await connect({ token }, heard), heard };
    },
    async customer(profile) {
      const token = await t.app.ctx.tokens.signCustomer({ profile_id: profile, company_id: 1 }, 3600);
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/v2/videocall',
        headers: bearer(token),
        payload: { profile, status: 0 },
      });
      expect(created.statusCode, created.body).toBe(201);
      const call = created.json() as { id: number; room_id: string };
      const heard: Heard = [];
      const socket = await connect({ customer: token, call_id: call.id }, heard);
      return { call, token, socket, heard };
    },
    async liveCall(agent, profile) {
      const customer = await world.customer(profile);
      await expect
        .poll(async () => (await agent.socket.emitWithAck('call.answer', { call_id: customer.call.id })).ok)
        .toBe(true);
      return { callId: customer.call.id, room: customer.call.room_id, customer };
    },
    async close() {
      for (const socket of sockets) socket.disconnect();
      await t.close();
    },
  };
  return world;
}

/** The payloads of one event a socket heard. */
export const heardOf = (heard: Heard, event: string) =>
  heard.filter((h) => h.event === event).map((h) => h.payload);
