/**
 * Which network path a call took, from the peer connection's statistics: the selected candidate pair's local
 * and remote candidate types, and, through a TURN server, how this side reaches it (UDP, TCP or TLS). Kept per
 * call for the quality panel (the machines hold no media).
 */
import type { StatsEntry } from './callQuality';

/** direct: host to host; stun: through a NAT's mapped address; turn-*: through the TURN server. */
export type CallPath = 'direct' | 'stun' | 'turn-udp' | 'turn-tcp' | 'turns';

/** The fields of the stats entries read here. */
export interface PathStatsEntry extends StatsEntry {
  state?: string;
  nominated?: boolean;
  selected?: boolean;
  localCandidateId?: string;
  remoteCandidateId?: string;
  selectedCandidatePairId?: string;
  candidateType?: string;
  relayProtocol?: string;
}

/**
 * The path of the selected candidate pair (the transport's `selectedCandidatePairId`, else the succeeded
 * nominated pair), or null before one is selected. A relay on the other side only (its TURN protocol is not
 * known here) counts as TURN over UDP, the protocol a browser tries first.
 */
export function callPathOf(entries: readonly PathStatsEntry[]): CallPath | null {
  const byId = new Map(entries.map((entry) => [entry.id, entry]));
  const selectedId = entries.find(
    (e) => e.type === 'transport' && e.selectedCandidatePairId,
  )?.selectedCandidatePairId;
  const pair =
    (selectedId ? byId.get(selectedId) : undefined) ??
    entries.find(
      (e) => e.type === 'candidate-pair' && (e.selected || (e.nominated && e.state === 'succeeded')),
    );
  if (!pair) return null;
  const local = pair.localCandidateId ? byId.get(pair.localCandidateId) : undefined;
  const remote = pair.remoteCandidateId ? byId.get(pair.remoteCandidateId) : undefined;
  if (!local || !remote) return null;
  if (local.candidateType === 'relay') {
    if (local.relayProtocol === 'tls') return 'turns';
    return local.relayProtocol === 'tcp' ? 'turn-tcp' : 'turn-udp';
  }
  if (remote.candidateType === 'relay') return 'turn-udp';
  if (local.candidateType === 'host' && remote.candidateType === 'host') return 'direct';
  return 'stun';
}

export const callPaths = (() => {
  const paths = new Map<number, CallPath>();
  const listeners = new Set<() => void>();
  return {
    get: (callId: number): CallPath | null => paths.get(callId) ?? null,
    set(callId: number, path: CallPath | null) {
      if ((paths.get(callId) ?? null) === path) return;
      if (path === null) paths.delete(callId);
      else paths.set(callId, path);
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
})();

/** How often the path is read again while the call runs (a restart may move it, e.g. onto the relay). */
const PATH_EVERY_MS = 2_000;

/** Reads the call's path now and every few seconds into `callPaths`; the returned function stops and forgets it. */
export function watchCallPath(peer: RTCPeerConnection, callId: number): () => void {
  const read = async () => {
    if (peer.connectionState === 'closed') return;
    const report = await peer.getStats();
    callPaths.set(callId, callPathOf(Array.from(report.values()) as PathStatsEntry[]));
  };
  void read().catch(() => undefined);
  const timer = setInterval(() => void read().catch(() => undefined), PATH_EVERY_MS);
  return () => {
    clearInterval(timer);
    callPaths.set(callId, null);
  };
}
