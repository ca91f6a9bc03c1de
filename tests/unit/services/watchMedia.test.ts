import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallIce } from '#contract/socket';
import type { CallWatchEvent } from '../../../src/services/callWatching';
import {
  createWatchedMedia,
  forwardToWatchers,
  receiveWatchedCall,
  type WatchedStreams,
  type WatchSide,
} from '../../../src/services/watchMedia';

/**
 * A peer connection that keeps what a real one checks in signalling: an answer is taken only in
 * have-local-offer, a closed connection takes nothing, and the sender's tracks reach the receiver of its offer.
 */
class FakePc {
  static all: FakePc[] = [];
  readonly id = `pc${FakePc.all.push(this)}`;
  closed = false;
  signalingState: RTCSignalingState = 'stable';
  /** Connected once both descriptions are set (the fake has no ICE of its own). */
  connectionState: RTCPeerConnectionState = 'new';
  localDescription: RTCSessionDescriptionInit | null = null;
  remoteDescription: RTCSessionDescriptionInit | null = null;
  readonly sent: { track: MediaStreamTrack; stream: MediaStream }[] = [];
  direction: RTCRtpTransceiverDirection = 'sendrecv';
  ontrack: ((event: { streams: MediaStream[] }) => void) | null = null;
  onconnectionstatechange: (() => void) | null = null;
  onicecandidate: ((event: { candidate: { toJSON(): RTCIceCandidateInit } | null }) => void) | null = null;

  addTransceiver(track: MediaStreamTrack, init: { streams: MediaStream[] }) {
    this.sent.push({ track, stream: init.streams[0] as MediaStream });
  }
  getTransceivers() {
    return this.remoteOffer()?.sent.map(() => this) ?? [];
  }
  async createOffer() {
    this.alive();
    return { type: 'offer' as const, sdp: this.id };
  }
  async createAnswer() {
    this.alive();
    return { type: 'answer' as const, sdp: this.id };
  }
  async setLocalDescription(description: RTCSessionDescriptionInit) {
    this.alive();
    this.localDescription = description;
    if (description.type === 'offer') this.signalingState = 'have-local-offer';
    else {
      this.signalingState = 'stable';
      this.connectionState = 'connected';
    }
    this.onicecandidate?.({ candidate: { toJSON: () => ({ candidate: `candidate of ${this.id}` }) } });
  }
  async setRemoteDescription(description: RTCSessionDescriptionInit) {
    this.alive();
    if (description.type === 'answer' && this.signalingState !== 'have-local-offer')
      throw new Error('InvalidStateError: an answer in the wrong state');
    this.remoteDescription = description;
    this.signalingState = description.type === 'offer' ? 'have-remote-offer' : 'stable';
    if (description.type === 'answer') this.connectionState = 'connected';
    if (description.type === 'offer') {
      const streams = new Set(this.remoteOffer()?.sent.map((sent) => sent.stream));
      for (const stream of streams) this.ontrack?.({ streams: [stream] });
    }
  }
  async addIceCandidate() {
    this.alive();
  }
  close() {
    this.closed = true;
    this.connectionState = 'closed';
  }
  /** The other side went away for good: ICE gives up. */
  fail() {
    this.connectionState = 'failed';
    this.onconnectionstatechange?.();
  }
  /** The connection whose offer this one took. */
  remoteOffer(): FakePc | undefined {
    return FakePc.all.find((pc) => pc.id === this.remoteDescription?.sdp);
  }
  private alive() {
    if (this.closed) throw new Error('InvalidStateError: closed');
  }
}

const fakeStream = (id: string) =>
  ({ id, getTracks: () => [{ id: `${id}-video` }] }) as unknown as MediaStream;

const CALL = 7;
const WATCHER = 3;
const ICE: CallIce = { iceServers: [], iceTransportPolicy: 'all' } as unknown as CallIce;

/**
 * The watch channel between one agent and one watcher, with the messages held until the test delivers them: the
 * order in which offers and answers cross is the test's.
 */
