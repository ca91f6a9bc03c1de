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

const configOf = (ice: CallIce): RTCConfiguration => ({
  iceServers: ice.iceServers,
  iceTransportPolicy: ice.iceTransportPolicy,
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

/**
 * The agent's side: a send-only connection per watcher, made when the watcher's socket joins its channel (again
 * after the watcher's reload) and closed when the watcher is no longer listed. Returns the stop.
 */
export function forwardToWatchers(options: {
  callId: number;
  channel: Channel;
  ice: () => Promise<CallIce>;
  streams: () => { local: MediaStream | null; remote: MediaStream | null };
}): () => void {
  const { callId, channel } = options;
  const peers = new Map<number, { pc: RTCPeerConnection; queue: ReturnType<typeof candidateQueue> }>();
  let stopped = false;

  const close = (watcherId: number) => {
    peers.get(watcherId)?.pc.close();
    peers.delete(watcherId);
  };

  async function offer(watcherId: number) {
    close(watcherId);
    const ice = await options.ice();
    if (stopped) return;
    const pc = new RTCPeerConnection(configOf(ice));
    const queue = candidateQueue(pc);
    peers.set(watcherId, { pc, queue });
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
          .signal(callId, { type: 'candidate', candidate: candidate.toJSON() }, watcherId)
          .catch(() => undefined);
    };
    const description = await pc.createOffer();
    await pc.setLocalDescription(description);
    await channel.signal(callId, { type: 'offer', sdp: description.sdp, sides }, watcherId);
  }

  const unsubscribe = channel.subscribe((event: CallWatchEvent) => {
    if (stopped || !('call_id' in event) || event.call_id !== callId) return;
    if (event.type === 'READY') void offer(event.watcher_id).catch(() => close(event.watcher_id));
    else if (event.type === 'SIGNAL') {
      const peer = peers.get(event.watcher_id);
      if (!peer) return;
      const data = event.data as { type?: string; sdp?: string; candidate?: RTCIceCandidateInit };
      if (data.type === 'answer' && data.sdp)
        void peer.pc
          .setRemoteDescription({ type: 'answer', sdp: data.sdp })
          .then(() => peer.queue.flush())
          .catch(() => close(event.watcher_id));
      else if (data.type === 'candidate' && data.candidate) peer.queue.add(data.candidate);
    } else if (event.type === 'WATCHERS') {
      const listed = new Set(event.watchers.map((watcher) => watcher.user_id));
      for (const watcherId of [...peers.keys()]) if (!listed.has(watcherId)) close(watcherId);
    }
  });

  return () => {
    stopped = true;
    unsubscribe();
    for (const watcherId of [...peers.keys()]) close(watcherId);
  };
}

/**
 * The watcher's side: answers the agent's offers receive-only and hands over each side's stream as it arrives.
 * Returns the stop.
 */
export function receiveWatchedCall(options: {
  callId: number;
  channel: Channel;
  ice: CallIce;
  onStream(side: WatchSide, stream: MediaStream): void;
}): () => void {
  const { callId, channel } = options;
  let pc: RTCPeerConnection | null = null;
  let queue: ReturnType<typeof candidateQueue> | null = null;
  let sides: Partial<Record<WatchSide, string>> = {};

  async function answer(sdp: string) {
    pc?.close();
    const connection = new RTCPeerConnection(configOf(options.ice));
    pc = connection;
    queue = candidateQueue(connection);
    connection.ontrack = ({ streams }) => {
      const stream = streams[0];
      if (!stream) return;
      const side = (Object.keys(sides) as WatchSide[]).find((key) => sides[key] === stream.id);
      if (side) options.onStream(side, stream);
    };
    connection.onicecandidate = ({ candidate }) => {
      if (candidate)
        void channel
          .signal(callId, { type: 'candidate', candidate: candidate.toJSON() })
          .catch(() => undefined);
    };
    await connection.setRemoteDescription({ type: 'offer', sdp });
    // Nothing of the watcher's is ever sent: every transceiver only receives.
    for (const transceiver of connection.getTransceivers()) transceiver.direction = 'recvonly';
    queue.flush();
    const description = await connection.createAnswer();
    await connection.setLocalDescription(description);
    await channel.signal(callId, { type: 'answer', sdp: description.sdp });
  }

  const unsubscribe = channel.subscribe((event) => {
    if (event.type !== 'SIGNAL' || event.call_id !== callId) return;
    const data = event.data as {
      type?: string;
      sdp?: string;
      candidate?: RTCIceCandidateInit;
      sides?: Partial<Record<WatchSide, string>>;
    };
    if (data.type === 'offer' && data.sdp) {
      sides = data.sides ?? {};
      void answer(data.sdp).catch(() => undefined);
    } else if (data.type === 'candidate' && data.candidate) queue?.add(data.candidate);
  });

  return () => {
    unsubscribe();
    pc?.close();
    pc = null;
  };
}
