/**
 * Keeps a peer's video sender within what its link carries: every ADAPT_INTERVAL_MS the peer's statistics
 * become link figures, the ladder (machines/senderLadder.ts) picks a rung, and a changed rung is applied with
 * `RTCRtpSender.setParameters`. The recording and the track are untouched: only the encoding changes.
 */
import {
  DEGRADATION_PREFERENCE,
  LADDER_START,
  type LadderState,
  linkFigures,
  nextRung,
  type OutboundStatsEntry,
  SENDER_LADDER,
  type SenderRung,
} from '../machines/senderLadder';

/** Readings this often: the browser's estimate moves within a second or two of a change of link. */
export const ADAPT_INTERVAL_MS = 2_000;

/** Applies a rung to a video sender's first encoding (Chromium rejects an unknown degradation preference: retried without). */
export async function applyRung(sender: RTCRtpSender, rung: SenderRung): Promise<void> {
  const parameters = sender.getParameters();
  if (!parameters.encodings?.length) return;
  for (const encoding of parameters.encodings) {
    encoding.maxBitrate = rung.maxBitrate;
    encoding.scaleResolutionDownBy = rung.scaleResolutionDownBy;
  }
  try {
    await sender.setParameters({ ...parameters, degradationPreference: DEGRADATION_PREFERENCE });
  } catch {
    const again = sender.getParameters();
    for (const encoding of again.encodings ?? []) {
      encoding.maxBitrate = rung.maxBitrate;
      encoding.scaleResolutionDownBy = rung.scaleResolutionDownBy;
    }
    await sender.setParameters(again);
  }
}

/**
 * Starts adapting the peer's video sender; the returned function stops it. `onRung` hears every change (the
 * call's quality panel, tests).
 */
export function adaptVideoSender(
  peer: RTCPeerConnection,
  options: {
    intervalMs?: number;
    onRung?: (rung: number, figures: ReturnType<typeof linkFigures>) => void;
  } = {},
): () => void {
  let state: LadderState = LADDER_START;
  let applied = -1;
  let stopped = false;
  let busy = false;
  const sender = () => peer.getSenders().find((s) => s.track?.kind === 'video');

  async function step() {
    if (busy || stopped || peer.connectionState === 'closed') return;
    const video = sender();
    if (!video) return;
    busy = true;
    try {
      if (applied === -1) {
        // The top rung at once: it sets the degradation preference before the link is first measured.
        await applyRung(video, SENDER_LADDER[0] as SenderRung);
        applied = 0;
      }
      const report = await peer.getStats();
      if (stopped) return;
      const figures = linkFigures(Array.from(report.values()) as OutboundStatsEntry[]);
      state = nextRung(state, figures);
      if (state.rung !== applied) {
        await applyRung(video, SENDER_LADDER[state.rung] as SenderRung);
        applied = state.rung;
        options.onRung?.(state.rung, figures);
      }
    } finally {
      busy = false;
    }
  }

  const timer = setInterval(
    () => void step().catch(() => undefined),
    options.intervalMs ?? ADAPT_INTERVAL_MS,
  );
  void step().catch(() => undefined);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
