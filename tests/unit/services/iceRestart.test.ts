import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ICE_RESTART_INTERVAL_MS } from '#contract/callReconnect';
import { ICE_RESTART_REQUEST, keepConnected } from '../../../src/services/iceRestart';

/** The parts of an RTCPeerConnection the keeper uses, driven by the test. */
class FakePc extends EventTarget {
  iceConnectionState: RTCIceConnectionState = 'new';
  connectionState: RTCPeerConnectionState = 'new';
  signalingState: RTCSignalingState = 'stable';
  configuration: RTCConfiguration = { iceServers: [] };
  offers: RTCOfferOptions[] = [];
  described: string[] = [];
  candidates = 0;

  set(ice: RTCIceConnectionState, connection: RTCPeerConnectionState) {
    this.iceConnectionState = ice;
    this.connectionState = connection;
    this.dispatchEvent(new Event('iceconnectionstatechange'));
    this.dispatchEvent(new Event('connectionstatechange'));
  }
  getConfiguration() {
    return this.configuration;
  }
  setConfiguration(configuration: RTCConfiguration) {
    this.configuration = configuration;
  }
  async createOffer(options: RTCOfferOptions) {
    this.offers.push(options);
    return { type: 'offer' as const, sdp: `offer-${this.offers.length}` };
  }
  async setLocalDescription(description: { type: string }) {
    this.described.push(description.type);
    this.signalingState = description.type === 'rollback' ? 'stable' : 'have-local-offer';
  }
  async addIceCandidate() {
    this.candidates += 1;
    throw new Error('unknown ufrag');
  }
}

/** simple-peer's instance as the keeper sees it: its state reactions destroy the peer. */
function fakePeer() {
  const pc = new FakePc();
  const peer = {
    _pc: pc,
    destroyed: false,
    _onIceStateChange() {
      if (pc.iceConnectionState === 'failed') peer.destroyed = true;
    },
    _onConnectionStateChange() {
      if (pc.connectionState === 'failed') peer.destroyed = true;
    },
    _addIceCandidate(_candidate: RTCIceCandidateInit) {
      peer.destroyed = true;
    },
  };
  // simple-peer calls its methods by name from the connection's handlers.
  pc.addEventListener('iceconnectionstatechange', () => peer._onIceStateChange());
  pc.addEventListener('connectionstatechange', () => peer._onConnectionStateChange());
  return { pc, peer };
}

function keeper(initiator: boolean, fresh?: () => Promise<RTCIceServer[] | null>) {
  const { pc, peer } = fakePeer();
  const sent: Record<string, unknown>[] = [];
  const events: string[] = [];
  const keep = keepConnected({
    peer: peer as never,
    initiator,
    send: (data) => sent.push(data),
    freshIceServers: fresh,
    onReconnecting: (at) => events.push(`reconnecting@${at}`),
    onReconnected: () => events.push('reconnected'),
  });
  return { pc, peer, sent, events, keep };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('keeping a call connected through a network change', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(10_000);
  });
  afterEach(() => vi.useRealTimers());

  it("restarts ICE from the agent's side with fresh servers, again while down, and stops once back", async () => {
    const servers = [{ urls: ['turn:turn.test:3478'], username: 'u', credential: 'p' }];
    const { pc, peer, sent, events, keep } = keeper(true, async () => servers);
    pc.set('connected', 'connected');
    pc.set('disconnected', 'disconnected');
    await flush();
    expect(events).toEqual(['reconnecting@10000']);
    expect(pc.offers).toEqual([{ iceRestart: true }]);
    expect(pc.configuration.iceServers).toEqual(servers);
    expect(sent).toEqual([{ type: 'offer', sdp: 'offer-1' }]);

    // Unanswered (the customer was offline): rolled back and offered again.
    pc.set('failed', 'failed');
    await vi.advanceTimersByTimeAsync(ICE_RESTART_INTERVAL_MS);
    expect(pc.described).toEqual(['offer', 'rollback', 'offer']);
    expect(sent).toHaveLength(2);
    expect(peer.destroyed).toBe(false);

    pc.set('connected', 'connected');
    expect(events).toEqual(['reconnecting@10000', 'reconnected']);
    await vi.advanceTimersByTimeAsync(ICE_RESTART_INTERVAL_MS * 3);
    expect(sent).toHaveLength(2);
    keep.stop();
  });

  it("asks the agent's side for a restart from the customer's side, and never offers itself", async () => {
    const { pc, sent, events } = keeper(false);
    pc.set('connected', 'connected');
    pc.set('disconnected', 'disconnected');
    await vi.advanceTimersByTimeAsync(ICE_RESTART_INTERVAL_MS);
    expect(sent).toEqual([ICE_RESTART_REQUEST, ICE_RESTART_REQUEST]);
    expect(pc.offers).toEqual([]);
    expect(events).toEqual(['reconnecting@10000']);
  });

  it("answers the customer's request with one offer, and drops an answer to an offer rolled back", async () => {
    const { pc, keep } = keeper(true);
    pc.set('connected', 'connected');
    expect(keep.intercept({ ...ICE_RESTART_REQUEST })).toBe(true);
    // Requests that piled up while the customer was offline: one offer answers them all.
    expect(keep.intercept({ ...ICE_RESTART_REQUEST })).toBe(true);
    await flush();
    expect(pc.offers).toHaveLength(1);
    expect(keep.intercept({ type: 'answer', sdp: 'a' })).toBe(false);
    pc.signalingState = 'stable';
    expect(keep.intercept({ type: 'answer', sdp: 'late' })).toBe(true);
    expect(keep.intercept({ candidate: { candidate: 'x' } })).toBe(false);
  });

  it('leaves a peer that never connected to fail as before', () => {
    const { pc, peer, events } = keeper(true);
    pc.set('checking', 'connecting');
    pc.set('failed', 'failed');
    expect(peer.destroyed).toBe(true);
    expect(events).toEqual([]);
  });

  it('does not end a connected peer for a candidate of an earlier ICE generation', async () => {
    const { pc, peer } = keeper(true);
    pc.set('connected', 'connected');
    peer._addIceCandidate({ candidate: 'candidate:1 1 udp 1 10.0.0.1 1 typ relay', sdpMid: '0' });
    await flush();
    expect(pc.candidates).toBe(1);
    expect(peer.destroyed).toBe(false);
  });
});
