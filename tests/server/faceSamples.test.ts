/**
 * The sample faces the face-match threshold is calibrated on: the photos told to be of one person by eye are
 * also the model's closest, so a "same person" pair in the benchmark really is one person.
 */
import { describe, expect, it } from 'vitest';
import { createHumanFaceMatcher } from '../../server/integrations/faceMatch';
import { personOf, SAMPLE_FACES, sampleFacePhoto } from '../../server/integrations/faceSamples';

describe('the sample faces (real model)', () => {
  it('each person photographed more than once is closer to their own photos than to anybody else', async () => {
    const matcher = createHumanFaceMatcher({ minSimilarity: 0.62 });
    const same: Record<string, number[]> = {};
    const others: Record<string, number[]> = {};
    for (const [i, a] of SAMPLE_FACES.entries())
      for (const b of SAMPLE_FACES.slice(i + 1)) {
        const result = await matcher.compare(sampleFacePhoto(a), sampleFacePhoto(b));
        expect(result.outcome).not.toBe('unavailable');
        const similarity = result.outcome === 'unavailable' ? null : result.similarity;
        expect(similarity, `${a} ↔ ${b}`).not.toBeNull();
        for (const face of [a, b]) {
          const list = personOf(a) === personOf(b) ? same : others;
          list[personOf(face)] = [...(list[personOf(face)] ?? []), similarity ?? 0];
        }
      }
    const photographedTwice = Object.keys(same);
    expect(photographedTwice.sort()).toEqual(['a', 'b', 'd']);
    for (const person of photographedTwice)
      expect(Math.min(...(same[person] ?? [])), person).toBeGreaterThan(Math.max(...(others[person] ?? [])));
  }, 180_000);
});
