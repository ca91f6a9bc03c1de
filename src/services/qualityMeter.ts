/**
 * Measures a call's quality in the browser: every QUALITY_INTERVAL_MS the peer connection's
 * getStats() becomes a sample (callQuality.ts), handed to `onSample` and sent to the server in batches. Used by
 * the agent's call session and the customer's page alike; only `send` differs (the studio's API, the join token).
 */
import { MAX_QUALITY_BATCH, QUALITY_INTERVAL_MS, type QualitySample } from '#contract/callQualityRules';
import { qualitySample, type StatsEntry } from './callQuality';

/** Sends samples; rejects with `{ status }` of the server's answer when it refused them (4xx: stop sending). */
export type QualitySend = (samples: QualitySample[]) => Promise<void>;

const refused = (error: unknown) => {
  const status =
    typeof error === 'object' && error !== null && 'status' in error ? Number(error.status) : Number.NaN;
  return status >= 400 && status < 500;
};

/** Starts measuring; the returned function stops it and sends what is left. */
export function meterQuality(options: {
  peer: RTCPeerConnection;
  send: QualitySend;
  onSample?: (sample: QualitySample) => void;
  intervalMs?: number;
}): () => void {
  let previous: StatsEntry[] | null = null;
  let pending: QualitySample[] = [];
  let sending = false;
  let stopped = false;
  let refusedOnce = false;

  async function flush() {
    if (sending || refusedOnce || pending.length === 0) return;
    sending = true;
    const batch = pending.slice(0, MAX_QUALITY_BATCH);
    try {
      await options.send(batch);
      pending = pending.slice(batch.length);
    } catch (error) {
      // Refused (the call ended, another's call, the limit): nothing more is sent. Otherwise kept for next time.
      if (refused(error)) refusedOnce = true;
      pending = pending.slice(-MAX_QUALITY_BATCH);
    } finally {
      sending = false;
    }
  }

  async function measure() {
    if (options.peer.connectionState === 'closed') return;
    const report = await options.peer.getStats();
    if (stopped) return;
    const entries = Array.from(report.values()) as StatsEntry[];
    const sample = qualitySample(previous, entries);
    previous = entries;
    if (!sample) return;
    options.onSample?.(sample);
    pending.push(sample);
    await flush();
  }

  const timer = setInterval(
    () => void measure().catch(() => undefined),
    options.intervalMs ?? QUALITY_INTERVAL_MS,
  );
  void measure().catch(() => undefined);
  return () => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    void flush();
  };
}
