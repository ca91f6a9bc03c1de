import type { Server as HttpServer } from 'node:http';
import { Server, type ServerOptions, type Socket } from 'socket.io';
import { MAY_NOT_TAKE_CALLS, mayTakeCalls } from '#contract/constants';
import {
  type ClientToServerEvents,
  type ServerToClientEvents,
  type SocketData,
  signalJoinSchema,
  signalRelaySchema,
} from '#contract/socket';
import type { TokenService } from '../auth/tokens';
import type { DbOrTx } from '../db/client';
import { type CallIceService, relayOnlySignal } from '../domain/callIce';
import {
  type IpAllowListCache,
  notAllowedDetail,
  type ProxyTrust,
  socketAllowed,
} from '../domain/ipAllowList';
import { unreadCount } from '../domain/notifications';
import { loadPrincipal, type Principal } from '../domain/principal';
import { callOfLink } from '../domain/videocalls/joinLinks';
import { HttpError } from '../errors';
import { callAttributes, inSpan, SpanKind } from '../telemetry/spans';
import type { CallDesk, DeskEvent } from './callDesk';
import { type CallWatchHub, createCallWatchHub } from './callWatch';
import { createInstantStats } from './instantStats';
import {
  agentsRoom,
  callRoom,
  companyRoom,
  customerRoom,
  reviewersRoom,
  sessionRoom,
  userRoom,
} from './rooms';

type HubServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type HubSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export interface RealtimeHub {
  io: HubServer;
  /** Emits to every socket of a company. */
  toCompany(companyId: number): ReturnType<HubServer['to']>;
  toUser(userId: number): ReturnType<HubServer['to']>;
  /**
   * The users' role, groups or group permissions changed: their connected sockets (on every process) join or
   * leave the reviewers' room as their permissions now say, so a user who lost review_profiles hears no more
   * case changes and one who gained it hears them, without reconnecting; a user who may no longer take calls
   * leaves the agents' room.
   */
  refreshAccess(userIds: readonly number[]): Promise<void>;
  /** Supervisors watching calls: their channels, who watches, and the end of watches. */
  watch: CallWatchHub;
  close(): Promise<void>;
}

const callIdOf = (payload: unknown): number | null => {
  const id = (payload as { call_id?: unknown } | null)?.call_id;
  return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : null;
};

const NOT_YOUR_CALL = 'Not your call';

/** Who hears the desk's live events (`review.case_changed`): staff with review_profiles, not API users. */
const mayReviewLive = (principal: Principal) =>
  !principal.isApiUser && principal.permissions.includes('review_profiles');

/**
 * WebRTC signalling in a call's room (a room holds two). A staff socket may join only the room of
 * the call its user is the agent of, while it talks (and only if the user may still take calls); a customer's
 * socket only its own call's room (it is put there when it connects). Sending needs the room joined, and
 * a closed call's room is emptied by the desk, so nobody else can read the offer or inject a signal.
 * In a company whose calls are relay-only, every address but the TURN server's is taken out of the signals
 * (relayOnlySignal), whatever the sending browser was told.
 */
function bindSignalling(
  socket: HubSocket,
  mayJoin: (room: string) => Promise<boolean>,
  relayOnly: () => Promise<boolean>,
  onError: (error: unknown) => void,
): void {
  const { companyId } = socket.data;
  /** A socket's signals are forwarded in the order it sent them (an offer before its candidates). */
  let forwarding: Promise<void> = Promise.resolve();
  socket.on('signal.join', async (payload, ack) => {
    const parsed = signalJoinSchema.safeParse(payload);
    if (!parsed.success) return ack?.({ ok: false, detail: 'room is required' });
    try {
      if (!(await mayJoin(parsed.data.room))) return ack?.({ ok: false, detail: NOT_YOUR_CALL });
    } catch (error) {
      onError(error);
      return ack?.({ ok: false, detail: 'An error occured' });
    }
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
    forwarding = forwarding.then(async () => {
      try {
        const data = (await relayOnly()) ? relayOnlySignal(parsed.data.data) : parsed.data.data;
        // A dropped candidate is acknowledged like a forwarded one: the sender has nothing to do about it.
        if (data) socket.to(room).emit('signal.message', { room: parsed.data.room, from: socket.id, data });
        ack?.({ ok: true });
      } catch (error) {
        onError(error);
        ack?.({ ok: false, detail: 'An error occured' });
      }
    });
  });
}

