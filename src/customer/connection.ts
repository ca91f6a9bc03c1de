/**
 * The customer page's connection to the company server: it creates the call (POST /videocall with the join
 * link's token), then holds the socket that tells the queue position, the answer and the end, and carries
 * the WebRTC signals. Signals that arrive before the peer listens are kept for it.
 */
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '#contract/socket';
import type { CustomerCallEvent } from '../machines/customerCall.machine';
import type { SignalData, Signalling } from '../services/socket';

/** The profile a join token is for (its payload; the server checks the signature). */
export function profileOfToken(token: string): number | null {
  try {
    const payload = JSON.parse(atob(token.split('.')[1]?.replace(/-/g, '+').replace(/_/g, '/') ?? ''));
    return typeof payload.profile_id === 'number' ? payload.profile_id : null;
  } catch {
    return null;
  }
}

export interface CustomerConnection {
  join(): Promise<void>;
  leave(): void;
  signalling: Signalling;
  room(): string;
}

export function connectCustomer(options: {
  server: string;
  token: string;
  profileId: number;
  report: (event: CustomerCallEvent) => void;
}): CustomerConnection {
  let socket: Socket<ServerToClientEvents, ClientToServerEvents> | null = null;
  let callId = 0;
  let roomId = '';
  const early: SignalData[] = [];
  let listener: ((data: SignalData) => void) | null = null;

  async function createCall() {
    const response = await fetch(`${options.server}/api/v2/videocall`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${options.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ profile: options.profileId, status: 0 }),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(typeof body.detail === 'string' ? body.detail : response.statusText);
    callId = body.id;
    roomId = body.room_id;
  }

  return {
    async join() {
      if (!callId) await createCall();
      socket?.disconnect();
      const s: Socket<ServerToClientEvents, ClientToServerEvents> = io(options.server, {
        path: '/socket.io',
        transports: ['websocket'],
        auth: { customer: options.token, call_id: callId },
      });
      socket = s;
      s.on('queue.position', (e) =>
        options.report({ type: 'QUEUE.POSITION', position: e.position, expected_wait_s: e.expected_wait_s }),
      );
      s.on('call.answered', (e) => options.report({ type: 'ANSWERED', agent_name: e.agent_name }));
      s.on('call.ended', () => options.report({ type: 'ENDED' }));
      s.on('signal.message', ({ data }) => (listener ? listener(data) : early.push(data)));
      await new Promise<void>((resolve, reject) => {
        s.once('connect', () => resolve());
        s.once('connect_error', (error) => reject(error));
      });
    },
    leave() {
      socket?.emit('call.hangup', { call_id: callId }, () => undefined);
      setTimeout(() => socket?.disconnect(), 200);
    },
    room: () => roomId,
    signalling: {
      join: async () => [],
      leave: async () => undefined,
      async send(room, data) {
        await socket?.emitWithAck('signal.send', { room, data });
      },
      onSignal(_room, next) {
        listener = next;
        for (const data of early.splice(0)) next(data);
        return () => {
          listener = null;
        };
      },
    },
  };
}
