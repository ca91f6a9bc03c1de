/**
 * The realtime connection of the signed-in account (docs/events.md): one socket.io connection, authenticated
 * with a fresh POST /user/socket_token on every (re)connect, reconnecting with back-off. It turns server
 * events into machine events (`CALL.INCOMING`, `AGENT.STATUS` …); after a reconnect it re-joins its call rooms
 * and re-syncs the queue, so nothing stale or lost survives a drop. Views never touch the socket.
 */
import { io, type Socket } from 'socket.io-client';
import type { LiveQuality } from '#contract/callQualityRules';
import type { AgentStatusName } from '#contract/constants';
import type { CallStep } from '#contract/identProcedure';
import type { MachineCheck } from '#contract/machineChecks';
import type { NotificationEvent } from '#contract/notifications';
import type {
  AnsweredCall,
  CallIce,
  ClientToServerEvents,
  InstantStats,
  QueuedCall,
  ReviewCaseChanged,
  ServerToClientEvents,
} from '#contract/socket';
import { type CallWatching, createCallWatching } from './callWatching';
import { createProfileWatching, type ProfileWatching } from './profileWatch';
import { createWatchedMedia, type WatchedMedia } from './watchMedia';

export type RealtimeEvent =
  | { type: 'CALL.INCOMING'; call: QueuedCall }
  /** One-at-a-time routing: who the waiting call is offered to now. */
  | { type: 'CALL.OFFER'; call: QueuedCall }
  | { type: 'CALL.TAKEN'; call_id: number; agent_id: number }
  | { type: 'CALL.CANCELLED'; call_id: number }
  | { type: 'CALL.ENDED'; call_id: number; by: 'agent' | 'customer' }
  | { type: 'CALL.CLOSED'; call_id: number; status: number; reason: string }
  | { type: 'QUEUE.SYNC'; calls: QueuedCall[] }
  | { type: 'AGENT.STATUS'; user_id: number; status: AgentStatusName; call_id: number | null }
  | { type: 'STATS.UPDATE'; stats: InstantStats }
  /** The customer's entry in a guided call recorded a step result: to the call's agent. */
  | { type: 'STEP.RECORDED'; call_id: number; step: CallStep }
  /** A machine check of the call's screenshots ended (face match, MRZ): to the call's agent. */
  | { type: 'CHECK.DONE'; call_id: number; check: MachineCheck }
  /** What the customer receives in a call: to the call's agent. */
  | ({ type: 'QUALITY.CUSTOMER'; call_id: number } & LiveQuality)
  /** Someone mentioned this user (their own room only). */
  | { type: 'NOTIFICATION.NEW'; event: NotificationEvent }
  | { type: 'NOTIFICATION.UNREAD'; unread: number }
  | { type: 'CONNECTION.LOST' }
  | { type: 'CONNECTION.RESTORED' };

export type SignalData = Record<string, unknown>;

/** WebRTC signalling through the call rooms of the socket. */
export interface Signalling {
  /** Joins a call room; resolves with the peers already there once the server acknowledged the join. */
  join(room: string): Promise<string[]>;
  leave(room: string): Promise<void>;
  send(room: string, data: SignalData): Promise<void>;
  /** Signals from the other members of a room. */
  onSignal(room: string, listener: (data: SignalData) => void): () => void;
}

export interface Realtime extends Signalling {
  subscribe(listener: (event: RealtimeEvent) => void): () => void;
  /**
   * Claims a waiting call; rejects with the server's detail (e.g. "Call Already Answered"). Only the winner
   * learns the call's room, here.
   */
  answer(callId: number): Promise<AnsweredCall>;
  /**
   * The STUN/TURN servers and transport policy of a call this agent answered: the answer's own the first time,
   * fresh credentials from the server after that (a new peer after a drop).
   */
  ice(callId: number): Promise<CallIce>;
  hangUp(callId: number): Promise<void>;
  /** The last instant stats the server pushed (on connect and on every change), or null before the first. */
  latestStats(): InstantStats | null;
  close(): void;
  /** Who else has a profile open, and what they change (src/services/profileWatch.ts). */
  watchProfile: ProfileWatching['watchProfile'];
  /** Supervisors watching calls: channels, who watches, whispers (src/services/callWatching.ts). */
  callWatch: Omit<CallWatching, 'rejoin'>;
  /** The media of the calls this page watches, which outlives the views that show it (src/services/watchMedia.ts). */
  watchedMedia: WatchedMedia;
  /**
   * Review cases that changed (reviewers only); `null` after a (re)connect, when anything may have changed
   * unseen. Returns the unsubscribe.
   */
  onReviewCase(listener: (change: ReviewCaseChanged | null) => void): () => void;
}

