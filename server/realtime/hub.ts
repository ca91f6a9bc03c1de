import type { Server as HttpServer } from 'node:http';
import { eq } from 'drizzle-orm';
import { Server, type Socket } from 'socket.io';
import { type AgentStatus, agentStatusSchema } from '../../src/contract/common';
import {
  type ClientToServerEvents,
  type ServerToClientEvents,
  type SocketData,
  signalJoinSchema,
  signalRelaySchema,
} from '../../src/contract/socket';
import type { TokenService } from '../auth/tokens';
import type { DbOrTx } from '../db/client';
import { users } from '../db/schema';
import { loadPrincipal } from '../domain/principal';

type HubServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type HubSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export const companyRoom = (companyId: number) => `company:${companyId}`;
export const userRoom = (userId: number) => `user:${userId}`;
/** Call rooms are scoped by company, so a room name never reaches another company's sockets. */
export const callRoom = (companyId: number, room: string) => `call:${companyId}:${room}`;

export async function setAgentStatus(db: DbOrTx, userId: number, status: AgentStatus): Promise<void> {
  await db.update(users).set({ agentStatus: status }).where(eq(users.id, userId));
}

export async function agentStatusOf(db: DbOrTx, userId: number): Promise<AgentStatus> {
  const [row] = await db.select({ status: users.agentStatus }).from(users).where(eq(users.id, userId));
  const parsed = agentStatusSchema.safeParse(row?.status);
  return parsed.success ? parsed.data : 'Offline';
}

export interface RealtimeHub {
  io: HubServer;
  /** Emits to every socket of a company (the call and stats issues use this). */
  toCompany(companyId: number): ReturnType<HubServer['to']>;
  toUser(userId: number): ReturnType<HubServer['to']>;
  close(): Promise<void>;
}

function bindSignalling(socket: HubSocket): void {
  const { companyId } = socket.data;
  socket.on('signal.join', async (payload, ack) => {
    const parsed = signalJoinSchema.safeParse(payload);
    if (!parsed.success) return ack?.({ ok: false, detail: 'room is required' });
    const room = callRoom(companyId, parsed.data.room);
    const peers = (await socket.in(room).fetchSockets()).map((s) => s.id).filter((id) => id !== socket.id);
    await socket.join(room);
    socket.to(room).emit('signal.peer_joined', { room: parsed.data.room, peer: socket.id });
    ack?.({ ok: true, peers });
  });
  socket.on('signal.leave', async (payload, ack) => {
    const parsed = signalJoinSchema.safeParse(payload);
    if (!parsed.success) return ack?.({ ok: false, detail: 'room is required' });
    const room = callRoom(companyId, parsed.data.room);
    socket.to(room).emit('signal.peer_left', { room: parsed.data.room, peer: socket.id });
    await socket.leave(room);
    ack?.({ ok: true });
  });
  socket.on('signal.send', (payload, ack) => {
    const parsed = signalRelaySchema.safeParse(payload);
    if (!parsed.success) return ack?.({ ok: false, detail: 'room and data are required' });
    const room = callRoom(companyId, parsed.data.room);
    if (!socket.rooms.has(room)) return ack?.({ ok: false, detail: 'Join the room first' });
    socket
      .to(room)
      .emit('signal.message', { room: parsed.data.room, from: socket.id, data: parsed.data.data });
    ack?.({ ok: true });
  });
}

/**
 * socket.io on the app's HTTP server (path /socket.io). A socket authenticates with the token of
 * POST /user/socket_token and joins its company's and its user's rooms.
 */
export function createHub(
  httpServer: HttpServer,
  deps: {
    db: DbOrTx;
    tokens: TokenService;
    corsOrigins: (origin: string | undefined) => boolean;
    onError: (error: unknown) => void;
  },
): RealtimeHub {
  const io: HubServer = new Server(httpServer, {
    path: '/socket.io',
    cors: { origin: (origin, done) => done(null, deps.corsOrigins(origin)), credentials: true },
    serveClient: false,
  });

  io.use(async (socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    const claims = typeof token === 'string' ? await deps.tokens.verifySocket(token) : null;
    const principal = claims ? await loadPrincipal(deps.db, claims.user_id) : null;
    if (!claims || !principal || principal.companyId !== claims.company_id) {
      return next(new Error('Token is invalid or expired'));
    }
    socket.data = { userId: principal.id, companyId: principal.companyId };
    next();
  });

  io.on('connection', (socket) => {
    const { userId, companyId } = socket.data;
    bindSignalling(socket);

    socket.on('agent.status.set', async (status, ack) => {
      const parsed = agentStatusSchema.safeParse(status);
      if (!parsed.success) return ack?.({ ok: false, detail: 'Unknown agent status' });
      try {
        await setAgentStatus(deps.db, userId, parsed.data);
      } catch (error) {
        deps.onError(error);
        return ack?.({ ok: false, detail: 'An error occured' });
      }
      io.to(companyRoom(companyId)).emit('agent.status', { user_id: userId, status: parsed.data });
      ack?.({ ok: true, status: parsed.data });
    });

    socket.on('disconnect', async () => {
      // An agent with no connected socket cannot answer: they go Offline.
      try {
        const left = await io.in(userRoom(userId)).fetchSockets();
        if (left.length > 0 || (await agentStatusOf(deps.db, userId)) === 'Offline') return;
        await setAgentStatus(deps.db, userId, 'Offline');
        io.to(companyRoom(companyId)).emit('agent.status', { user_id: userId, status: 'Offline' });
      } catch (error) {
        deps.onError(error);
      }
    });

    void (async () => {
      await socket.join([companyRoom(companyId), userRoom(userId)]);
      socket.emit('agent.status', { user_id: userId, status: await agentStatusOf(deps.db, userId) });
    })().catch(deps.onError);
  });

  return {
    io,
    toCompany: (companyId) => io.to(companyRoom(companyId)),
    toUser: (userId) => io.to(userRoom(userId)),
    close: () =>
      new Promise<void>((resolve) => {
        io.disconnectSockets(true);
        io.engine.close();
        resolve();
      }),
  };
}
