/**
 * The customer page's connection to the company server: it creates the call (POST /videocall with the join
 * link's token), then holds the socket that tells the queue position, the answer and the end, and carries
 * the WebRTC signals. Signals that arrive before the peer listens are kept for it.
 */
import { io, type Socket } from 'socket.io-client';
import type { CustomerGuide, EntryReply } from '#contract/identProcedure';
import type { CallIce, ClientToServerEvents, ServerToClientEvents } from '#contract/socket';
import type { CallConsent } from '#contract/videocalls';
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
  /** GET /videocall/consent: the company's consent text, and whether its procedure asks for consent. */
  consent(): Promise<CallConsent>;
  /** Creates the call (with the consent given in that language, if any), then connects. */
  join(consent: 'en-US' | 'tr' | null): Promise<void>;
  leave(): void;
  /** A guided call: the serial number or the code the customer types. */
  enter(kind: 'serial_number' | 'code', value: string): Promise<EntryReply>;
  signalling: Signalling;
  room(): string;
  /** The STUN/TURN servers and policy the server gave this call's customer (null before it did). */
  ice(): CallIce | null;
  /** Fresh credentials from the server (a new peer, a restart); the ones held when it cannot answer. */
  freshIce(): Promise<CallIce | null>;
  /** The call this page created (0 before it joined). */
  callId(): number;
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
  let ice: CallIce | null = null;
  const early: SignalData[] = [];
  let listener: ((data: SignalData) => void) | null = null;

  async function request(path: string, init: RequestInit = {}) {
    const response = await fetch(`${options.server}/api/v2/${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${options.token}`, 'Content-Type': 'application/json' },
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(typeof body.detail === 'string' ? body.detail : response.statusText);
    return body;
  }

  async function createCall(consent: 'en-US' | 'tr' | null) {
    const body = await request('videocall', {
      method: 'POST',
      body: JSON.stringify({
        profile: options.profileId,
        status: 0,
        ...(consent ? { consent: { language: consent } } : {}),
      }),
    });
    callId = body.id;
    roomId = body.room_id;
  }

  async function freshIce(): Promise<CallIce | null> {
    const reply = await socket
      ?.timeout(10_000)
      .emitWithAck('call.ice', { call_id: callId })
      .catch(() => null);
    if (reply?.ok) ice = reply.ice;
    return ice;
  }

  async function readGuide() {
    try {
      const guide: CustomerGuide = await request(`videocall/guide?call_id=${callId}`);
      options.report({ type: 'GUIDE.STEP', kind: guide.step });
      options.report({ type: 'GUIDE.CODE', code: guide.code });
    } catch {
      // The socket's next events still tell; a failed read leaves the page as it was.
    }
  }

  return {
    consent: () => request('videocall/consent'),
    enter: (kind, value) =>
      request(kind === 'code' ? 'videocall/code' : 'videocall/serial_number', {
        method: 'POST',
        body: JSON.stringify(
          kind === 'code' ? { call_id: callId, code: value } : { call_id: callId, serial_number: value },
        ),
      }),
    async join(consent) {
      if (!callId) await createCall(consent);
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
      s.on('call.ice', (e) => {
        if (e.call_id === callId) ice = e.ice;
      });
      // Credentials minted at the answer last the call however long the wait was. The agent's first signals
      // wait in `early` meanwhile.
      s.on('call.answered', (e) => {
        void freshIce().finally(() => {
          options.report({ type: 'ANSWERED', agent_name: e.agent_name });
          void readGuide();
        });
      });
      // A drop (not the customer's own leaving): the place is unknown until the server tells it again.
      s.on('disconnect', (reason) => {
        if (reason !== 'io client disconnect') options.report({ type: 'CONNECTION.LOST' });
      });
      // Back after a drop or a reload: what the agent showed and sent meanwhile.
      s.on('connect', () => void readGuide());
      s.on('call.step', (e) => options.report({ type: 'GUIDE.STEP', kind: e.kind }));
      s.on('call.code_sent', ({ call_id: _call, ...code }) => options.report({ type: 'GUIDE.CODE', code }));
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
    ice: () => ice,
    freshIce,
    callId: () => callId,
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