/** A refusal or failure of a socket request, with the server's detail. */
export class RealtimeError extends Error {
  override readonly name = 'RealtimeError';
  constructor(readonly detail: string) {
    super(detail);
  }
}

const ACK_TIMEOUT_MS = 10_000;
const RETRY_MAX_MS = 10_000;
type Reply<T extends object> = ({ ok: true } & T) | { ok: false; detail: string };

function unwrap<T extends object>(reply: Reply<T>): T {
  if (!reply.ok) throw new RealtimeError(reply.detail);
  return reply;
}

/**
 * The one table from server events to machine events: each server event the studio acts on, and the machine
 * event it becomes. Server events not listed here have their own listeners (signals, review cases, profiles).
 */
const MACHINE_EVENTS = {
  'call.incoming': (call) => ({ type: 'CALL.INCOMING', call }),
  'call.offer': (call) => ({ type: 'CALL.OFFER', call }),
  'call.taken': ({ call_id, agent_id }) => ({ type: 'CALL.TAKEN', call_id, agent_id }),
  'call.cancelled': ({ call_id }) => ({ type: 'CALL.CANCELLED', call_id }),
  'call.ended': ({ call_id, by }) => ({ type: 'CALL.ENDED', call_id, by }),
  'call.closed': ({ call_id, status, reason }) => ({ type: 'CALL.CLOSED', call_id, status, reason }),
  'agent.status': ({ user_id, status, call_id }) => ({ type: 'AGENT.STATUS', user_id, status, call_id }),
  'stats.update': (stats) => ({ type: 'STATS.UPDATE', stats }),
  'call.step_recorded': ({ call_id, step }) => ({ type: 'STEP.RECORDED', call_id, step }),
  'call.check_done': ({ call_id, check }) => ({ type: 'CHECK.DONE', call_id, check }),
  'call.customer_quality': ({ call_id, sample, summary }) => ({
    type: 'QUALITY.CUSTOMER',
    call_id,
    sample,
    summary,
  }),
  'notification.new': (event) => ({ type: 'NOTIFICATION.NEW', event }),
  'notification.unread': ({ unread }) => ({ type: 'NOTIFICATION.UNREAD', unread }),
} satisfies {
  [E in keyof ServerToClientEvents]?: (payload: Parameters<ServerToClientEvents[E]>[0]) => RealtimeEvent;
};

const isMachineEventName = (name: string): name is keyof typeof MACHINE_EVENTS =>
  Object.hasOwn(MACHINE_EVENTS, name);

