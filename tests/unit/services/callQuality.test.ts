/**
 * Call quality from WebRTC statistics: two successive getStats() snapshots make one sample.
 * The snapshots are shaped as Chromium reports them (inbound-rtp of audio and video, with the fields read).
 */
import { describe, expect, it } from 'vitest';
import { qualitySample, type StatsEntry } from '../../../src/services/callQuality';

const video = (at: number, fields: Partial<StatsEntry>): StatsEntry => ({
  id: 'IT01V1234',
  type: 'inbound-rtp',
  kind: 'video',
  timestamp: at,
  ...fields,
});
const audio = (at: number, fields: Partial<StatsEntry>): StatsEntry => ({
  id: 'IT01A5678',
  type: 'inbound-rtp',
  kind: 'audio',
  timestamp: at,
  ...fields,
});
// Entries of other types carry bytes too (transport, candidate pair) and must not be counted twice.
const transport = (at: number, bytesReceived: number): StatsEntry => ({
  id: 'T01',
  type: 'transport',
  timestamp: at,
  bytesReceived,
});

const first = [
  video(1000, {
    bytesReceived: 100_000,
    packetsReceived: 900,
    packetsLost: 10,
    frameWidth: 640,
    frameHeight: 480,
    framesDecoded: 300,
    framesPerSecond: 29,
  }),
  audio(1000, {
    bytesReceived: 20_000,
    packetsReceived: 500,
    packetsLost: 0,
    totalAudioEnergy: 1,
    totalSamplesDuration: 10,
  }),
  transport(1000, 130_000),
];
const second = [
  video(4000, {
    bytesReceived: 400_000,
    packetsReceived: 1170,
    packetsLost: 25,
    frameWidth: 640,
    frameHeight: 480,
    framesDecoded: 390,
    framesPerSecond: 31,
  }),
  audio(4000, {
    bytesReceived: 35_000,
    packetsReceived: 650,
    packetsLost: 0,
    totalAudioEnergy: 1.12,
    totalSamplesDuration: 13,
  }),
  transport(4000, 450_000),
];

describe('qualitySample', () => {
  it('gives resolution, frame rate, loss, bitrate and sound level over the interval', () => {
    expect(qualitySample(first, second)).toEqual({
      width: 640,
      height: 480,
      fps: 30, // 90 frames decoded in 3 s
      loss_pct: 3.4, // 15 lost of 270 + 150 received + 15 lost
      kbps: 840, // (300,000 + 15,000) bytes × 8 / 3 s
      audio_level: 0.2, // √(0.12 / 3)
    });
  });

  it('has nothing to say from one snapshot, the same snapshot twice, or without inbound streams', () => {
    expect(qualitySample(null, second)).toBeNull();
    expect(qualitySample(second, second)).toBeNull();
    expect(qualitySample([transport(1000, 1)], [transport(4000, 2)])).toBeNull();
  });

  it('counts a stream that appears between snapshots from zero, and never a negative delta', () => {
    const restarted = [
      {
        ...second[0],
        bytesReceived: 50_000,
        packetsReceived: 100,
        packetsLost: 2,
        framesDecoded: 10,
      } as StatsEntry,
      second[1] as StatsEntry,
    ];
    const sample = qualitySample(first, restarted);
    // The video counters went back (a new decoder): nothing of it counts, its frame rate is the browser's own.
    expect(sample).toMatchObject({ fps: 31, loss_pct: 0, kbps: 40 });
    const fresh = qualitySample([first[1] as StatsEntry], second);
    expect(fresh).toMatchObject({ width: 640, height: 480, kbps: 1107 });
  });

  it('reports packets lost only: a network that loses everything of an interval is 100 %', () => {
    const lost = [
      video(4000, { ...first[0], timestamp: 4000, packetsLost: 110 }),
      audio(4000, { ...first[1], timestamp: 4000 }),
    ];
    expect(qualitySample(first, lost)).toMatchObject({ loss_pct: 100, kbps: 0, fps: 0 });
  });
});
