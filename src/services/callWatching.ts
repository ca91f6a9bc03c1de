/**
 * Watching calls over the realtime socket (docs/decisions/0208-supervisors-watch-calls.md). A watcher joins the
 * watch channel of each call it holds a grant for, again after every reconnect; the agent and the watchers hear
 * who watches, whispers, and (watchers) the steps, the quality and the end of a watch; signals go between a
 * watcher and the call's agent.
 * Views use it through the shell's realtime context, never the socket itself.
 */
import type { Socket } from 'socket.io-client';
import type { CallWatcher, WatchEnded, Whisper } from '#contract/callWatch';
import type { ClientToServerEvents, ServerToClientEvents } from '#contract/socket';

type Payload<E extends keyof ServerToClientEvents> = Parameters<ServerToClientEvents[E]>[0];

export type CallWatchEvent =
  | { type: 'WATCHERS'; call_id: number; watchers: CallWatcher[] }
  | { type: 'WHISPER'; whisper: Whisper }
  /**
   * A watcher's socket joined: the agent's browser offers it the call's media (agent only), unless a connection
   * to the named receiver already plays.
   */
  | { type: 'READY'; call_id: number; watcher_id: number; receiver?: string }
  | { type: 'SIGNAL'; call_id: number; watcher_id: number; data: Record<string, unknown> }
  | ({ type: 'ENDED' } & WatchEnded)
  /**
   * This socket is in the call's watch channel (at first and after every reconnect): a watcher reads what it may
   * have missed now; from here on steps and quality come as events.
   */
  | { type: 'JOINED'; call_id: number }
  /** A step of a watched call was recorded (watchers only). */
  | ({ type: 'STEP' } & Payload<'watch.step'>)
  /** A quality reading of a watched call arrived: both sides' summaries (watchers only). */
  | ({ type: 'QUALITY' } & Payload<'watch.quality'>);

export interface CallWatching {
  /**
   * Joins the call's watch channel now and after every reconnect, until the returned function is called;
   * `receiver` names this page's receiver of the call's media (./watchMedia.ts).
   */
  join(callId: number, receiver?: string): () => void;
  /** A signal of the call's watch channel: the agent names the watcher; a watcher's goes to the agent. */
  signal(callId: number, data: Record<string, unknown>, watcherId?: number): Promise<void>;
  /** Every watch event of every call. Returns the unsubscribe. */
  subscribe(listener: (event: CallWatchEvent) => void): () => void;
  /** Joins every joined channel again (after a (re)connect). */
  rejoin(): void;
}

const ACK_TIMEOUT_MS = 10_000;

export function createCallWatching(socket: Socket<ServerToClientEvents, ClientToServerEvents>): CallWatching {
  const listeners = new Set<(event: CallWatchEvent) => void>();
  /** Per call: how many views hold the channel, and the receiver named when the channel is joined again. */
  const joined = new Map<number, { views: number; receiver?: string }>();
  const tell = (event: CallWatchEvent) => {
    for (const listener of listeners) listener(event);
  };
  socket.on('call.watchers', ({ call_id, watchers }) => tell({ type: 'WATCHERS', call_id, watchers }));
  socket.on('call.whisper', (whisper) => tell({ type: 'WHISPER', whisper }));
  socket.on('watch.ready', ({ call_id, watcher_id, receiver }) =>
    tell({ type: 'READY', call_id, watcher_id, ...(receiver ? { receiver } : {}) }),
  );
  socket.on('watch.signal', ({ call_id, watcher_id, data }) =>
    tell({ type: 'SIGNAL', call_id, watcher_id, data }),
  );
  socket.on('watch.ended', (event) => tell({ type: 'ENDED', ...event }));
  socket.on('watch.step', (event) => tell({ type: 'STEP', ...event }));
  socket.on('watch.quality', (event) => tell({ type: 'QUALITY', ...event }));

  const ask = (callId: number, receiver: string | undefined) => {
    if (!socket.connected) return;
    socket
      .timeout(ACK_TIMEOUT_MS)
      .emitWithAck('watch.join', { call_id: callId, ...(receiver ? { receiver } : {}) })
      .then((reply) => {
        if (!reply.ok) return;
        tell({ type: 'WATCHERS', call_id: callId, watchers: reply.watchers });
        tell({ type: 'JOINED', call_id: callId });
      })
      .catch(() => undefined);
  };

  return {
    join(callId, receiver) {
      joined.set(callId, { views: (joined.get(callId)?.views ?? 0) + 1, receiver });
      ask(callId, receiver);
      return () => {
        const held = joined.get(callId);
        if (held && held.views > 1) joined.set(callId, { ...held, views: held.views - 1 });
        else joined.delete(callId);
      };
    },
    async signal(callId, data, watcherId) {
      const reply = await socket.timeout(ACK_TIMEOUT_MS).emitWithAck('watch.signal', {
        call_id: callId,
        data,
        ...(watcherId ? { watcher_id: watcherId } : {}),
      });
      if (!reply.ok) throw new Error(reply.detail);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    rejoin() {
      for (const [callId, { receiver }] of joined) ask(callId, receiver);
    },
  };
}
