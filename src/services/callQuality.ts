/**
 * Call quality from WebRTC statistics. Pure: from two successive getStats() snapshots of
 * one peer connection to one sample of what that side received in between. The browser part (polling the
 * connection, sending the samples) is in qualityMeter.ts.
 */
import type { QualitySample } from '#contract/callQualityRules';

/** One entry of an RTCStatsReport (`Array.from(report.values())`): the fields read here, all optional. */
export interface StatsEntry {
  id: string;
  type: string;
  /** ms (a DOMHighResTimeStamp) */
  timestamp: number;
  kind?: string;
  bytesReceived?: number;
  packetsReceived?: number;
  packetsLost?: number;
  frameWidth?: number;
  frameHeight?: number;
  framesDecoded?: number;
  framesPerSecond?: number;
  totalAudioEnergy?: number;
  totalSamplesDuration?: number;
}

const inbound = (entries: readonly StatsEntry[]) => entries.filter((e) => e.type === 'inbound-rtp');
const n = (value: number | undefined) => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/**
 * The sample between two snapshots, or null when nothing was received in between (no inbound stream yet, or
 * the same snapshot twice). A stream new in `next` counts from zero. Loss is the share of packets lost among
 * those expected (received + lost), audio and video together; a negative loss delta (duplicates, resets) is 0.
 */
export function qualitySample(
  prev: readonly StatsEntry[] | null,
  next: readonly StatsEntry[],
): QualitySample | null {
  const before = new Map(inbound(prev ?? []).map((e) => [e.id, e]));
  let bytes = 0;
  let received = 0;
  let lost = 0;
  let seconds = 0;
  let width = 0;
  let height = 0;
  let fps = 0;
  let energy = 0;
  let duration = 0;
  for (const now of inbound(next)) {
    const then = before.get(now.id);
    const dt = then ? (now.timestamp - then.timestamp) / 1000 : 0;
    if (then && dt <= 0) continue;
    bytes += Math.max(0, n(now.bytesReceived) - n(then?.bytesReceived));
    received += Math.max(0, n(now.packetsReceived) - n(then?.packetsReceived));
    lost += Math.max(0, n(now.packetsLost) - n(then?.packetsLost));
    seconds = Math.max(seconds, dt);
    if (now.kind === 'video' && n(now.frameHeight) > height) {
      width = n(now.frameWidth);
      height = n(now.frameHeight);
      const frames = n(now.framesDecoded) - n(then?.framesDecoded);
      fps = then && frames >= 0 ? frames / dt : n(now.framesPerSecond);
    }
    if (now.kind === 'audio') {
      energy += Math.max(0, n(now.totalAudioEnergy) - n(then?.totalAudioEnergy));
      duration += Math.max(0, n(now.totalSamplesDuration) - n(then?.totalSamplesDuration));
    }
  }
  if (seconds === 0 || received + lost === 0) return null;
  return {
    width,
    height,
    fps: round(fps, 1),
    loss_pct: round((100 * lost) / (received + lost), 1),
    kbps: Math.round((bytes * 8) / seconds / 1000),
    // totalAudioEnergy sums level² × duration: the mean power over the interval, as an RMS level.
    audio_level: duration > 0 ? round(Math.min(1, Math.sqrt(energy / duration)), 4) : 0,
  };
}
