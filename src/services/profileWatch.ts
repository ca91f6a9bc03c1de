/**
 * Watching a profile over the realtime socket (docs/events.md "Profiles"): who else has it open
 * (`profile.presence`) and what someone changed (`profile.changed`). Several views may watch the same
 * profile; the server is asked once per profile, and again after every reconnect, so presence survives a
 * drop. Views use it through the shell's realtime context, never the socket itself.
 */
import type { Socket } from 'socket.io-client';
import type {
  ClientToServerEvents,
  ProfileChange,
  ProfileViewer,
  ServerToClientEvents,
} from '#contract/socket';
import { documentKeys } from './api/documents';
import { profileDetailKeys, sidebarKeys } from './api/profileDetail';

export type ProfileWatchEvent =
  | { type: 'PROFILE.PRESENCE'; viewers: ProfileViewer[] }
  | { type: 'PROFILE.CHANGED'; change: ProfileChange };

export type ProfileWatchListener = (event: ProfileWatchEvent) => void;

export interface ProfileWatching {
  /** Watches a profile until the returned function is called. */
  watchProfile(profileId: number, listener: ProfileWatchListener): () => void;
  /** Asks the server again for every watched profile (after a (re)connect). */
  rewatch(): void;
}

const ACK_TIMEOUT_MS = 10_000;

export function createProfileWatching(
  socket: Socket<ServerToClientEvents, ClientToServerEvents>,
): ProfileWatching {
  const watchers = new Map<number, Set<ProfileWatchListener>>();
  const tell = (profileId: number, event: ProfileWatchEvent) => {
    for (const listener of watchers.get(profileId) ?? []) listener(event);
  };
  socket.on('profile.presence', ({ profile, viewers }) =>
    tell(profile, { type: 'PROFILE.PRESENCE', viewers }),
  );
  socket.on('profile.changed', (change) => tell(change.profile, { type: 'PROFILE.CHANGED', change }));

  const watchOnServer = async (profileId: number) => {
    try {
      // Who has it open comes from the room's `profile.presence` (this socket is in the room before the
      // server announces), not from this answer: the answer can arrive after a newer announcement (another
      // watcher's) and would put an older list last.
      await socket.timeout(ACK_TIMEOUT_MS).emitWithAck('profile.watch', { profile: profileId });
    } catch {
      // The next (re)connect watches again.
    }
  };

  return {
    watchProfile(profileId, listener) {
      const set = watchers.get(profileId) ?? new Set();
      const first = set.size === 0;
      set.add(listener);
      watchers.set(profileId, set);
      // Not yet connected: the connect handler watches every profile then.
      if (first && socket.connected) void watchOnServer(profileId);
      return () => {
        set.delete(listener);
        if (set.size > 0 || watchers.get(profileId) !== set) return;
        watchers.delete(profileId);
        if (socket.connected)
          void socket
            .timeout(ACK_TIMEOUT_MS)
            .emitWithAck('profile.unwatch', { profile: profileId })
            .catch(() => null);
      };
    },
    rewatch() {
      for (const profileId of watchers.keys()) void watchOnServer(profileId);
    },
  };
}

/** The cached data a change makes stale (TanStack Query keys of the profile screen). */
export function staleKeys(change: ProfileChange): (readonly unknown[])[] {
  const id = change.profile;
  const logs = profileDetailKeys.logs(id);
  switch (change.what) {
    case 'status':
    case 'details':
      return [profileDetailKeys.profile(id), logs, ['profiles', 'list']];
    case 'checklist':
      return [profileDetailKeys.profile(id), sidebarKeys.checklists(id), logs];
    case 'note':
      return [profileDetailKeys.notes(id), logs];
    default:
      // A document or one of its alerts: every document list of the profile.
      return [documentKeys.all(id), logs];
  }
}