function channels() {
  type Listener = (event: CallWatchEvent) => void;
  const agentListeners = new Set<Listener>();
  const watcherListeners = new Set<Listener>();
  const toWatcher: Record<string, unknown>[] = [];
  const toAgent: Record<string, unknown>[] = [];
  const ready = (receiver?: string) => {
    for (const listener of agentListeners)
      listener({ type: 'READY', call_id: CALL, watcher_id: WATCHER, ...(receiver ? { receiver } : {}) });
  };
  const channelOf = (listeners: Set<Listener>, outbox: Record<string, unknown>[]) => ({
    /** As the server does: the watcher's join tells the agent. */
    join(_callId: number, receiver?: string) {
      ready(receiver);
      return () => undefined;
    },
    async signal(_callId: number, data: Record<string, unknown>) {
      outbox.push(data);
    },
    subscribe(listener: Listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  });
  const deliver = (listeners: Set<Listener>, data: Record<string, unknown>) => {
    for (const listener of listeners) listener({ type: 'SIGNAL', call_id: CALL, watcher_id: WATCHER, data });
  };
  return {
    agent: channelOf(agentListeners, toWatcher),
    watcher: channelOf(watcherListeners, toAgent),
    /** The watcher's socket joined, naming its page's receiver or not. */
    ready,
    /** The watch ended: the server tells the watcher's sockets. */
    ended() {
      for (const listener of watcherListeners)
        listener({ type: 'ENDED', call_id: CALL, reason: 'stopped', status: 2, end_reason: null });
    },
    /** Whatever is on its way is lost (a socket that dropped). */
    lose() {
      toWatcher.splice(0);
      toAgent.splice(0);
    },
    /** Hands the watcher the next message of the given type the agent sent (and what the agent sent before it). */
    toWatcher: (type: string) => deliverUpTo(toWatcher, type, (data) => deliver(watcherListeners, data)),
    toAgent: (type: string) => deliverUpTo(toAgent, type, (data) => deliver(agentListeners, data)),
    /** Everything still on its way, both directions, until nothing moves. */
    async drain() {
      for (let round = 0; round < 20 && (toWatcher.length > 0 || toAgent.length > 0); round++) {
        for (const data of toWatcher.splice(0)) deliver(watcherListeners, data);
        for (const data of toAgent.splice(0)) deliver(agentListeners, data);
        await settle();
      }
    },
  };
}

function deliverUpTo(
  outbox: Record<string, unknown>[],
  type: string,
  send: (data: Record<string, unknown>) => void,
): void {
  const index = outbox.findIndex((data) => data.type === type);
  if (index < 0) throw new Error(`no ${type} on its way`);
  for (const data of outbox.splice(0, index + 1)) send(data);
}

const settle = async () => {
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 0));
};

/** The agent's open connection to the watcher and the watcher's open one, if they took each other's descriptions. */
function linked(): { agent: FakePc; watcher: FakePc } | null {
  const open = FakePc.all.filter((pc) => !pc.closed);
  const agent = open.find((pc) => pc.localDescription?.type === 'offer');
  const watcher = open.find((pc) => pc.localDescription?.type === 'answer');
  if (!agent || !watcher) return null;
  const agreed = watcher.remoteDescription?.sdp === agent.id && agent.remoteDescription?.sdp === watcher.id;
  return agreed ? { agent, watcher } : null;
}

