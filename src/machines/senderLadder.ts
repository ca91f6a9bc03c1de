/**
 * How a video sender adapts to its link: the measured figures of the outgoing side (the browser's bandwidth
 * estimate, the loss and round trip the far end reports) pick a rung of a fixed ladder of bitrate and
 * resolution. Pure: figures in, parameters out; senderAdaptation.ts reads the statistics and applies the rung.
 *
 * Down at once when the link shows it cannot carry the rung (frames freeze within seconds otherwise), up one
 * rung at a time and only after several good readings in a row (a link that just recovered often drops again).
 */

/** One step of the ladder: what `RTCRtpSender.setParameters` gets for the video encoding. */
export interface SenderRung {
  /** bit/s of the video encoding. */
  maxBitrate: number;
  /** 1: the camera's 480 lines; 4/3: 360; 2: 240. */
  scaleResolutionDownBy: number;
}

/**
 * The camera is asked for 640×480. 360 lines are the least at which the quality monitor still calls the
 * picture good (an ID's print is readable); 240 lines are the last resort of a link that cannot carry 360 at
 * a frame rate a hologram can be seen moving at.
 */
export const SENDER_LADDER: readonly SenderRung[] = [
  { maxBitrate: 1_200_000, scaleResolutionDownBy: 1 },
  { maxBitrate: 700_000, scaleResolutionDownBy: 1 },
  { maxBitrate: 400_000, scaleResolutionDownBy: 4 / 3 },
  { maxBitrate: 250_000, scaleResolutionDownBy: 2 },
];

/**
 * Lines are the ladder's to give, never the encoder's: below 240 lines an ID's print is no longer readable. The
 * encoder, pressed between two readings (a busy phone, a falling estimate), drops frames for a moment instead of
 * lowering the picture on its own, and says so (`qualityLimitationReason`); the ladder then steps down a rung,
 * which costs lines it chose and brings the frame rate back.
 */
export const DEGRADATION_PREFERENCE: RTCDegradationPreference = 'maintain-resolution';

/** The video bitrate may use this share of the estimated outgoing bandwidth (audio, headers and retransmissions take the rest). */
export const BANDWIDTH_SHARE = 0.8;
/**
 * Lost packets (%) above which the sender steps down even when the estimate still allows the rung (where the
 * browser's own congestion control also sees congestion). One reading of the far end's report is noisy (a key
 * frame overflowing a queue): it takes POOR_READINGS_TO_STEP_DOWN in a row.
 */
export const MAX_LOSS_PCT = 10;
/** Round trip (ms) above which the sender steps down: queues are filling somewhere on the path. */
export const MAX_RTT_MS = 600;
/** Poor readings (loss, round trip or a pressed encoder) in a row before the sender steps down one rung. */
export const POOR_READINGS_TO_STEP_DOWN = 2;
/** Good readings in a row before the sender steps up one rung. */
export const GOOD_READINGS_TO_STEP_UP = 3;
/** Stepping up needs this much headroom over the next rung's bitrate (it must not fall back at once). */
export const STEP_UP_HEADROOM = 1.1;

/** What the outgoing side measured (null: not known yet). */
export interface LinkFigures {
  /** The browser's estimate of the outgoing bandwidth (kbit/s). */
  availableKbps: number | null;
  /** Packets lost on the way out, as the far end reports (%). */
  lossPct: number | null;
  /** Round trip (ms). */
  rttMs: number | null;
  /** What holds the encoder back from the rung's picture now (null: nothing, or not known). */
  limitedBy: 'cpu' | 'bandwidth' | null;
}

export interface LadderState {
  rung: number;
  /** Good readings in a row at this rung. */
  good: number;
  /** Poor readings (loss, round trip or a pressed encoder) in a row at this rung. */
  poor: number;
}

export const LADDER_START: LadderState = { rung: 0, good: 0, poor: 0 };

