/**
 * Watching calls over the realtime socket (docs/decisions/0208-supervisors-watch-calls.md). A watcher joins the
 * watch channel of each call it holds a grant for, again after every reconnect; the agent and the watchers hear
 * who watches, whispers, and (watchers) the end of a watch; signals go between a watcher and the call's agent.
 * Views use it through the shell's realtime context, never the socket itself.
 */
import type { Socket } from 'socket.io-client';
import type { CallWatcher, WatchEnded, Whisper } from '#contract/callWatch';
import type { ClientToServerEvents, ServerToClientEvents } from '#contract/socket';

export type CallWatchEvent =
  | { type: 'WATCHERS'; call_id: number; watchers: CallWatcher[] }
  | { type: 'WHISPER'; whisper: Whisper }
  /** A watcher's socket joined: the agent's browser offers it the call's media (agent only). */
  | { type: 'READY'; call_id: number; watcher_id: number }
  | { type: 'SIGNAL'; call_id: number; watcher_id: number; data: Record<string, unknown> }
  | ({ type: 'ENDED' } & WatchEnded);

export interface CallWatching {
  /** Joins the call's watch channel now and after every reconnect, until the returned function is called. */
  join(callId: number): () => void;
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
  const joined = new Map<number, number>();
  const tell = (event: CallWatchEvent) => {
    for (const listener of listeners) listener(event);
  };
  socket.on('call.watchers', ({ call_id, watchers }) => tell({ type: 'WATCHERS', call_id, watchers }));
  socket.on('call.whisper', (whisper) => tell({ type: 'WHISPER', whisper }));
  socket.on('watch.ready', ({ call_id, watcher_id }) => tell({ type: 'READY', call_id, watcher_id }));
  socket.on('watch.signal', ({ call_id, watcher_id, data }) =>
    tell({ type: 'SIGNAL', call_id, watcher_id, data }),
  );
  socket.on('watch.ended', (event) => tell({ type: 'ENDED', ...event }));

  const ask = (callId: number) => {
    if (!socket.connected) return;
    socket
      .timeout(ACK_TIMEOUT_MS)
      .emitWithAck('watch.join', { call_id: callId })
      .then((reply) => {
        if (reply.ok) tell({ type: 'WATCHERS', call_id: callId, watchers: reply.watchers });
      })
      .catch(() => undefined);
  };

  return {
    join(callId) {
      joined.set(callId, (joined.get(callId) ?? 0) + 1);
      ask(callId);
      return () => {
        const left = (joined.get(callId) ?? 1) - 1;
        if (left > 0) joined.set(callId, left);
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
      for (const callId of joined.keys()) ask(callId);
    },
  };
}
