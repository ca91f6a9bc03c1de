/**
 * The media of watching a call (docs/decisions/0208-supervisors-watch-calls.md). The agent's browser forwards
 * the call to each watcher on a connection of its own, send-only: its own camera and the customer's tracks as
 * it receives them. The customer sends once, whoever watches; the watcher sends nothing and never asks for a
 * camera or a microphone. Signals go through the server's watch channel, between the agent and one watcher.
 */
import type { CallIce } from '#contract/socket';
import type { CallWatchEvent, CallWatching } from './callWatching';

type Channel = Pick<CallWatching, 'signal' | 'subscribe'>;
export type WatchSide = 'agent' | 'customer';

/**
 * Every track of a watch on one transport: a quarter of the candidates to signal through the server and one
 * DTLS handshake, where the default gathers for audio and video apart.
 */
const configOf = (ice: CallIce): RTCConfiguration => ({
  iceServers: ice.iceServers,
  iceTransportPolicy: ice.iceTransportPolicy,
  bundlePolicy: 'max-bundle',
});

/** Candidates that came before the description they belong to wait for it. */
function candidateQueue(pc: RTCPeerConnection) {
  const waiting: RTCIceCandidateInit[] = [];
  return {
    add(candidate: RTCIceCandidateInit) {
      if (pc.remoteDescription) void pc.addIceCandidate(candidate).catch(() => undefined);
      else waiting.push(candidate);
    },
    flush() {
      for (const candidate of waiting.splice(0)) void pc.addIceCandidate(candidate).catch(() => undefined);
    },
  };
}

/** Names one offer, so that an answer or a candidate meant for an earlier one is never applied to a later one. */
const newOfferId = (): string => crypto.randomUUID();

/** What the forwarded media is made of: a new offer is due when it changes (the customer's stream arrived). */
const mediaKey = (streams: { local: MediaStream | null; remote: MediaStream | null }): string =>
  [streams.local, streams.remote]
    .map((stream) => (stream ? `${stream.id}:${stream.getTracks().map((track) => track.id)}` : '-'))
    .join('|');

/**
 * The agent's side: a send-only connection per watcher, made when the watcher's socket joins its channel (again
 * after the watcher's reload), made again when the call's media changes (the customer's stream arrives after the
 * watch began, or a new peer replaces it), and closed when the watcher is no longer listed. Returns the stop.
 * A join that names the receiver a connection already plays to (the watcher's wall remounted, or its socket
 * reconnected) keeps that connection: a new offer would black the watcher's videos out while it is negotiated.
 * Offers may overlap (a watcher rejoining while an offer is on its way): each carries its id, and only the
 * latest offer's answer and candidates are applied.
 */
