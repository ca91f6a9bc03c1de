/**
 * Who has a profile open, and what changed on it (docs/events.md "Profiles"). A staff socket
 * with `view_profiles_page` watches a profile of its own company with `profile.watch` and joins the room
 * `profile:<company>:<id>`; every watch, unwatch and disconnect sends the room `profile.presence` (each user
 * once). The write paths call `changed` after their transaction commits, which sends the room
 * `profile.changed`. Presence is read from the rooms themselves (`fetchSockets`), so it holds with the Redis
 * adapter and several processes too; the studio watches again after a reconnect.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { Server, Socket } from 'socket.io';
import {
  type ClientToServerEvents,
  type ProfileChangeKind,
  type ProfileViewer,
  profileWatchSchema,
  type ServerToClientEvents,
  type SocketData,
} from '#contract/socket';
import type { DbOrTx } from '../db/client';
import { documents, profiles, users } from '../db/schema';
import { fullName } from '../domain/format';
import { loadPrincipal } from '../domain/principal';
import { DETAILS } from '../errors';

type WatchServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
type WatchSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** Profile rooms are scoped by company, like call rooms. */
export const profileRoom = (companyId: number, profileId: number) => `profile:${companyId}:${profileId}`;

export interface ProfileWrite {
  companyId: number;
  profileId: number;
  userId: number;
  what: ProfileChangeKind;
  /** The document written, for `document` and `alert`. */
  documentId?: number | null;
}

export interface ProfileWatch {
  /** Listens on the hub's socket server (each staff connection gets the watch events). */
  bind(io: WatchServer): void;
  /** Tells the profile's room what a committed write changed. Never throws (errors go to onError). */
  changed(write: ProfileWrite): void;
}

async function namesOf(db: DbOrTx, userIds: number[]): Promise<Map<number, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, first: users.firstName, last: users.lastName, email: users.email })
    .from(users)
    .where(inArray(users.id, userIds));
  return new Map(rows.map((r) => [r.id, fullName(r.first, r.last) || r.email]));
}

export function createProfileWatch(deps: { db: DbOrTx; onError: (error: unknown) => void }): ProfileWatch {
  let server: WatchServer | null = null;

  async function viewersOf(room: string): Promise<ProfileViewer[]> {
    if (!server) return [];
    const sockets = await server.in(room).fetchSockets();
    const ids = [...new Set(sockets.flatMap((s) => (s.data.kind === 'staff' ? [s.data.userId] : [])))];
    const names = await namesOf(deps.db, ids);
    return ids
      .map((id) => ({ user_id: id, name: names.get(id) ?? '' }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.user_id - b.user_id);
  }

  // One announcement at a time per room: two watches at once could otherwise read the room in one order and
  // emit in the other, leaving everyone with the older list. Each one reads the room after the one before it
  // has emitted, so the last list sent is read after the last change.
  const announcing = new Map<string, Promise<unknown>>();
  function announce(room: string, profile: number): Promise<ProfileViewer[]> {
    const next = (announcing.get(room) ?? Promise.resolve())
      .catch(() => undefined)
      .then(async () => {
        const viewers = await viewersOf(room);
        server?.to(room).emit('profile.presence', { profile, viewers });
        return viewers;
      });
    announcing.set(room, next);
    const forget = () => {
      if (announcing.get(room) === next) announcing.delete(room);
    };
    next.then(forget, forget);
    return next;
  }

  const profileOfRoom = (room: string) => Number(room.split(':')[2]);

  function attach(socket: WatchSocket, data: Extract<SocketData, { kind: 'staff' }>) {
    const { companyId, userId } = data;
    const prefix = `profile:${companyId}:`;
    socket.on('profile.watch', async (payload, ack) => {
      const parsed = profileWatchSchema.safeParse(payload);
      if (!parsed.success) return ack?.({ ok: false, detail: 'profile is required' });
      try {
        const principal = await loadPrincipal(deps.db, userId);
        if (!principal?.permissions.includes('view_profiles_page'))
          return ack?.({ ok: false, detail: DETAILS.forbidden });
        const [found] = await deps.db
          .select({ id: profiles.id })
          .from(profiles)
          .where(and(eq(profiles.id, parsed.data.profile), eq(profiles.companyId, companyId)));
        if (!found) return ack?.({ ok: false, detail: DETAILS.notFound });
        const room = profileRoom(companyId, found.id);
        await socket.join(room);
        ack?.({ ok: true, viewers: await announce(room, found.id) });
      } catch (error) {
        deps.onError(error);
        ack?.({ ok: false, detail: DETAILS.serverError });
      }
    });
    socket.on('profile.unwatch', async (payload, ack) => {
      const parsed = profileWatchSchema.safeParse(payload);
      if (!parsed.success) return ack?.({ ok: false, detail: 'profile is required' });
      const room = profileRoom(companyId, parsed.data.profile);
      try {
        if (socket.rooms.has(room)) {
          await socket.leave(room);
          await announce(room, parsed.data.profile);
        }
        ack?.({ ok: true });
      } catch (error) {
        deps.onError(error);
        ack?.({ ok: false, detail: DETAILS.serverError });
      }
    });
    // A closed tab leaves at once: the rooms are read while the socket still holds them.
    let watched: string[] = [];
    socket.on('disconnecting', () => {
      watched = [...socket.rooms].filter((room) => room.startsWith(prefix));
    });
    socket.on('disconnect', () => {
      for (const room of watched) announce(room, profileOfRoom(room)).catch(deps.onError);
    });
  }

  async function emitChange(write: ProfileWrite) {
    if (!server) return;
    const [version] = write.documentId
      ? await deps.db
          .select({ version: documents.version })
          .from(documents)
          .where(eq(documents.id, write.documentId))
      : await deps.db
          .select({ version: profiles.version })
          .from(profiles)
          .where(eq(profiles.id, write.profileId));
    const names = await namesOf(deps.db, [write.userId]);
    server.to(profileRoom(write.companyId, write.profileId)).emit('profile.changed', {
      profile: write.profileId,
      what: write.what,
      document: write.documentId ?? null,
      version: version?.version ?? 0,
      by: { user_id: write.userId, name: names.get(write.userId) ?? '' },
      at: new Date().toISOString(),
    });
  }

  return {
    bind(io) {
      server = io;
      io.on('connection', (socket) => {
        if (socket.data.kind === 'staff') attach(socket, socket.data);
      });
    },
    changed(write) {
      emitChange(write).catch(deps.onError);
    },
  };
}
