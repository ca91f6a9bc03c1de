/**
 * Socket tests' world: a test app listening on a port, and sockets that connect to it as staff (with a socket
 * token) or as a customer (with a join-link token and their call), recording what they hear, all closed with
 * the app.
 */
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import { expect } from 'vitest';
import type { ClientToServerEvents, ServerToClientEvents } from '#contract/socket';
import { users } from '../../server/db/schema';
import { bearer, startTestApp, type TestApp } from './helpers';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type Heard = { event: string; payload: unknown }[];

/** How a socket connects beyond its auth. */
export interface ConnectOptions {
  /** Headers of the handshake, such as a forwarded address. */
  extraHeaders?: Record<string, string>;
}

export interface LiveApp {
  t: TestApp;
  /** Where the app listens. */
  url: string;
  /**
   * Connects; `listen` runs before the connection, so nothing sent on connect is missed. Rejects with the
   * server's refusal.
   */
  connect(
    auth: Record<string, unknown>,
    listen?: (socket: ClientSocket) => void,
    options?: ConnectOptions,
  ): Promise<ClientSocket>;
  /** The socket token the studio of a signed-in user (`access`) is given. */
  socketToken(access: string, headers?: Record<string, string>): Promise<string>;
  /** The studio's socket of a signed-in user (`access`), with the socket token it is given. */
  studio(access: string, listen?: (socket: ClientSocket) => void): Promise<ClientSocket>;
  /** A staff socket of `user`, made Online first unless `online` is false, hearing every event. */
  staff(
    user: number,
    options?: { companyId?: number; online?: boolean },
  ): Promise<{ socket: ClientSocket; heard: Heard }>;
  /** A customer of company 1 who created a call of `profile` as a join link does, connected: waiting. */
  customer(profile: number): Promise<{
    call: { id: number; room_id: string };
    token: string;
    socket: ClientSocket;
    heard: Heard;
  }>;
  close(): Promise<void>;
}

/**
 * A socket to the server at `url`, kept in `sockets` for the caller to close; `listen` runs before the
 * connection. Rejects with the server's refusal.
 */
export function connectTo(
  url: string,
  sockets: ClientSocket[],
  auth: Record<string, unknown>,
  listen?: (socket: ClientSocket) => void,
  { extraHeaders }: ConnectOptions = {},
): Promise<ClientSocket> {
  const socket: ClientSocket = io(url, {
    path: '/socket.io',
    auth,
    transports: ['websocket'],
    reconnection: false,
    autoConnect: false,
    ...(extraHeaders ? { extraHeaders } : {}),
  });
  sockets.push(socket);
  listen?.(socket);
  socket.connect();
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** A test app (of what `startTestApp` takes) that sockets reach. */
export async function liveApp(...start: Parameters<typeof startTestApp>): Promise<LiveApp> {
  const t = await startTestApp(...start);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const sockets: ClientSocket[] = [];
  const hearing = (heard: Heard) => (socket: ClientSocket) =>
    socket.onAny((event, payload) => heard.push({ event, payload }));

  const live: LiveApp = {
    t,
    url,
    connect: (auth, listen, options) => connectTo(url, sockets, auth, listen, options),
    async socketToken(access, headers = {}) {
      const reply = await t.app.inject({
        method: 'POST',
        url: '/api/v2/user/socket_token',
        headers: { ...bearer(access), ...headers },
        payload: { studio: true },
      });
      expect(reply.statusCode, reply.body).toBe(200);
      return (reply.json() as { token: string }).token;
    },
    async studio(access, listen) {
      return live.connect({ token: await live.socketToken(access) }, listen);
    },
    async staff(user, { companyId = 1, online = true } = {}) {
      if (online) await t.app.ctx.db.update(users).set({ agentStatus: 'Online' }).where(eq(users.id, user));
      const heard: Heard = [];
      const token = await t.app.ctx.tokens.signSocket({ user_id: user, company_id: companyId });
      return { socket: await live.connect({ token }, hearing(heard)), heard };
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
      const socket = await live.connect({ customer: token, call_id: call.id }, hearing(heard));
      return { call, token, socket, heard };
    },
    async close() {
      for (const socket of sockets) socket.disconnect();
      await t.close();
    },
  };
  return live;
}

/** The payloads of one event a socket heard. */
export const heardOf = (heard: Heard, event: string) =>
  heard.filter((h) => h.event === event).map((h) => h.payload);

/** The next `event` the socket receives whose payload `matching` accepts. */
export function next<E extends keyof ServerToClientEvents>(
  socket: ClientSocket,
  event: E,
  matching: (payload: Parameters<ServerToClientEvents[E]>[0]) => boolean = () => true,
): Promise<Parameters<ServerToClientEvents[E]>[0]> {
  return new Promise((resolve) => {
    const listener = (payload: Parameters<ServerToClientEvents[E]>[0]) => {
      if (!matching(payload)) return;
      socket.off(event, listener as never);
      resolve(payload);
    };
    socket.on(event, listener as never);
  });
}
