/**
 * The live side of watching calls (docs/decisions/0208-supervisors-watch-calls.md): a watcher's socket joins its
 * watch channel of a call it holds a grant for, and signals go between that channel and the call's agent only.
 * The agent's browser forwards the call's media to the watcher on a connection of its own, so the customer's
 * upload does not double and no signal of a watcher ever reaches the customer or the call's room.
 */
import type { Socket } from 'socket.io';
import type { WatchEndReason } from '#contract/callWatch';
import { mayMonitorCalls } from '#contract/constants';
import type { CallStep } from '#contract/identProcedure';
import {
  type ClientToServerEvents,
  type ServerToClientEvents,
  type SocketData,
  watchJoinSchema,
  watchSignalSchema,
} from '#contract/socket';
import type { DbOrTx } from '../db/client';
import { relayOnlySignal } from '../domain/callIce';
import { callQualityOf } from '../domain/callQuality';
import { callsWatchedBy, callWatchers, endWatches, openWatchOf } from '../domain/callWatch';
import { loadPrincipal, type Principal } from '../domain/principal';
import { requireCall } from '../domain/videocalls/calls';
import { HttpError } from '../errors';
import type { HubServer } from './callDesk/context';
import { userRoom, watchersRoom, watchRoom } from './rooms';

type HubSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

const NOT_WATCHING = 'Not your call';
const FAILED = 'An error occured';

export interface CallWatchHub {
  /** Handlers of a socket: a staff socket may watch or forward; a customer's is refused whatever it sends. */
  bind(socket: HubSocket): void;
  /** Who watches the call now, to its agent and its watchers. */
  announce(companyId: number, callId: number): Promise<void>;
  /** Watches were ended (stopped, the call over, access lost): their watchers hear why and leave the channel. */
  ended(
    companyId: number,
    callId: number,
    watcherIds: (number | null)[],
    reason: WatchEndReason,
  ): Promise<void>;
  /** The call is over: every watch of it ends. */
  callEnded(companyId: number, callId: number): Promise<void>;
  /** The user's permissions changed: a user who may no longer watch stops watching everything. */
  refreshAccess(principal: Principal): Promise<void>;
  /**
   * A step result of the call was recorded (by its agent or the customer's entry): its watchers see it at once,
   * without the step's details. Every path that records a step during a call calls this.
   */
  stepRecorded(companyId: number, callId: number, step: CallStep): void;
  /** Quality samples of the call arrived (either side): its watchers, if any, get both sides' summaries. */
  qualityArrived(companyId: number, callId: number): Promise<void>;
}

