import { describe, expect, it } from 'vitest';
import { createHumanFaceMatcher, unavailableFaceMatcher } from '../../server/integrations/faceMatch';
import { sampleFacePhoto } from '../../server/integrations/faceSamples';
import { parsePhoto } from '../../server/integrations/images';

/** The real engine: @vladmandic/human's bundled models on the WASM backend, in this process. */
describe('createHumanFaceMatcher (real model)', () => {
  const matcher = createHumanFaceMatcher({ minSimilarity: 0.7 });

  it('matches two different photos of the same person', async () => {
    const result = await matcher.compare(sampleFacePhoto('a1'), sampleFacePhoto('a2'));
    expect(result.outcome).toBe('match');
  }, 60_000);

  it('does not match different people', async () => {
    for (const other of ['b', 'c'] as const) {
      const result = await matcher.compare(sampleFacePhoto('a1'), sampleFacePhoto(other));
      expect(result.outcome).toBe('no_match');
    }
    const result = await matcher.compare(sampleFacePhoto('b'), sampleFacePhoto('c'));
    expect(result.outcome).toBe('no_match');
  }, 60_000);

  it('does not match a picture without a face', async () => {
    // A plain grey JPEG: no face, so never a match.
    const grey = sampleFacePhoto('a1');
    const { PNG } = await import('pngjs');
    const png = new PNG({ width: 64, height: 64 });
    png.data.fill(128);
    const result = await matcher.compare(grey, PNG.sync.write(png));
    // The answer names the picture without a face, so the agent knows which screenshot to take again.
    expect(result).toEqual({ outcome: 'no_match', similarity: null, noFaceIn: 'probe' });
  }, 60_000);

  it('answers unavailable when switched off', async () => {
    const result = await unavailableFaceMatcher().compare(sampleFacePhoto('a1'), sampleFacePhoto('a1'));
    expect(result.outcome).toBe('unavailable');
  });
});

describe('parsePhoto', () => {
  it('accepts JPEG and PNG data URLs and bare base64 by their first bytes', () => {
    const jpeg = sampleFacePhoto('a1');
    expect(parsePhoto(`data:image/jpeg;base64,${jpeg.toString('base64')}`)?.kind).toBe('jpeg');
    expect(parsePhoto(jpeg.toString('base64'))?.kind).toBe('jpeg');
    // The declared type does not matter, the bytes do.
    expect(parsePhoto(`data:image/png;base64,${jpeg.toString('base64')}`)?.kind).toBe('jpeg');
  });

  it('refuses other bytes, broken base64 and more than 5 MB', () => {
    expect(parsePhoto(`data:image/jpeg;base64,${Buffer.from('GIF89a....').toString('base64')}`)).toBeNull();
    expect(parsePhoto('data:image/jpeg;base64,@@@')).toBeNull();
    const big = Buffer.alloc(5 * 1024 * 1024 + 10);
    big.set([0xff, 0xd8, 0xff]);
    expect(parsePhoto(big.toString('base64'))).toBeNull();
  });
});
