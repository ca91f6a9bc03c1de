import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QUALITY_THRESHOLDS, type QualitySample } from '#contract/callQualityRules';
import { qualitySuggestion } from '../../../src/machines/qualitySuggestion';
import {
  GOOD_READINGS_TO_STEP_UP,
  LADDER_START,
  type LadderState,
  type LinkFigures,
  linkFigures,
  MAX_LOSS_PCT,
  MAX_RTT_MS,
  nextRung,
  SENDER_LADDER,
} from '../../../src/machines/senderLadder';

const good: LinkFigures = { availableKbps: 2500, lossPct: 0, rttMs: 40, limitedBy: null };
/** The link of a poor mobile connection: 1 Mbit/s, 3 % loss, 300 ms round trip. */
const mobile: LinkFigures = { availableKbps: 700, lossPct: 3, rttMs: 300, limitedBy: null };
const lowest = SENDER_LADDER.length - 1;

const run = (readings: LinkFigures[], from: LadderState = LADDER_START) => readings.reduce(nextRung, from);

describe('sender ladder', () => {
  it('keeps the top rung on a good link', () => {
    expect(run([good, good, good, good])).toEqual(LADDER_START);
  });

  it('drops at once to the rung the estimate carries on a poor mobile link, keeping 360 lines', () => {
    const state = nextRung(LADDER_START, mobile);
    const rung = SENDER_LADDER[state.rung];
    expect(rung?.maxBitrate).toBeLessThanOrEqual(700_000 * 0.8);
    expect(rung?.maxBitrate).toBeGreaterThan(0.5 * 700_000 * 0.8);
    expect(480 / (rung?.scaleResolutionDownBy ?? 1)).toBeGreaterThanOrEqual(QUALITY_THRESHOLDS.minHeight);
    // 3 % loss and 300 ms are what a mobile link has: no further step down while the estimate holds.
    expect(run([mobile, mobile, mobile]).rung).toBe(state.rung);
  });

  it('steps down one rung after heavy loss or a long round trip twice in a row, even when the estimate allows the rung', () => {
    const lossy = { ...good, lossPct: MAX_LOSS_PCT + 1 };
    const slow = { ...good, rttMs: MAX_RTT_MS + 1 };
    expect(nextRung(LADDER_START, lossy).rung).toBe(0);
    expect(run([lossy, lossy]).rung).toBe(1);
    expect(run([lossy, slow]).rung).toBe(1);
    expect(run([lossy, good, lossy]).rung).toBe(0);
    expect(run([lossy, lossy], { rung: lowest, good: 0, poor: 0 }).rung).toBe(lowest);
  });

  it('steps down one rung when the encoder says twice in a row that the CPU or the bandwidth holds it back', () => {
    const busy = { ...good, limitedBy: 'cpu' as const };
    const starved = { ...good, limitedBy: 'bandwidth' as const };
    expect(nextRung(LADDER_START, busy).rung).toBe(0);
    expect(run([busy, busy]).rung).toBe(1);
    expect(run([busy, starved, busy, starved]).rung).toBe(2);
    expect(run([busy, good, busy]).rung).toBe(0);
    // The lowest rung is the floor: a pressed encoder there drops frames, never lines.
    expect(run([busy, busy, busy, busy], { rung: lowest, good: 0, poor: 0 }).rung).toBe(lowest);
  });

  it('goes to the lowest rung when the estimate carries none', () => {
    expect(nextRung(LADDER_START, { availableKbps: 100, lossPct: 0, rttMs: 50, limitedBy: null }).rung).toBe(
      lowest,
    );
  });

  it('climbs back one rung at a time, each after several good readings in a row', () => {
    let state: LadderState = { rung: lowest, good: 0, poor: 0 };
    const rungs: number[] = [];
    for (let i = 0; i < GOOD_READINGS_TO_STEP_UP * lowest; i++) {
      state = nextRung(state, good);
      rungs.push(state.rung);
    }
    expect(rungs.at(-1)).toBe(0);
    // Never two rungs in one reading.
    for (let i = 1; i < rungs.length; i++)
      expect((rungs[i - 1] as number) - (rungs[i] as number)).toBeLessThanOrEqual(1);
    // A poor reading in between starts the count again; two in a row step down.
    const lossy = { ...good, lossPct: 20 };
    expect(run([good, good, lossy, good, good], { rung: 1, good: 0, poor: 0 }).rung).toBe(1);
    expect(run([good, good, lossy, lossy], { rung: 1, good: 0, poor: 0 }).rung).toBe(2);
  });

  it('climbs back to 360 lines on the mobile link, and no higher without headroom', () => {
    // 700 kbit/s carries rung 2 (400 kbit/s) but not rung 1 (700 kbit/s) with its headroom.
    expect(run(Array(10).fill(mobile), { rung: lowest, good: 0, poor: 0 }).rung).toBe(2);
  });

  it('keeps its rung when nothing is measured yet', () => {
    expect(
      nextRung(
        { rung: 2, good: 1, poor: 1 },
        { availableKbps: null, lossPct: null, rttMs: null, limitedBy: null },
      ),
    ).toEqual({ rung: 2, good: 0, poor: 0 });
  });

  it('always stays on the ladder and never climbs on a reading worse than the last', () => {
    const figures = fc.record({
      availableKbps: fc.option(fc.double({ min: 0, max: 1e6, noNaN: true }), { nil: null }),
      lossPct: fc.option(fc.double({ min: 0, max: 100, noNaN: true }), { nil: null }),
      rttMs: fc.option(fc.double({ min: 0, max: 1e5, noNaN: true }), { nil: null }),
      limitedBy: fc.constantFrom('cpu' as const, 'bandwidth' as const, null),
    });
    fc.assert(
      fc.property(fc.array(figures, { maxLength: 30 }), (readings) => {
        let state = LADDER_START;
        for (const reading of readings) {
          const next = nextRung(state, reading);
          expect(next.rung).toBeGreaterThanOrEqual(0);
          expect(next.rung).toBeLessThanOrEqual(lowest);
          expect(state.rung - next.rung).toBeLessThanOrEqual(1);
          const poor =
            (reading.lossPct ?? 0) > MAX_LOSS_PCT ||
            (reading.rttMs ?? 0) > MAX_RTT_MS ||
            reading.limitedBy !== null;
          if (poor) expect(next.rung).toBeGreaterThanOrEqual(state.rung);
          expect(next.good).toBeLessThan(GOOD_READINGS_TO_STEP_UP);
          state = next;
        }
      }),
    );
  });
});

