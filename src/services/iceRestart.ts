/**
 * Keeps a call's peer connection through a network change: when its ICE or connection state goes
 * `disconnected` or `failed` after it was connected, the call restarts ICE on the same RTCPeerConnection
 * (same tracks, same remote stream, so the recording goes on) instead of building a new peer.
 *
 * The agent's side (simple-peer's initiator) makes the restart offers, again every ICE_RESTART_INTERVAL_MS
 * while the link stays down (an offer sent while the customer's socket was down never arrives); the customer's
 * side asks for one as often (`ICE_RESTART_REQUEST`), which also covers a drop only the customer noticed.
 * Fresh TURN credentials are fetched before each offer when the app can get them.
 *
 * simple-peer ends the peer on `failed` and on any refused ICE candidate; once the call was connected both are
 * normal during a restart (old candidates arrive after new credentials), so those two reactions of its
 * instance are replaced here. A peer that never connected still fails as before.
 */
import type SimplePeer from 'simple-peer';
import { ICE_RESTART_INTERVAL_MS } from '#contract/callReconnect';

/** What the customer's side sends to ask the agent's side for an ICE restart. */
export const ICE_RESTART_REQUEST = { type: 'ice-restart' } as const;

/** simple-peer's instance fields and methods replaced or read here (not in its types). */
interface PeerInternals {
  _pc: RTCPeerConnection;
  _onIceStateChange(): void;
  _onConnectionStateChange(): void;
  _addIceCandidate(candidate: RTCIceCandidateInit): void;
  destroyed: boolean;
}

export interface ConnectionKeeper {
  /** True when the signal was handled here and must not reach simple-peer. */
  intercept(data: Record<string, unknown>): boolean;
  stop(): void;
}

const isDown = (pc: RTCPeerConnection) =>
  pc.iceConnectionState === 'disconnected' ||
  pc.iceConnectionState === 'failed' ||
  pc.connectionState === 'disconnected' ||
  pc.connectionState === 'failed';

const isUp = (pc: RTCPeerConnection) =>
  (pc.iceConnectionState === 'connected' || pc.iceConnectionState === 'completed') &&
  pc.connectionState !== 'disconnected' &&
  pc.connectionState !== 'failed';

export function keepConnected(options: {
  peer: SimplePeer.Instance;
  initiator: boolean;
  send(data: Record<string, unknown>): void;
  /** Fresh ICE servers (new TURN credentials) for a restart; null or a failure keeps the current ones. */
  freshIceServers?: () => Promise<RTCIceServer[] | null>;
  /** The link went down after being up (`at`: Date.now()). */
  onReconnecting(at: number): void;
  onReconnected(): void;
  intervalMs?: number;
}): ConnectionKeeper {
  const internals = options.peer as unknown as PeerInternals;
  const pc = internals._pc;
  const interval = options.intervalMs ?? ICE_RESTART_INTERVAL_MS;
  let everConnected = false;
  let reconnecting = false;
  let restarting = false;
  let lastOffer = 0;
  let timer: ReturnType<typeof setInterval> | null = null;
  let stopped = false;

  const onIce = internals._onIceStateChange;
  internals._onIceStateChange = function (this: PeerInternals) {
    if (pc.iceConnectionState !== 'failed' || !everConnected) onIce.call(this);
  };
  const onConnection = internals._onConnectionStateChange;
  internals._onConnectionStateChange = function (this: PeerInternals) {
    if (pc.connectionState !== 'failed' || !everConnected) onConnection.call(this);
  };
  internals._addIceCandidate = (candidate) => {
    // Refused: a candidate of the ICE generation before a restart. The next one is of the current one.
    pc.addIceCandidate(candidate).catch(() => undefined);
  };

  async function offerRestart() {
    if (restarting || stopped || internals.destroyed) return;
    restarting = true;
    lastOffer = Date.now();
    try {
      const iceServers = await options.freshIceServers?.().catch(() => null);
      if (stopped || internals.destroyed) return;
      if (iceServers) pc.setConfiguration({ ...pc.getConfiguration(), iceServers });
      // The previous restart's offer went unanswered (lost while the other side was offline).
      if (pc.signalingState === 'have-local-offer') await pc.setLocalDescription({ type: 'rollback' });
      if (pc.signalingState !== 'stable') return;
      const offer = await pc.createOffer({ iceRestart: true });
      if (stopped || internals.destroyed) return;
      await pc.setLocalDescription(offer);
      options.send({ type: offer.type, sdp: offer.sdp });
    } finally {
      restarting = false;
    }
  }

  const attempt = () => {
    if (options.initiator) void offerRestart().catch(() => undefined);
    else options.send({ ...ICE_RESTART_REQUEST });
  };

  function onStateChange() {
    if (stopped) return;
    if (isUp(pc)) {
      everConnected = true;
      if (!reconnecting) return;
      reconnecting = false;
      if (timer) clearInterval(timer);
      timer = null;
      options.onReconnected();
      return;
    }
    if (!everConnected || reconnecting || !isDown(pc)) return;
    reconnecting = true;
    options.onReconnecting(Date.now());
    attempt();
    timer = setInterval(attempt, interval);
  }
  pc.addEventListener('iceconnectionstatechange', onStateChange);
  pc.addEventListener('connectionstatechange', onStateChange);

  return {
    intercept(data) {
      if (data.type === ICE_RESTART_REQUEST.type) {
        // Requests pile up in the customer's socket while it is offline; one offer answers them all.
        if (options.initiator && Date.now() - lastOffer > 1_000) void offerRestart().catch(() => undefined);
        return true;
      }
      // The answer to an offer rolled back since: applying it in `stable` would end the peer.
      return options.initiator && data.type === 'answer' && pc.signalingState !== 'have-local-offer';
    },
    stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      pc.removeEventListener('iceconnectionstatechange', onStateChange);
      pc.removeEventListener('connectionstatechange', onStateChange);
    },
  };
}
