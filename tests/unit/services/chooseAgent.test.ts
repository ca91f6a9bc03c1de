/** One-at-a-time routing's choice of the agent: the pure chooser with a seeded random source. */
import { describe, expect, it } from 'vitest';
import {
  chooseAgent,
  eligibleThisRound,
  type RandomSource,
  type RoutingCandidate,
} from '../../../server/realtime/callDesk/chooseAgent';

/** mulberry32: a small seeded generator, so the draws (and the test) are the same on every run. */
function seeded(seed: number): RandomSource {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const agent = (id: number, languages: string[] = [], callsLastHour = 0): RoutingCandidate => ({
  id,
  languages,
  callsLastHour,
});

describe('chooseAgent', () => {
  it('chooses nobody among no candidates', () => {
    expect(chooseAgent([], 'tr', seeded(1))).toBeNull();
  });

  it('keeps to the agents who speak the customer’s language', () => {
    const candidates = [agent(1, ['en-US']), agent(2, ['tr']), agent(3, ['en-US', 'tr']), agent(4)];
    const random = seeded(7);
    const chosen = new Set<number>();
    for (let i = 0; i < 200; i += 1) {
      const choice = chooseAgent(candidates, 'tr', random);
      expect(choice).toMatchObject({ languageMatched: true, candidates: 2 });
      chosen.add(choice?.agentId as number);
    }
    expect([...chosen].sort()).toEqual([2, 3]);
  });

  it('falls back to every candidate when none speaks the language, or it is not known, and says so', () => {
    const candidates = [agent(1, ['en-US']), agent(2, ['en-US'])];
    expect(chooseAgent(candidates, 'tr', seeded(2))).toMatchObject({ languageMatched: false, candidates: 2 });
    expect(chooseAgent(candidates, null, seeded(2))).toMatchObject({ languageMatched: false, candidates: 2 });
  });

  it('the fewest calls in the last hour win, however the draw falls', () => {
    const candidates = [agent(1, [], 3), agent(2, [], 1), agent(3, [], 0), agent(4, [], 2), agent(5, [], 0)];
    const random = seeded(11);
    const counts = new Map<number, number>();
    for (let i = 0; i < 1_000; i += 1) {
      const choice = chooseAgent(candidates, null, random);
      expect(choice?.fewestCalls).toBe(0);
      counts.set(choice?.agentId as number, (counts.get(choice?.agentId as number) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([3, 5]);
    // The language rule comes first: a busier speaker of the language beats an idle agent who does not speak it.
    const speaker = chooseAgent([agent(1, ['tr'], 5), agent(2, [], 0)], 'tr', seeded(3));
    expect(speaker).toMatchObject({ agentId: 1, fewestCalls: 5, languageMatched: true });
    // A draw at the very edge of [0, 1) stays within the candidates.
    expect(chooseAgent([agent(1), agent(2)], null, () => 0.999_999_999_9)?.agentId).toBe(2);
  });

  it('spreads 1,000 offers over 5 equal agents fairly (chi-square below 18.467, p = 0.001, 4 df)', () => {
    const candidates = [1, 2, 3, 4, 5].map((id) => agent(id, ['en-US'], 2));
    const random = seeded(2026);
    const counts = new Map<number, number>(candidates.map((c) => [c.id, 0]));
    const offers = 1_000;
    for (let i = 0; i < offers; i += 1) {
      const choice = chooseAgent(candidates, 'en-US', random);
      counts.set(choice?.agentId as number, (counts.get(choice?.agentId as number) ?? 0) + 1);
    }
    const expected = offers / candidates.length;
    const chiSquare = [...counts.values()].reduce((sum, seen) => sum + (seen - expected) ** 2 / expected, 0);
    expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(offers);
    expect(chiSquare).toBeLessThan(18.467);
    // And the test can fail: always the first agent is far from fair.
    const unfair = [offers, 0, 0, 0, 0].reduce((sum, seen) => sum + (seen - expected) ** 2 / expected, 0);
    expect(unfair).toBeGreaterThan(18.467);
  });
});

describe('eligibleThisRound', () => {
  const free = [agent(1), agent(2), agent(3)];

  it('leaves out the agents who had the call in this round', () => {
    expect(eligibleThisRound(free, new Set([1, 3]))).toEqual({ eligible: [agent(2)], newRound: false });
  });

  it('starts a new round with everyone once every free agent had it', () => {
    expect(eligibleThisRound(free, new Set([1, 2, 3]))).toEqual({ eligible: free, newRound: true });
    expect(eligibleThisRound([], new Set([1]))).toEqual({ eligible: [], newRound: false });
  });
});
