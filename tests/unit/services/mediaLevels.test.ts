import { describe, expect, it } from 'vitest';
import { brightnessOf, DARK_BRIGHTNESS, loudnessOf, QUIET_LOUDNESS } from '../../../src/services/mediaLevels';

const pixels = (...rgb: [number, number, number][]) => new Uint8ClampedArray(rgb.flatMap((p) => [...p, 255]));

describe('the device check levels', () => {
  it('brightness: black 0, white 1, Rec. 709 weights in between', () => {
    expect(brightnessOf(pixels([0, 0, 0]))).toBe(0);
    expect(brightnessOf(pixels([255, 255, 255]))).toBeCloseTo(1, 6);
    expect(brightnessOf(pixels([0, 255, 0]))).toBeCloseTo(0.7152, 4);
    expect(brightnessOf(pixels([0, 0, 0], [255, 255, 255]))).toBeCloseTo(0.5, 6);
    expect(brightnessOf(new Uint8ClampedArray())).toBe(0);
  });

  it('a dim room is dark, a lit one is not', () => {
    expect(brightnessOf(pixels([30, 30, 30]))).toBeLessThan(DARK_BRIGHTNESS);
    expect(brightnessOf(pixels([120, 110, 100]))).toBeGreaterThan(DARK_BRIGHTNESS);
  });

  it('loudness: silence 0, a full-scale square wave 1, clamped', () => {
    expect(loudnessOf(new Float32Array(128))).toBe(0);
    expect(loudnessOf(Float32Array.from({ length: 128 }, (_, i) => (i % 2 ? 1 : -1)))).toBeCloseTo(1, 6);
    expect(loudnessOf(Float32Array.from({ length: 128 }, () => 3))).toBe(1);
    expect(loudnessOf(new Float32Array())).toBe(0);
    const hiss = Float32Array.from({ length: 1024 }, (_, i) => 0.001 * Math.sin(i));
    expect(loudnessOf(hiss)).toBeLessThan(QUIET_LOUDNESS);
    const voice = Float32Array.from({ length: 1024 }, (_, i) => 0.2 * Math.sin(i / 3));
    expect(loudnessOf(voice)).toBeGreaterThan(QUIET_LOUDNESS);
  });
});
