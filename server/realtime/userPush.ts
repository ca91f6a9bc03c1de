/**
 * Events for one staff user: sent to the room `user:<id>`, which every staff socket joins on
 * connect from its verified token (server/realtime/hub.ts), never from anything the client sends.
 */
import type { Server } from 'socket.io';
import type { NotificationEvent } from '#contract/notifications';
import type { ClientToServerEvents, ServerToClientEvents, SocketData } from '#contract/socket';
import { userRoom } from './rooms';

type PushServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export interface UserPush {
  bind(io: PushServer): void;
  /** A new notification, with the user's unread count. */
  notification(userId: number, event: NotificationEvent): void;
  /** The user's unread count changed (read elsewhere). */
  unread(userId: number, unread: number): void;
}

export function createUserPush(): UserPush {
  let server: PushServer | null = null;
  return {
    bind(io) {
      server = io;
    },
    notification(userId, event) {
      server?.to(userRoom(userId)).emit('notification.new', event);
    },
    unread(userId, unread) {
      server?.to(userRoom(userId)).emit('notification.unread', { unread });
    },
  };
}