export function connectRealtime(options: {
  /** The company server's address (the API's origin). */
  server: string;
  /** A fresh socket token (POST /user/socket_token). */
  socketToken: () => Promise<string>;
  /** Tests pass their own socket factory. */
  connect?: typeof io;
  /** The first delay before connecting again after the server closed or refused the connection. */
  retryBaseMs?: number;
}): Realtime {
  const retryBaseMs = options.retryBaseMs ?? 1_000;
  const listeners = new Set<(event: RealtimeEvent) => void>();
  const reviewListeners = new Set<(change: ReviewCaseChanged | null) => void>();
  const signalListeners = new Map<string, Set<(data: SignalData) => void>>();
  /** The call rooms this studio is in, re-joined after every reconnect. */
  const rooms = new Set<string>();
  /** Whether the connection dropped (or never came) since it was last up: the next connect restores it. */
  let lost = false;
  /** Set by close(): no more reconnecting. */
  let closed = false;
  let stats: InstantStats | null = null;
  /**
   * Calls that came or went while a queue sync was on its way: the server's list may be older than them (it is
   * read before they happened but answered after), so they are applied on top of it.
   */
  let moved: { came: Map<number, QueuedCall>; went: Set<number> } | null = null;
  let retries = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** The ICE each answer gave, until its call's first peer takes it. */
  const answeredIce = new Map<number, CallIce>();

  /** Tells the subscribers, and keeps what the studio must remember of the event (the stats, moved calls). */
  const emit = (event: RealtimeEvent) => {
    switch (event.type) {
      case 'CALL.INCOMING':
      case 'CALL.OFFER':
        moved?.came.set(event.call.call_id, event.call);
        moved?.went.delete(event.call.call_id);
        break;
      case 'CALL.TAKEN':
      case 'CALL.CANCELLED':
        moved?.went.add(event.call_id);
        moved?.came.delete(event.call_id);
        break;
      case 'STATS.UPDATE':
        stats = event.stats;
        break;
    }
    for (const listener of listeners) listener(event);
  };

  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = (options.connect ?? io)(options.server, {
    path: '/socket.io',
    transports: ['websocket'],
    auth: (send) => {
      options.socketToken().then(
        (token) => send({ token }),
        () => send({}),
      );
    },
    reconnectionDelay: 500,
    reconnectionDelayMax: 5_000,
    randomizationFactor: 0.5,
  });
  const request = socket.timeout(ACK_TIMEOUT_MS);
  const profiles = createProfileWatching(socket);
  const callWatch = createCallWatching(socket);
  const watchedMedia = createWatchedMedia(callWatch);

  async function syncQueue() {
    const during = { came: new Map<number, QueuedCall>(), went: new Set<number>() };
    moved = during;
    try {
      const { calls }: { calls: QueuedCall[] } = unwrap(
        await socket.timeout(ACK_TIMEOUT_MS).emitWithAck('queue.sync'),
      );
      const listed = new Set(calls.map((call) => call.call_id));
      const later = [...during.came.values()].filter((call) => !listed.has(call.call_id));
      emit({
        type: 'QUEUE.SYNC',
        // A call offered to someone else meanwhile is shown with its newer offer.
        calls: [...calls.map((call) => during.came.get(call.call_id) ?? call), ...later].filter(
          (call) => !during.went.has(call.call_id),
        ),
      });
    } catch {
      // The next reconnect syncs again.
    } finally {
      if (moved === during) moved = null;
    }
  }

  /** After a (re)connect: call rooms first, so signals of a running call flow again before anyone is told. */
  async function resume() {
    for (const room of rooms)
      await socket
        .timeout(ACK_TIMEOUT_MS)
        .emitWithAck('signal.join', { room })
        .catch(() => null);
    // Also when the very first attempt failed (the server was away when the studio opened).
    if (lost) emit({ type: 'CONNECTION.RESTORED' });
    lost = false;
    await syncQueue();
  }

  // socket.io does not retry by itself after the server closed the connection (a restart) or refused it (a
  // token that could not be fetched while the server was away): we do, with back-off, until connected.
  const retryLater = () => {
    clearTimeout(retryTimer);
    const delay = Math.min(RETRY_MAX_MS, retryBaseMs * 2 ** retries) * (0.5 + Math.random());
    retries += 1;
    retryTimer = setTimeout(() => {
      if (!closed && !socket.connected && !socket.active) socket.connect();
    }, delay);
  };

  const dropped = () => {
    if (!lost) emit({ type: 'CONNECTION.LOST' });
    lost = true;
  };

  socket.on('connect', () => {
    retries = 0;
    profiles.rewatch();
    callWatch.rejoin();
    void resume();
    // Anything may have changed unseen while the socket was away.
    for (const listener of reviewListeners) listener(null);
  });
  socket.on('disconnect', (reason) => {
    dropped();
    if (reason === 'io server disconnect') retryLater();
  });
  socket.on('connect_error', () => {
    dropped();
    if (!socket.active) retryLater();
  });
  socket.onAny((name: string, payload) => {
    if (isMachineEventName(name)) emit(MACHINE_EVENTS[name](payload));
  });
  socket.on('review.case_changed', (change) => {
    for (const listener of reviewListeners) listener(change);
  });
  socket.on('signal.message', ({ room, data }) => {
    for (const listener of signalListeners.get(room) ?? []) listener(data);
  });

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async answer(callId) {
      const { call, ice } = unwrap(await request.emitWithAck('call.answer', { call_id: callId }));
      answeredIce.set(callId, ice);
      return call;
    },
    async ice(callId) {
      const given = answeredIce.get(callId);
      answeredIce.delete(callId);
      return given ?? unwrap(await request.emitWithAck('call.ice', { call_id: callId })).ice;
    },
    async hangUp(callId) {
      unwrap(await request.emitWithAck('call.hangup', { call_id: callId }));
    },
    async join(room) {
      rooms.add(room);
      return unwrap(await request.emitWithAck('signal.join', { room })).peers;
    },
    async leave(room) {
      rooms.delete(room);
      if (socket.connected) unwrap(await request.emitWithAck('signal.leave', { room }));
    },
    async send(room, data) {
      unwrap(await request.emitWithAck('signal.send', { room, data }));
    },
    latestStats: () => stats,
    onSignal(room, listener) {
      const set = signalListeners.get(room) ?? new Set();
      set.add(listener);
      signalListeners.set(room, set);
      return () => set.delete(listener);
    },
    watchProfile: profiles.watchProfile,
    callWatch,
    watchedMedia,
    onReviewCase(listener) {
      reviewListeners.add(listener);
      return () => reviewListeners.delete(listener);
    },
    close() {
      closed = true;
      clearTimeout(retryTimer);
      listeners.clear();
      signalListeners.clear();
      reviewListeners.clear();
      watchedMedia.close();
      socket.disconnect();
    },
  };
}