export function forwardToWatchers(options: {
  callId: number;
  channel: Channel;
  ice: () => Promise<CallIce>;
  streams: () => { local: MediaStream | null; remote: MediaStream | null };
  /** Calls the listener when the call's streams may have changed. Returns the unsubscribe. */
  onStreamsChange(listener: () => void): () => void;
}): () => void {
  const { callId, channel } = options;
  const peers = new Map<
    number,
    {
      pc: RTCPeerConnection;
      queue: ReturnType<typeof candidateQueue>;
      offerId: string;
      receiver: string | undefined;
    }
  >();
  /** The offer each watcher should hold: the latest one begun. */
  const latest = new Map<number, string>();
  /** The receiver each watcher's page named when it last joined. */
  const receivers = new Map<number, string | undefined>();
  let stopped = false;

  /** Closes the watcher's connection; with an offer id, only if it is still that offer's. */
  const close = (watcherId: number, offerId?: string) => {
    const peer = peers.get(watcherId);
    if (!peer || (offerId !== undefined && peer.offerId !== offerId)) return;
    peer.pc.close();
    peers.delete(watcherId);
  };

  async function offer(watcherId: number) {
    const offerId = newOfferId();
    latest.set(watcherId, offerId);
    close(watcherId);
    const ice = await options.ice();
    if (stopped || latest.get(watcherId) !== offerId) return;
    const pc = new RTCPeerConnection(configOf(ice));
    const queue = candidateQueue(pc);
    peers.set(watcherId, { pc, queue, offerId, receiver: receivers.get(watcherId) });
    const { local, remote } = options.streams();
    const sides: Partial<Record<WatchSide, string>> = {};
    for (const [side, stream] of [
      ['agent', local],
      ['customer', remote],
    ] as const) {
      if (!stream) continue;
      sides[side] = stream.id;
      for (const track of stream.getTracks())
        pc.addTransceiver(track, { direction: 'sendonly', streams: [stream] });
    }
    pc.onicecandidate = ({ candidate }) => {
      if (candidate)
        void channel
          .signal(callId, { type: 'candidate', candidate: candidate.toJSON(), offer: offerId }, watcherId)
          .catch(() => undefined);
    };
    const description = await pc.createOffer();
    await pc.setLocalDescription(description);
    if (latest.get(watcherId) !== offerId) return;
    await channel.signal(callId, { type: 'offer', sdp: description.sdp, sides, offer: offerId }, watcherId);
  }

  const offerTo = (watcherId: number) => {
    void offer(watcherId).catch(() => close(watcherId, latest.get(watcherId)));
  };

  let media = mediaKey(options.streams());
  const unwatchStreams = options.onStreamsChange(() => {
    const streams = options.streams();
    const now = mediaKey(streams);
    // Nothing to send (the call's media is gone as it ends): the watchers keep what they have until the end.
    if (stopped || now === media || (!streams.local && !streams.remote)) return;
    media = now;
    for (const watcherId of latest.keys()) offerTo(watcherId);
  });

  const unsubscribe = channel.subscribe((event: CallWatchEvent) => {
    if (stopped || !('call_id' in event) || event.call_id !== callId) return;
    if (event.type === 'READY') {
      const peer = peers.get(event.watcher_id);
      const playing =
        event.receiver !== undefined &&
        peer?.receiver === event.receiver &&
        latest.get(event.watcher_id) === peer.offerId &&
        peer.pc.connectionState === 'connected';
      receivers.set(event.watcher_id, event.receiver);
      if (!playing) offerTo(event.watcher_id);
    } else if (event.type === 'SIGNAL') {
      const peer = peers.get(event.watcher_id);
      const data = event.data as {
        type?: string;
        sdp?: string;
        candidate?: RTCIceCandidateInit;
        offer?: string;
      };
      if (!peer || data.offer !== peer.offerId) return;
      if (data.type === 'answer' && data.sdp)
        void peer.pc
          .setRemoteDescription({ type: 'answer', sdp: data.sdp })
          .then(() => peer.queue.flush())
          .catch(() => close(event.watcher_id, peer.offerId));
      else if (data.type === 'candidate' && data.candidate) peer.queue.add(data.candidate);
    } else if (event.type === 'WATCHERS') {
      const listed = new Set(event.watchers.map((watcher) => watcher.user_id));
      for (const watcherId of [...latest.keys()])
        if (!listed.has(watcherId)) {
          latest.delete(watcherId);
          receivers.delete(watcherId);
          close(watcherId);
        }
    }
  });

  return () => {
    stopped = true;
    unsubscribe();
    unwatchStreams();
    for (const watcherId of [...peers.keys()]) close(watcherId);
  };
}

/**
 * The watcher's side: answers the agent's offers receive-only and hands over each side's stream as it arrives.
 * A new offer replaces the connection of the one before; what belonged to an earlier offer is dropped.
 * Returns the stop.
 */