describe('link figures from outbound statistics', () => {
  it('reads the selected pair and the far end’s report of the video', () => {
    const figures = linkFigures([
      { id: 'T01', type: 'transport', selectedCandidatePairId: 'CP2' },
      { id: 'CP1', type: 'candidate-pair', state: 'failed', availableOutgoingBitrate: 9e6 },
      {
        id: 'CP2',
        type: 'candidate-pair',
        state: 'succeeded',
        nominated: true,
        availableOutgoingBitrate: 812_345,
        currentRoundTripTime: 0.3012,
      },
      { id: 'RIA', type: 'remote-inbound-rtp', kind: 'audio', fractionLost: 0.5 },
      { id: 'RIV', type: 'remote-inbound-rtp', kind: 'video', fractionLost: 0.0312, roundTripTime: 0.29 },
      { id: 'OA', type: 'outbound-rtp', kind: 'audio' },
      { id: 'OV', type: 'outbound-rtp', kind: 'video', qualityLimitationReason: 'cpu' },
    ]);
    expect(figures).toEqual({ availableKbps: 812, lossPct: 3.1, rttMs: 301, limitedBy: 'cpu' });
  });

  it('falls back to the nominated pair and the report’s round trip; nothing known is null', () => {
    expect(
      linkFigures([
        { id: 'CP', type: 'candidate-pair', state: 'succeeded', nominated: true },
        { id: 'RIV', type: 'remote-inbound-rtp', kind: 'video', roundTripTime: 0.15 },
        { id: 'OV', type: 'outbound-rtp', kind: 'video', qualityLimitationReason: 'none' },
      ]),
    ).toEqual({ availableKbps: null, lossPct: null, rttMs: 150, limitedBy: null });
    expect(linkFigures([])).toEqual({ availableKbps: null, lossPct: null, rttMs: null, limitedBy: null });
  });
});

describe('abort advice on a degraded call', () => {
  const sample = (height: number, over: Partial<QualitySample> = {}): QualitySample => ({
    width: Math.round((height * 4) / 3),
    height,
    fps: 24,
    loss_pct: 3,
    kbps: 480,
    audio_level: 0.1,
    ...over,
  });

  it('offers no abort on a mobile link the ladder kept at 360 lines', () => {
    expect(qualitySuggestion(Array(5).fill(sample(360)), [])).toBeNull();
  });

  it('offers the picture reason once the measured picture falls to the last rung', () => {
    expect(qualitySuggestion(Array(5).fill(sample(240)), [])?.issue).toBe('picture');
  });

  it('offers the connection reason when the measured loss stays above the threshold', () => {
    expect(qualitySuggestion(Array(5).fill(sample(360, { loss_pct: 9 })), [])?.issue).toBe('connection');
  });
});