export function createCallWatchHub(deps: {
  io: () => HubServer;
  db: DbOrTx;
  /** The talking call the agent is in (any process), if any. */
  inCall: (userId: number) => Promise<number | undefined>;
  relayOnly: (companyId: number) => Promise<boolean>;
  /** A watcher with no socket back in its watch channel this long has left: the watch ends. */
  leftGraceMs: number;
  onError: (error: unknown) => void;
}): CallWatchHub {
  const io = deps.io;

  async function announce(companyId: number, callId: number) {
    const call = await requireCall(deps.db, companyId, callId);
    const watchers = await callWatchers(deps.db, callId, true);
    const rooms = [watchersRoom(companyId, callId), ...(call.agentId ? [userRoom(call.agentId)] : [])];
    io().to(rooms).emit('call.watchers', { call_id: callId, watchers });
  }

  async function ended(
    companyId: number,
    callId: number,
    watcherIds: (number | null)[],
    reason: WatchEndReason,
  ) {
    const call = await requireCall(deps.db, companyId, callId);
    const event = { call_id: callId, reason, status: call.status, end_reason: call.endReason };
    for (const watcherId of watcherIds) {
      if (watcherId === null) continue;
      const room = watchRoom(companyId, callId, watcherId);
      io().to(room).emit('watch.ended', event);
      io()
        .in(room)
        .socketsLeave([room, watchersRoom(companyId, callId)]);
    }
    await announce(companyId, callId);
  }

  /** Ends the watcher's watch of the call unless a socket of theirs is back in its channel. */
  async function leftUnlessBack(companyId: number, callId: number, watcherId: number) {
    const room = watchRoom(companyId, callId, watcherId);
    if ((await io().in(room).fetchSockets()).length > 0) return;
    const done = await endWatches(deps.db, companyId, callId, 'left', watcherId);
    if (done.length > 0) await ended(companyId, callId, [watcherId], 'left');
  }

  function bindStaff(socket: HubSocket, userId: number, companyId: number) {
    /** The calls this socket watches, so its disconnect can end what nobody takes up again. */
    const watching = new Set<number>();
    let forwarding: Promise<void> = Promise.resolve();

    socket.on('watch.join', async (payload, ack) => {
      const parsed = watchJoinSchema.safeParse(payload);
      if (!parsed.success) return ack?.({ ok: false, detail: 'call_id is required' });
      const { call_id: callId, receiver } = parsed.data;
      try {
        const principal = await loadPrincipal(deps.db, userId);
        if (!principal || !mayMonitorCalls(principal) || principal.companyId !== companyId)
          return ack?.({ ok: false, detail: NOT_WATCHING });
        const watch = await openWatchOf(deps.db, callId, userId);
        if (!watch || watch.companyId !== companyId) return ack?.({ ok: false, detail: NOT_WATCHING });
        const call = await requireCall(deps.db, companyId, callId);
        await socket.join([watchRoom(companyId, callId, userId), watchersRoom(companyId, callId)]);
        watching.add(callId);
        if (call.agentId)
          io()
            .to(userRoom(call.agentId))
            .emit('watch.ready', { call_id: callId, watcher_id: userId, ...(receiver ? { receiver } : {}) });
        ack?.({ ok: true, watchers: await callWatchers(deps.db, callId, true) });
      } catch (error) {
        if (error instanceof HttpError) return ack?.({ ok: false, detail: NOT_WATCHING });
        deps.onError(error);
        ack?.({ ok: false, detail: FAILED });
      }
    });

    socket.on('watch.signal', (payload, ack) => {
      const parsed = watchSignalSchema.safeParse(payload);
      if (!parsed.success) return ack?.({ ok: false, detail: 'call_id and data are required' });
      const { call_id: callId, watcher_id: watcherId, data } = parsed.data;
      // Signals of one socket are forwarded in the order it sent them (an offer before its candidates).
      forwarding = forwarding.then(async () => {
        try {
          let target: string;
          let from: number;
          if (watcherId !== undefined) {
            // The call's agent, to one watcher who holds an open watch of it.
            if ((await deps.inCall(userId)) !== callId || !(await openWatchOf(deps.db, callId, watcherId)))
              return ack?.({ ok: false, detail: NOT_WATCHING });
            target = watchRoom(companyId, callId, watcherId);
            from = watcherId;
          } else {
            // A watcher, to the call's agent alone: its channel joined, and the call still talking with an agent.
            if (!socket.rooms.has(watchRoom(companyId, callId, userId)))
              return ack?.({ ok: false, detail: NOT_WATCHING });
            const call = await requireCall(deps.db, companyId, callId);
            if (call.agentId === null || (await deps.inCall(call.agentId)) !== callId)
              return ack?.({ ok: false, detail: NOT_WATCHING });
            target = userRoom(call.agentId);
            from = userId;
          }
          const relayed = (await deps.relayOnly(companyId)) ? relayOnlySignal(data) : data;
          if (relayed)
            io().to(target).emit('watch.signal', { call_id: callId, watcher_id: from, data: relayed });
          ack?.({ ok: true });
        } catch (error) {
          if (error instanceof HttpError) return ack?.({ ok: false, detail: NOT_WATCHING });
          deps.onError(error);
          ack?.({ ok: false, detail: FAILED });
        }
      });
    });

    socket.on('disconnect', () => {
      for (const callId of watching) {
        const timer = setTimeout(
          () => leftUnlessBack(companyId, callId, userId).catch(deps.onError),
          deps.leftGraceMs,
        );
        timer.unref();
      }
    });
  }

  return {
    bind(socket) {
      const data = socket.data;
      if (data.kind === 'staff') return bindStaff(socket, data.userId, data.companyId);
      // A customer's socket takes no part in watching: whatever it sends is refused.
      socket.on('watch.join', (_payload, ack) => ack?.({ ok: false, detail: NOT_WATCHING }));
      socket.on('watch.signal', (_payload, ack) => ack?.({ ok: false, detail: NOT_WATCHING }));
    },
    announce,
    ended,
    async callEnded(companyId, callId) {
      const done = await endWatches(deps.db, companyId, callId, 'call_ended');
      if (done.length > 0)
        await ended(
          companyId,
          callId,
          done.map((watch) => watch.watcherId),
          'call_ended',
        );
    },
    stepRecorded(companyId, callId, step) {
      const { id, kind, result, offset_ms, created_at } = step;
      io()
        .to(watchersRoom(companyId, callId))
        .emit('watch.step', { call_id: callId, step: { id, kind, result, offset_ms, created_at } });
    },
    async qualityArrived(companyId, callId) {
      // Most calls are not watched: their samples cost no summary.
      if ((await callWatchers(deps.db, callId, true)).length === 0) return;
      const { agent, customer } = await callQualityOf(deps.db, callId);
      io().to(watchersRoom(companyId, callId)).emit('watch.quality', { call_id: callId, agent, customer });
    },
    async refreshAccess(principal) {
      if (mayMonitorCalls(principal)) return;
      for (const callId of await callsWatchedBy(deps.db, principal.id)) {
        const done = await endWatches(deps.db, principal.companyId, callId, 'access', principal.id);
        if (done.length > 0) await ended(principal.companyId, callId, [principal.id], 'access');
      }
    },
  };
}