const lowest = SENDER_LADDER.length - 1;
const bitrateOf = (rung: number) => (SENDER_LADDER[rung] as SenderRung).maxBitrate;

/** The highest rung whose bitrate fits in the estimate's share (the lowest when none does). */
function fittingRung(availableKbps: number): number {
  const budget = availableKbps * 1000 * BANDWIDTH_SHARE;
  const index = SENDER_LADDER.findIndex((rung) => rung.maxBitrate <= budget);
  return index === -1 ? lowest : index;
}

/** The next state of the ladder after one reading of the figures. */
export function nextRung(state: LadderState, figures: LinkFigures): LadderState {
  const { availableKbps, lossPct, rttMs, limitedBy } = figures;
  const fits = availableKbps === null ? state.rung : fittingRung(availableKbps);
  const lossy = lossPct !== null && lossPct > MAX_LOSS_PCT;
  const slow = rttMs !== null && rttMs > MAX_RTT_MS;
  if (fits > state.rung) return { rung: fits, good: 0, poor: 0 };
  if (lossy || slow || limitedBy !== null) {
    const poor = state.poor + 1;
    return poor >= POOR_READINGS_TO_STEP_DOWN
      ? { rung: Math.min(lowest, state.rung + 1), good: 0, poor: 0 }
      : { rung: state.rung, good: 0, poor };
  }
  if (state.rung === 0) return { rung: 0, good: 0, poor: 0 };
  const roomForNext =
    availableKbps !== null &&
    availableKbps * 1000 * BANDWIDTH_SHARE >= bitrateOf(state.rung - 1) * STEP_UP_HEADROOM;
  if (!roomForNext) return { rung: state.rung, good: 0, poor: 0 };
  const good = state.good + 1;
  return good >= GOOD_READINGS_TO_STEP_UP
    ? { rung: state.rung - 1, good: 0, poor: 0 }
    : { rung: state.rung, good, poor: 0 };
}

/** One entry of an RTCStatsReport (`Array.from(report.values())`): the fields read here. */
export interface OutboundStatsEntry {
  id: string;
  type: string;
  kind?: string;
  state?: string;
  nominated?: boolean;
  selected?: boolean;
  selectedCandidatePairId?: string;
  availableOutgoingBitrate?: number;
  currentRoundTripTime?: number;
  roundTripTime?: number;
  fractionLost?: number;
  qualityLimitationReason?: string;
}

const finite = (value: number | undefined) =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/**
 * The figures of one getStats() snapshot: the estimate and round trip of the pair the transport uses, the loss
 * the far end reports for the video it receives (RTCP receiver reports: `remote-inbound-rtp`), and what the
 * video's encoder says holds it back (`outbound-rtp`).
 */
export function linkFigures(entries: readonly OutboundStatsEntry[]): LinkFigures {
  const transport = entries.find((e) => e.type === 'transport' && e.selectedCandidatePairId);
  const pair =
    entries.find((e) => e.type === 'candidate-pair' && e.id === transport?.selectedCandidatePairId) ??
    entries.find((e) => e.type === 'candidate-pair' && e.state === 'succeeded' && e.nominated);
  const remote = entries.find((e) => e.type === 'remote-inbound-rtp' && e.kind === 'video');
  const available = finite(pair?.availableOutgoingBitrate);
  const rtt = finite(pair?.currentRoundTripTime) ?? finite(remote?.roundTripTime);
  const lost = finite(remote?.fractionLost);
  const reason = entries.find(
    (e) => e.type === 'outbound-rtp' && e.kind === 'video',
  )?.qualityLimitationReason;
  return {
    availableKbps: available === null ? null : Math.round(available / 1000),
    lossPct: lost === null ? null : Math.round(lost * 1000) / 10,
    rttMs: rtt === null ? null : Math.round(rtt * 1000),
    limitedBy: reason === 'cpu' || reason === 'bandwidth' ? reason : null,
  };
}
