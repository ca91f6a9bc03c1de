/** The end screen's offer when the call was poor, and the thresholds it stands on. */
import { describe, expect, it } from 'vitest';
import {
  callIssues,
  QUALITY_THRESHOLDS,
  type QualitySample,
  sampleIssues,
  summarizeQuality,
} from '#contract/callQualityRules';
import { DEFAULT_IDENT_PROCEDURE } from '#contract/identProcedure';
import {
  CALL_STATUS_BAD_QUALITY,
  CALL_STATUS_CONNECTION_ERROR,
  qualitySuggestion,
  suggestedFirst,
} from '../../../src/machines/qualitySuggestion';

const good: QualitySample = { width: 640, height: 480, fps: 30, loss_pct: 0, kbps: 900, audio_level: 0.2 };
const reasons = DEFAULT_IDENT_PROCEDURE.abort_reasons;
const times = (n: number, sample: QualitySample) => Array.from({ length: n }, () => sample);

describe('thresholds', () => {
  it('flag a sample at each threshold only past it', () => {
    const t = QUALITY_THRESHOLDS;
    const edge = { ...good, height: t.minHeight, fps: t.minFps, loss_pct: t.maxLossPct, kbps: t.minKbps };
    expect(sampleIssues(edge)).toEqual(new Set());
    const past = {
      ...good,
      height: t.minHeight - 1,
      fps: t.minFps - 0.1,
      loss_pct: t.maxLossPct + 0.1,
      kbps: t.minKbps - 1,
    };
    expect(sampleIssues(past)).toEqual(new Set(['height', 'fps', 'loss_pct', 'kbps']));
  });

  it('judge a call by its medians: a short dip is not a poor call', () => {
    const dip = { ...good, height: 240, fps: 5, loss_pct: 40, kbps: 50 };
    expect(summarizeQuality([...times(4, good), ...times(3, dip)])?.issues).toEqual([]);
    expect(summarizeQuality([...times(4, good), ...times(5, dip)])?.issues).toEqual([
      'picture',
      'connection',
    ]);
  });
});

describe('qualitySuggestion', () => {
  it('offers nothing for a good call or one too short to judge', () => {
    expect(qualitySuggestion(times(10, good), reasons)).toBeNull();
    expect(qualitySuggestion(times(2, { ...good, fps: 3 }), reasons)).toBeNull();
    expect(qualitySuggestion([], reasons)).toBeNull();
  });

  it('offers BAD QUALITY with the picture reason for a poor picture (low resolution or frame rate)', () => {
    for (const poor of [
      { ...good, height: 240 },
      { ...good, fps: 10 },
    ]) {
      const offer = qualitySuggestion(times(3, poor), reasons);
      expect(offer).toMatchObject({
        issue: 'picture',
        status: CALL_STATUS_BAD_QUALITY,
        reason: { id: 'picture' },
      });
    }
    expect(CALL_STATUS_BAD_QUALITY).toBe(6);
  });

  it('offers BAD QUALITY with the sound reason when nothing was heard, CONNECTION ERROR for loss or bitrate', () => {
    expect(qualitySuggestion(times(3, { ...good, audio_level: 0.001 }), reasons)).toMatchObject({
      issue: 'sound',
      status: CALL_STATUS_BAD_QUALITY,
      reason: { id: 'sound', en: 'Poor sound' },
    });
    for (const poor of [
      { ...good, loss_pct: 8 },
      { ...good, kbps: 120 },
    ])
      expect(qualitySuggestion(times(3, poor), reasons)).toMatchObject({
        issue: 'connection',
        status: CALL_STATUS_CONNECTION_ERROR,
        reason: { id: 'connection' },
      });
    expect(CALL_STATUS_CONNECTION_ERROR).toBe(7);
  });

  it('offers the picture first when several are poor, and no reason when the company has none of that id', () => {
    const all = { ...good, fps: 2, audio_level: 0, loss_pct: 30 };
    expect(qualitySuggestion(times(3, all), reasons)?.issue).toBe('picture');
    const without = reasons.filter((r) => r.id !== 'picture');
    expect(qualitySuggestion(times(3, all), without)).toMatchObject({ issue: 'picture', reason: null });
  });

  it("considers the customer's side: a poor picture there is offered as at the agent's", () => {
    const customer = summarizeQuality(times(3, { ...good, height: 240 }));
    expect(qualitySuggestion(times(3, good), reasons, customer)).toMatchObject({
      issue: 'picture',
      status: CALL_STATUS_BAD_QUALITY,
      reason: { id: 'picture' },
    });
    // The first issue of either side, in the order picture, sound, connection.
    const agentLoss = times(3, { ...good, loss_pct: 20 });
    expect(qualitySuggestion(agentLoss, reasons, customer)?.issue).toBe('picture');
    expect(qualitySuggestion(agentLoss, reasons, summarizeQuality(times(3, good)))?.issue).toBe('connection');
    // Too short on both sides to tell: nothing.
    expect(qualitySuggestion([], reasons, summarizeQuality(times(2, { ...good, fps: 2 })))).toBeNull();
  });

  it('puts the suggested reason first, the others in the company order', () => {
    const offer = qualitySuggestion(times(3, { ...good, kbps: 10 }), reasons);
    const ordered = suggestedFirst(reasons, offer).map((r) => r.id);
    expect(ordered[0]).toBe('connection');
    expect(ordered.slice(1)).toEqual(reasons.map((r) => r.id).filter((id) => id !== 'connection'));
    expect(suggestedFirst(reasons, null)).toBe(reasons);
  });
});

describe('callIssues', () => {
  it('joins what either side found poor, once each, in the order picture, sound, connection', () => {
    const picture = summarizeQuality(times(3, { ...good, fps: 4 }));
    const soundAndLoss = summarizeQuality(times(3, { ...good, audio_level: 0, loss_pct: 9 }));
    const fine = summarizeQuality(times(3, good));
    expect(callIssues(soundAndLoss, picture)).toEqual(['picture', 'sound', 'connection']);
    expect(callIssues(picture, picture)).toEqual(['picture']);
    expect(callIssues(fine, null)).toEqual([]);
    expect(callIssues(null, undefined)).toEqual([]);
    expect(callIssues()).toEqual([]);
  });
});