/**
 * socket.io on the app's HTTP server (path /socket.io), docs/events.md. Staff authenticate with the token of
 * POST /user/socket_token and join their company's and user's rooms; a customer authenticates with the token
 * of their join link and the id of the call they created, and joins that call's rooms.
 */
export function createHub(
  httpServer: HttpServer,
  deps: {
    db: DbOrTx;
    tokens: TokenService;
    calls: CallDesk;
    /** Each side's STUN/TURN servers and credentials, and whether the company's calls are relay-only. */
    ice: Pick<CallIceService, 'forCall' | 'relayOnly'>;
    /** Staff sockets connect only from an address on their company's IP allow-list. */
    ipAllowList: IpAllowListCache;
    proxyTrust: ProxyTrust | false;
    corsOrigins: (origin: string | undefined) => boolean;
    onError: (error: unknown) => void;
    /** The least time between two pushes of a company's instant stats. */
    statsEveryMs: number;
    /**
     * Distributed mode: socket.io's Redis adapter (rooms and emits reach every process), and how often the
     * desk looks for the calls and agents of processes that died.
     */
    cluster?: { adapter: ServerOptions['adapter']; sweepMs: number };
    /** Counts socket connections (metrics). */
    onConnection?: (change: 1 | -1) => void;
    /** Server-side sessions: a socket token of an ended session is refused. */
    sessions?: { isActive(claims: { session_id: string; user_id: number }): Promise<boolean> };
    /** A watcher with no socket back in a call's watch channel this long stops watching it (30 s by default). */
    watchGraceMs?: number;
  },
): RealtimeHub {
  const io: HubServer = new Server(httpServer, {
    path: '/socket.io',
    cors: { origin: (origin, done) => done(null, deps.corsOrigins(origin)), credentials: true },
    // A browser opens sockets only from the studio's origins, on either transport: CORS alone would
    // still let a polling request or a WebSocket in.
    allowRequest: (request, done) => done(null, deps.corsOrigins(request.headers.origin)),
    serveClient: false,
    ...(deps.cluster ? { adapter: deps.cluster.adapter } : {}),
  });
  deps.calls.bind(io);
  const cluster = deps.cluster;
  const stats = createInstantStats({
    db: deps.db,
    waiting: (companyId) => deps.calls.queue(companyId),
    // Distributed: every process keeps the figures from every process's desk events and tells its own sockets.
    push: (companyId, figures) =>
      (cluster ? io.local : io).to(companyRoom(companyId)).emit('stats.update', figures),
    onError: deps.onError,
    everyMs: deps.statsEveryMs,
  });
  deps.calls.onEvent((event) => stats.record(event));
  const watch = createCallWatchHub({
    io: () => io,
    db: deps.db,
    inCall: (userId) => deps.calls.inCall(userId),
    relayOnly: (companyId) => deps.ice.relayOnly(companyId),
    leftGraceMs: deps.watchGraceMs ?? 30_000,
    onError: deps.onError,
  });
  // The desk tells the process that ended a call: its watches end there, once.
  deps.calls.onEvent((event) => {
    if (event.kind === 'ended') watch.callEnded(event.companyId, event.callId).catch(deps.onError);
  });
  let sweep: NodeJS.Timeout | undefined;
  if (cluster) {
    const serverSide = io as unknown as {
      serverSideEmit(event: 'desk', payload: DeskEvent): void;
      on(event: 'desk', listener: (payload: DeskEvent) => void): void;
    };
    deps.calls.onEvent((event) => serverSide.serverSideEmit('desk', event));
    serverSide.on('desk', (event) => stats.record(event));
    const run = () => deps.calls.adoptOrphans().catch(deps.onError);
    void run();
    sweep = setInterval(run, cluster.sweepMs);
    sweep.unref();
  }

  io.use((socket, next) => {
    // A failure while checking (the database closing under a connection that arrives during shutdown) refuses the
    // connection instead of leaving a rejected promise behind.
    admit(socket).then(next, (error: unknown) => {
      deps.onError(error);
      next(new Error('An error occured'));
    });
  });

  /** Checks a connection's token (customer or staff), address and session; the error refuses it. */
  async function admit(socket: HubSocket): Promise<Error | undefined> {
    const auth = (socket.handshake.auth ?? {}) as { token?: unknown; customer?: unknown; call_id?: unknown };
    if (typeof auth.customer === 'string') {
      const claims = await deps.tokens.verifyCustomer(auth.customer);
      const callId = callIdOf(auth);
      if (!claims || !callId) return new Error('Token is invalid or expired');
      // The room of a call is its own link's: another link of the same profile may not listen or signal in it.
      const bound = await callOfLink(deps.db, claims, auth.customer, callId).then(
        () => true,
        (error: unknown) => {
          if (error instanceof HttpError) return false;
          throw error;
        },
      );
      if (!bound) return new Error('Token is invalid or expired');
      socket.data = { kind: 'customer', profileId: claims.profile_id, companyId: claims.company_id, callId };
      return undefined;
    }
    const claims = typeof auth.token === 'string' ? await deps.tokens.verifySocket(auth.token) : null;
    const principal = claims ? await loadPrincipal(deps.db, claims.user_id) : null;
    if (!claims || !principal || principal.companyId !== claims.company_id) {
      return new Error('Token is invalid or expired');
    }
    const where = await socketAllowed(
      { ipAllowList: deps.ipAllowList, trust: deps.proxyTrust },
      principal.companyId,
      socket.handshake,
    );
    if (!where.allowed) return new Error(notAllowedDetail(where.address));
    if (claims.session_id && deps.sessions) {
      const session = { session_id: claims.session_id, user_id: claims.user_id };
      if (!(await deps.sessions.isActive(session))) return new Error('Token is invalid or expired');
      await socket.join(sessionRoom(claims.session_id));
    }
    socket.data = {
      kind: 'staff',
      userId: principal.id,
      companyId: principal.companyId,
      takesCalls: mayTakeCalls(principal),
      reviews: mayReviewLive(principal),
    };
    return undefined;
  }

  function onCustomer(socket: HubSocket, data: Extract<SocketData, { kind: 'customer' }>) {
    const { companyId, callId } = data;
    // The call's trace starts here: the desk, the ring and (through the ring) the agent's answer follow.
    const joined = { kind: SpanKind.SERVER, attributes: callAttributes(companyId, callId) };
    void inSpan('socket customer.join', joined, async () => {
      const call = await deps.calls.customerConnected(companyId, data.profileId, callId, async (roomId) => {
        await socket.join([customerRoom(callId), callRoom(companyId, roomId)]);
        return socket.connected;
      });
      if (!call) {
        socket.emit('call.ended', { call_id: callId, by: 'agent' });
        socket.disconnect(true);
        return;
      }
      // In its call now: its own servers and fresh credentials, to this socket alone.
      socket.emit('call.ice', {
        call_id: callId,
        ice: await deps.ice.forCall(companyId, callId, 'customer'),
      });
    }).catch(deps.onError);
    socket.on('call.ice', async (payload, ack) => {
      try {
        if (callIdOf(payload) !== callId || !(await deps.calls.roomOf(companyId, callId)))
          return ack?.({ ok: false, detail: NOT_YOUR_CALL });
        ack?.({ ok: true, ice: await deps.ice.forCall(companyId, callId, 'customer') });
      } catch (error) {
        deps.onError(error);
        ack?.({ ok: false, detail: 'An error occured' });
      }
    });
    socket.on('call.hangup', async (payload, ack) => {
      const result = await deps.calls.hangUp(companyId, { callId }, callIdOf(payload) ?? 0);
      ack?.(result);
    });
    socket.on('disconnect', () => deps.calls.customerDisconnected(companyId, callId));
  }

  /** Whether the user may take calls now (a role or group changed since the socket connected counts). */
  async function takesCallsNow(userId: number): Promise<boolean> {
    const principal = await loadPrincipal(deps.db, userId);
    return principal !== null && mayTakeCalls(principal);
  }

  function onStaff(socket: HubSocket, data: Extract<SocketData, { kind: 'staff' }>) {
    const { userId, companyId } = data;
    deps.calls.agentConnected(userId);

    socket.on('queue.sync', async (ack) => {
      if (!data.takesCalls) return ack?.({ ok: false, detail: MAY_NOT_TAKE_CALLS });
      try {
        ack?.({ ok: true, calls: await deps.calls.queue(companyId) });
      } catch (error) {
        deps.onError(error);
        ack?.({ ok: false, detail: 'An error occured' });
      }
    });
    socket.on('call.answer', async (payload, ack) => {
      const callId = callIdOf(payload);
      if (!callId) return ack?.({ ok: false, detail: 'call_id is required' });
      // Another socket than the customer's: the answer continues the call's trace as the ring's child.
      const answering = {
        kind: SpanKind.SERVER,
        parent: await deps.calls.traceOf(callId),
        attributes: { ...callAttributes(companyId, callId), 'idv.agent_id': userId },
      };
      await inSpan('socket call.answer', answering, async () => {
        try {
          if (!data.takesCalls || !(await takesCallsNow(userId)))
            return ack?.({ ok: false, detail: MAY_NOT_TAKE_CALLS });
          const answered = await deps.calls.answer(companyId, userId, callId);
          if (!answered.ok) return ack?.(answered);
          // The winner alone learns the call's room and its own servers and credentials.
          ack?.({ ...answered, ice: await deps.ice.forCall(companyId, callId, 'agent') });
        } catch (error) {
          deps.onError(error);
          ack?.({ ok: false, detail: 'An error occured' });
        }
      });
    });
    socket.on('call.ice', async (payload, ack) => {
      const callId = callIdOf(payload);
      try {
        if (!callId || (await deps.calls.inCall(userId)) !== callId)
          return ack?.({ ok: false, detail: NOT_YOUR_CALL });
        ack?.({ ok: true, ice: await deps.ice.forCall(companyId, callId, 'agent') });
      } catch (error) {
        deps.onError(error);
        ack?.({ ok: false, detail: 'An error occured' });
      }
    });
    socket.on('call.hangup', async (payload, ack) => {
      try {
        ack?.(await deps.calls.hangUp(companyId, { agentId: userId }, callIdOf(payload) ?? 0));
      } catch (error) {
        deps.onError(error);
        ack?.({ ok: false, detail: 'An error occured' });
      }
    });

    // An agent who cannot be reached cannot answer: with no socket left for a while, they go Offline.
    // A short drop (a reconnect) keeps the status.
    socket.on('disconnect', () => deps.calls.agentDisconnected(companyId, userId));

    void (async () => {
      await socket.join([
        companyRoom(companyId),
        userRoom(userId),
        ...(data.takesCalls ? [agentsRoom(companyId)] : []),
        ...(data.reviews ? [reviewersRoom(companyId)] : []),
      ]);
      if (data.takesCalls) deps.calls.agentReachable(companyId);
      socket.emit('agent.status', await deps.calls.agentState(userId));
      socket.emit('stats.update', await stats.current(companyId, userId));
      // The bell's count: on every connect, so a page load or a reconnect needs no read of its own.
      socket.emit('notification.unread', { unread: await unreadCount(deps.db, userId, companyId) });
    })().catch(deps.onError);
  }

  io.on('connection', (socket) => {
    deps.onConnection?.(1);
    socket.on('disconnect', () => deps.onConnection?.(-1));
    const data = socket.data;
    bindSignalling(
      socket,
      async (room) => {
        if (data.kind === 'customer') return room === (await deps.calls.roomOf(data.companyId, data.callId));
        return (
          data.takesCalls &&
          (await deps.calls.mayJoin(data.companyId, data.userId, room)) &&
          (await takesCallsNow(data.userId))
        );
      },
      () => deps.ice.relayOnly(data.companyId),
      deps.onError,
    );
    watch.bind(socket);
    if (data.kind === 'customer') onCustomer(socket, data);
    else onStaff(socket, data);
  });

  return {
    io,
    toCompany: (companyId) => io.to(companyRoom(companyId)),
    toUser: (userId) => io.to(userRoom(userId)),
    async refreshAccess(userIds) {
      for (const userId of new Set(userIds)) {
        const principal = await loadPrincipal(deps.db, userId);
        if (!principal) continue;
        const sockets = io.in(userRoom(userId));
        if (mayReviewLive(principal)) sockets.socketsJoin(reviewersRoom(principal.companyId));
        else sockets.socketsLeave(reviewersRoom(principal.companyId));
        // Calls: a socket that may no longer take them stops hearing them (answering checks again anyway); one
        // that may now takes them from its next connection, where its handlers learn it too.
        if (!mayTakeCalls(principal)) sockets.socketsLeave(agentsRoom(principal.companyId));
        await watch.refreshAccess(principal);
      }
    },
    watch,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(sweep);
        stats.close();
        deps.calls.close();
        // The transports close without a "server disconnect": clients reconnect by themselves (to this server
        // once it is back, or to another process), as they would after a crash.
        io.engine.close();
        resolve();
      }),
  };
}
