/**
 * Why a call's peer could not connect, in terms an agent can act on: the TURN server refused the credentials
 * (wrong secret, expired), could not be reached, or no network path worked. Read from the peer connection's
 * `icecandidateerror` events (the STUN/TURN error codes: 401 unauthorised; 7xx the server could not be reached)
 * and its ICE states. Only before the peer first connected: a drop afterwards is a reconnection.
 */

import type { IceFailure } from '../machines/call.machine';

export type { IceFailure };

/** The failure the errors seen point to: refused credentials first, then an unreachable server. */
export function iceFailureOf(errorCodes: readonly number[]): IceFailure {
  if (errorCodes.some((code) => code === 401 || code === 403 || code === 437 || code === 441))
    return 'credentials';
  if (errorCodes.some((code) => code >= 700 && code < 800)) return 'unreachable';
  return 'noPath';
}

const isRelay = (candidate: RTCIceCandidate | null) =>
  candidate !== null && (candidate.type === 'relay' || / typ relay /.test(candidate.candidate));

/**
 * Calls `onFailed` once when the peer cannot connect: its ICE state went `failed`, or, relay-only, its
 * candidates were all gathered and none is a relay one (nothing to try: the TURN server gave no address).
 * Returns the function that stops watching (also stopped by the first connection).
 */
export function watchIceFailure(
  pc: RTCPeerConnection,
  relayOnly: boolean,
  onFailed: (cause: IceFailure) => void,
): () => void {
  const codes: number[] = [];
  let relays = 0;
  let done = false;
  const fail = () => {
    if (done) return;
    stop();
    onFailed(iceFailureOf(codes));
  };
  const onError = (event: Event) => codes.push((event as RTCPeerConnectionIceErrorEvent).errorCode);
  const onCandidate = (event: RTCPeerConnectionIceEvent) => {
    if (isRelay(event.candidate)) relays += 1;
  };
  const onGathering = () => {
    if (relayOnly && pc.iceGatheringState === 'complete' && relays === 0) fail();
  };
  const onState = () => {
    const state = pc.iceConnectionState;
    if (state === 'connected' || state === 'completed') stop();
    else if (state === 'failed') fail();
  };
  function stop() {
    done = true;
    pc.removeEventListener('icecandidateerror', onError);
    pc.removeEventListener('icecandidate', onCandidate);
    pc.removeEventListener('icegatheringstatechange', onGathering);
    pc.removeEventListener('iceconnectionstatechange', onState);
  }
  pc.addEventListener('icecandidateerror', onError);
  pc.addEventListener('icecandidate', onCandidate);
  pc.addEventListener('icegatheringstatechange', onGathering);
  pc.addEventListener('iceconnectionstatechange', onState);
  return stop;
}