describe('forwarding a watched call', () => {
  let streams: { local: MediaStream | null; remote: MediaStream | null };
  let streamListeners: Set<() => void>;
  let received: Map<WatchSide, MediaStream>;
  let stops: (() => void)[];

  beforeEach(() => {
    FakePc.all = [];
    vi.stubGlobal('RTCPeerConnection', FakePc);
    streams = { local: fakeStream('agent-camera'), remote: fakeStream('customer-1') };
    streamListeners = new Set();
    received = new Map();
    stops = [];
  });
  afterEach(() => {
    for (const stop of stops) stop();
    vi.unstubAllGlobals();
  });

  function start() {
    const link = channels();
    stops.push(
      forwardToWatchers({
        callId: CALL,
        channel: link.agent,
        ice: async () => ICE,
        streams: () => streams,
        onStreamsChange(listener) {
          streamListeners.add(listener);
          return () => streamListeners.delete(listener);
        },
      }),
      receiveWatchedCall({
        callId: CALL,
        channel: link.watcher,
        ice: ICE,
        onStream: (side, stream) => received.set(side, stream),
      }),
    );
    return link;
  }

  it('connects once the signals have crossed, with both sides of the call', async () => {
    const link = start();
    link.ready();
    await settle();
    await link.drain();
    expect(linked()).not.toBeNull();
    expect(received.get('agent')?.id).toBe('agent-camera');
    expect(received.get('customer')?.id).toBe('customer-1');
  });

  it('applies only the latest offer’s answer when the watcher rejoins while an offer is on its way', async () => {
    const link = start();
    link.ready();
    await settle();
    // The watcher's wall remounts and joins again: a second offer leaves before the first one's answer is back.
    link.ready();
    await settle();
    link.toWatcher('offer');
    await settle();
    // The answer to the first offer reaches the agent, who holds the second offer by now.
    link.toAgent('answer');
    await settle();
    await link.drain();
    const pair = linked();
    expect(pair).not.toBeNull();
    expect(pair?.agent.signalingState).toBe('stable');
    expect(FakePc.all.filter((pc) => !pc.closed)).toHaveLength(2);
  });

  it('offers again when the customer’s stream arrives after the watch began, and when a new peer replaces it', async () => {
    streams = { local: fakeStream('agent-camera'), remote: null };
    const link = start();
    link.ready();
    await settle();
    await link.drain();
    expect(received.has('customer')).toBe(false);

    streams = { ...streams, remote: fakeStream('customer-1') };
    for (const listener of streamListeners) listener();
    await settle();
    await link.drain();
    expect(linked()).not.toBeNull();
    expect(received.get('customer')?.id).toBe('customer-1');

    streams = { ...streams, remote: fakeStream('customer-2') };
    for (const listener of streamListeners) listener();
    await settle();
    await link.drain();
    expect(linked()).not.toBeNull();
    expect(received.get('customer')?.id).toBe('customer-2');
  });

  it('sends nothing new while the call’s media is unchanged or gone', async () => {
    const link = start();
    link.ready();
    await settle();
    await link.drain();
    const made = FakePc.all.length;
    for (const listener of streamListeners) listener();
    streams = { local: null, remote: null };
    for (const listener of streamListeners) listener();
    await settle();
    await link.drain();
    expect(FakePc.all).toHaveLength(made);
    expect(linked()).not.toBeNull();
  });

  it('keeps a connection that plays when the watcher’s page joins again with the same receiver', async () => {
    const link = start();
    link.ready('page-1');
    await settle();
    await link.drain();
    const pair = linked();
    expect(pair).not.toBeNull();
    const made = FakePc.all.length;
    // The wall remounted, or the watcher's socket reconnected: the page's receiver is the same.
    link.ready('page-1');
    await settle();
    await link.drain();
    expect(FakePc.all).toHaveLength(made);
    expect(linked()).toEqual(pair);
  });

  it('offers again to a new receiver, and to the same one when its connection does not play', async () => {
    const link = start();
    link.ready('page-1');
    await settle();
    await link.drain();
    const first = linked();
    // The watcher's page reloaded: a receiver of another name.
    link.ready('page-2');
    await settle();
    await link.drain();
    const second = linked();
    expect(second).not.toBeNull();
    expect(second?.agent).not.toBe(first?.agent);
    expect(first?.agent.closed).toBe(true);

    // An offer lost on its way (the watcher's socket dropped): joining again with the same receiver gets one.
    link.ready('page-3');
    await settle();
    link.lose();
    expect(linked()).toBeNull();
    link.ready('page-3');
    await settle();
    await link.drain();
    expect(linked()).not.toBeNull();
  });
});