export function receiveWatchedCall(options: {
  callId: number;
  channel: Channel;
  ice: CallIce;
  onStream(side: WatchSide, stream: MediaStream): void;
  /** The connection failed (the agent's page reloaded or its network went): the agent must offer again. */
  onLost?(): void;
}): () => void {
  const { callId, channel } = options;
  let pc: RTCPeerConnection | null = null;
  let queue: ReturnType<typeof candidateQueue> | null = null;
  let current: string | undefined;

  async function answer(sdp: string, offerId: string | undefined, sides: Partial<Record<WatchSide, string>>) {
    pc?.close();
    current = offerId;
    const connection = new RTCPeerConnection(configOf(options.ice));
    pc = connection;
    queue = candidateQueue(connection);
    connection.onconnectionstatechange = () => {
      if (pc === connection && connection.connectionState === 'failed') options.onLost?.();
    };
    connection.ontrack = ({ streams }) => {
      const stream = streams[0];
      if (!stream || pc !== connection) return;
      const side = (Object.keys(sides) as WatchSide[]).find((key) => sides[key] === stream.id);
      if (side) options.onStream(side, stream);
    };
    connection.onicecandidate = ({ candidate }) => {
      if (candidate)
        void channel
          .signal(callId, { type: 'candidate', candidate: candidate.toJSON(), offer: offerId })
          .catch(() => undefined);
    };
    await connection.setRemoteDescription({ type: 'offer', sdp });
    // Nothing of the watcher's is ever sent: every transceiver only receives.
    for (const transceiver of connection.getTransceivers()) transceiver.direction = 'recvonly';
    queue.flush();
    const description = await connection.createAnswer();
    await connection.setLocalDescription(description);
    if (pc !== connection) return;
    await channel.signal(callId, { type: 'answer', sdp: description.sdp, offer: offerId });
  }

  const unsubscribe = channel.subscribe((event) => {
    if (event.type !== 'SIGNAL' || event.call_id !== callId) return;
    const data = event.data as {
      type?: string;
      sdp?: string;
      candidate?: RTCIceCandidateInit;
      sides?: Partial<Record<WatchSide, string>>;
      offer?: string;
    };
    if (data.type === 'offer' && data.sdp)
      void answer(data.sdp, data.offer, data.sides ?? {}).catch(() => undefined);
    else if (data.type === 'candidate' && data.candidate && data.offer === current)
      queue?.add(data.candidate);
  });

  return () => {
    unsubscribe();
    pc?.close();
    pc = null;
  };
}

/** How long a watched call's media keeps playing with no view of it: a supervisor who adds a call from Calls is back. */
export const WATCH_MEDIA_LINGER_MS = 60_000;

export type WatchedStreams = Partial<Record<WatchSide, MediaStream>>;

/** The watched calls' media of a watcher's page, kept apart from the views that show it. */
export interface WatchedMedia {
  /**
   * Shows the call's media to a view: `onStreams` hears each side's stream now and as it arrives. The connection
   * outlives the view by WATCH_MEDIA_LINGER_MS, so a wall that remounts keeps playing. Answers the receiver's
   * name, for `watch.join`, and the view's detach.
   */
  attach(
    callId: number,
    ice: CallIce,
    onStreams: (streams: WatchedStreams) => void,
  ): { receiver: string; detach(): void };
}

interface Watched {
  receiver: string;
  stop(): void;
  streams: WatchedStreams;
  views: Set<(streams: WatchedStreams) => void>;
  linger?: ReturnType<typeof setTimeout>;
}

/**
 * The watcher's page's receivers, one per watched call. A receiver ends when its watch ends (`watch.ended` comes
 * to this user's sockets only), WATCH_MEDIA_LINGER_MS after its last view went, or when the page's realtime
 * connection closes.
 */
export function createWatchedMedia(
  channel: Channel & Pick<CallWatching, 'join'>,
  lingerMs = WATCH_MEDIA_LINGER_MS,
): WatchedMedia & { close(): void } {
  const calls = new Map<number, Watched>();
  const end = (callId: number) => {
    const call = calls.get(callId);
    if (!call) return;
    clearTimeout(call.linger);
    call.stop();
    calls.delete(callId);
  };
  const open = (callId: number, ice: CallIce): Watched => {
    const call: Watched = {
      receiver: crypto.randomUUID(),
      streams: {},
      views: new Set(),
      stop: () => undefined,
    };
    call.stop = receiveWatchedCall({
      callId,
      channel,
      ice,
      onStream: (side, stream) => {
        call.streams = { ...call.streams, [side]: stream };
        for (const view of call.views) view(call.streams);
      },
      // Joining again asks the agent's browser for an offer: it has no connection that plays to this receiver.
      onLost: () => channel.join(callId, call.receiver)(),
    });
    calls.set(callId, call);
    return call;
  };
  const unsubscribe = channel.subscribe((event) => {
    if (event.type === 'ENDED') end(event.call_id);
  });
  return {
    attach(callId, ice, onStreams) {
      const call = calls.get(callId) ?? open(callId, ice);
      clearTimeout(call.linger);
      call.linger = undefined;
      call.views.add(onStreams);
      onStreams(call.streams);
      return {
        receiver: call.receiver,
        detach() {
          call.views.delete(onStreams);
          if (call.views.size > 0 || calls.get(callId) !== call) return;
          call.linger = setTimeout(() => end(callId), lingerMs);
        },
      };
    },
    close() {
      unsubscribe();
      for (const callId of [...calls.keys()]) end(callId);
    },
  };
}