describe('the watched calls’ media of a watcher’s page', () => {
  const LINGER_MS = 30;
  let stops: (() => void)[];

  beforeEach(() => {
    FakePc.all = [];
    vi.stubGlobal('RTCPeerConnection', FakePc);
    stops = [];
  });
  afterEach(() => {
    for (const stop of stops) stop();
    vi.unstubAllGlobals();
  });

  /** The agent's page forwarding the call, its camera and the customer's stream fixed. */
  const forward = (link: ReturnType<typeof channels>, camera = 'agent-camera') =>
    forwardToWatchers({
      callId: CALL,
      channel: link.agent,
      ice: async () => ICE,
      streams: () => ({ local: fakeStream(camera), remote: fakeStream('customer-1') }),
      onStreamsChange: () => () => undefined,
    });

  function start() {
    const link = channels();
    stops.push(forward(link));
    const media = createWatchedMedia(link.watcher, LINGER_MS);
    stops.push(() => media.close());
    return { link, media };
  }
  const watcherPcs = () => FakePc.all.filter((pc) => pc.localDescription?.type === 'answer');

  it('plays on for a view that comes back within the linger: same receiver, its streams at once, no new offer', async () => {
    const { link, media } = start();
    const first: WatchedStreams[] = [];
    const view = media.attach(CALL, ICE, (streams) => first.push(streams));
    link.ready(view.receiver);
    await settle();
    await link.drain();
    expect(first.at(-1)?.customer?.id).toBe('customer-1');
    expect(first.at(-1)?.agent?.id).toBe('agent-camera');
    const made = FakePc.all.length;

    view.detach();
    const again: WatchedStreams[] = [];
    const back = media.attach(CALL, ICE, (streams) => again.push(streams));
    expect(back.receiver).toBe(view.receiver);
    expect(again[0]?.customer?.id).toBe('customer-1');
    link.ready(back.receiver);
    await settle();
    await link.drain();
    await new Promise((resolve) => setTimeout(resolve, LINGER_MS * 2));
    expect(FakePc.all).toHaveLength(made);
    expect(linked()).not.toBeNull();
  });

  it('ends the media once no view came back within the linger, and at once when the watch ends', async () => {
    const { link, media } = start();
    const view = media.attach(CALL, ICE, () => undefined);
    link.ready(view.receiver);
    await settle();
    await link.drain();
    view.detach();
    expect(watcherPcs().every((pc) => !pc.closed)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, LINGER_MS * 2));
    expect(watcherPcs().every((pc) => pc.closed)).toBe(true);

    // A new view is a new receiver, offered anew; the watch's end stops it though the view still shows it.
    const next = media.attach(CALL, ICE, () => undefined);
    expect(next.receiver).not.toBe(view.receiver);
    link.ready(next.receiver);
    await settle();
    await link.drain();
    expect(linked()).not.toBeNull();
    link.ended();
    expect(watcherPcs().every((pc) => pc.closed)).toBe(true);
  });

  it('asks for a new offer when its connection fails, as when the agent’s page reloaded', async () => {
    const { link, media } = start();
    const seen: WatchedStreams[] = [];
    const view = media.attach(CALL, ICE, (streams) => seen.push(streams));
    link.ready(view.receiver);
    await settle();
    await link.drain();
    const before = linked();
    expect(before).not.toBeNull();

    // The agent's page reloads: its forwarding stops, a new one starts with no connection to anyone.
    (stops.shift() as () => void)();
    stops.push(forward(link, 'agent-camera-2'));
    before?.watcher.fail();
    await settle();
    await link.drain();
    const after = linked();
    expect(after).not.toBeNull();
    expect(after?.agent).not.toBe(before?.agent);
    expect(seen.at(-1)?.agent?.id).toBe('agent-camera-2');
  });
});
