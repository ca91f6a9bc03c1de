import { describe, expect, it } from 'vitest';
import {
  computeOwnership,
  OwnershipError,
  type OwnershipLink,
  type Party,
} from '../../../src/machines/ownership';

const company = (id: string): Party => ({ id, kind: 'company', name: id });
const person = (id: string): Party => ({ id, kind: 'person', name: id });
const link = (owner: string, owned: string, share: number): OwnershipLink => ({ owner, owned, share });
const shares = (result: ReturnType<typeof computeOwnership>) =>
  Object.fromEntries(result.owners.map((o) => [o.party.id, { effective: o.effective, ubo: o.ubo }]));

function failure(run: () => unknown): OwnershipError {
  try {
    run();
  } catch (error) {
    if (error instanceof OwnershipError) return error;
    throw error;
  }
  throw new Error('expected an OwnershipError');
}

describe('ownership: direct owners', () => {
  it('marks persons above 25 % as UBOs and leaves the unlisted rest visible', () => {
    const result = computeOwnership(
      'E',
      [company('E'), person('ann'), person('bob'), person('cem')],
      [link('ann', 'E', 60), link('bob', 'E', 25), link('cem', 'E', 10)],
    );
    expect(shares(result)).toEqual({
      ann: { effective: 60, ubo: true },
      bob: { effective: 25, ubo: false },
      cem: { effective: 10, ubo: false },
    });
    expect(result.tree.unlisted).toBe(5);
    expect(result.owners.map((o) => o.party.id)).toEqual(['ann', 'bob', 'cem']);
  });

  it('takes another threshold', () => {
    const result = computeOwnership(
      'E',
      [company('E'), person('bob'), person('cem')],
      [link('bob', 'E', 25), link('cem', 'E', 10)],
      10,
    );
    expect(shares(result)).toEqual({
      bob: { effective: 25, ubo: true },
      cem: { effective: 10, ubo: false },
    });
  });
});

describe('ownership: chains through intermediate companies', () => {
  it('multiplies shares along a chain', () => {
    // dan owns 80 % of H1, which owns 50 % of H2, which owns 75 % of E: 30 %.
    const result = computeOwnership(
      'E',
      [company('E'), company('H1'), company('H2'), person('dan')],
      [link('H2', 'E', 75), link('H1', 'H2', 50), link('dan', 'H1', 80)],
    );
    expect(shares(result)).toEqual({ dan: { effective: 30, ubo: true } });
    expect(result.owners[0]?.layers).toBe(2);
    const h2 = result.tree.owners[0];
    expect(h2?.party.id).toBe('H2');
    expect(h2?.effective).toBe(75);
    expect(h2?.owners[0]?.effective).toBe(37.5);
    expect(h2?.owners[0]?.owners[0]).toMatchObject({ direct: 80, effective: 30, ubo: true });
  });

  it('adds up every path of the same person, and marks each of its nodes', () => {
    // eve holds 15 % directly and 40 % of H, which holds 30 % of E: 15 + 12 = 27 %.
    const result = computeOwnership(
      'E',
      [company('E'), company('H'), person('eve'), person('fay')],
      [link('eve', 'E', 15), link('H', 'E', 30), link('eve', 'H', 40), link('fay', 'H', 60)],
    );
    expect(shares(result)).toEqual({
      eve: { effective: 27, ubo: true },
      fay: { effective: 18, ubo: false },
    });
    expect(result.owners.find((o) => o.party.id === 'eve')?.paths).toBe(2);
    const eveNodes = [result.tree.owners[0], result.tree.owners[1]?.owners[0]];
    expect(eveNodes.map((node) => [node?.party.id, node?.effective, node?.ubo])).toEqual([
      ['eve', 15, true],
      ['eve', 12, true],
    ]);
  });

  it('lets no one reach the threshold through a diluted chain', () => {
    const result = computeOwnership(
      'E',
      [company('E'), company('H'), person('gul')],
      [link('H', 'E', 50), link('gul', 'H', 50)],
    );
    expect(shares(result)).toEqual({ gul: { effective: 25, ubo: false } });
  });
});

describe('ownership: refused data', () => {
  it('refuses a cycle and names it', () => {
    const error = failure(() =>
      computeOwnership(
        'E',
        [company('E'), company('A'), company('B'), person('hal')],
        [link('A', 'E', 50), link('B', 'A', 50), link('A', 'B', 50), link('hal', 'B', 50)],
      ),
    );
    expect(error.problem).toBe('cycle');
    expect(error.parties).toEqual(['A', 'B', 'A']);
  });

  it('refuses an entity that owns itself through others', () => {
    const error = failure(() =>
      computeOwnership('E', [company('E'), company('A')], [link('A', 'E', 40), link('E', 'A', 100)]),
    );
    expect(error.problem).toBe('cycle');
    expect(error.parties).toEqual(['E', 'A', 'E']);
  });

  it('refuses shares outside 0–100 % or with more than two decimals', () => {
    const parties = [company('E'), person('ian')];
    for (const share of [0, -5, 100.01, 12.345, Number.NaN]) {
      expect(failure(() => computeOwnership('E', parties, [link('ian', 'E', share)])).problem).toBe(
        'badShare',
      );
    }
  });

  it('refuses owners holding more than 100 % of one company together', () => {
    const error = failure(() =>
      computeOwnership(
        'E',
        [company('E'), person('a'), person('b')],
        [link('a', 'E', 60), link('b', 'E', 40.01)],
      ),
    );
    expect(error.problem).toBe('overAllocated');
  });

  it('refuses unknown parties and owned persons', () => {
    expect(failure(() => computeOwnership('X', [company('E')], [])).problem).toBe('unknownParty');
    expect(failure(() => computeOwnership('E', [company('E')], [link('ghost', 'E', 10)])).problem).toBe(
      'unknownParty',
    );
    expect(
      failure(() => computeOwnership('E', [company('E'), person('p'), person('q')], [link('q', 'p', 10)]))
        .problem,
    ).toBe('personOwned');
  });
});

describe('ownership: rounding', () => {
  it('is exact where floating point is not (0.1 × 0.3)', () => {
    const result = computeOwnership(
      'E',
      [company('E'), company('H'), person('jo')],
      [link('H', 'E', 10), link('jo', 'H', 30)],
    );
    expect(result.owners[0]?.effective).toBe(3);
  });

  it('rounds shown values half up to two decimals', () => {
    // 33.33 % of 33.33 % = 11.108889 % → 11.11; 50 % of 0.01 % = 0.005 % → 0.01.
    const result = computeOwnership(
      'E',
      [company('E'), company('H'), company('T'), person('kim'), person('lee')],
      [link('H', 'E', 33.33), link('kim', 'H', 33.33), link('T', 'E', 0.01), link('lee', 'T', 50)],
    );
    expect(shares(result)).toEqual({
      kim: { effective: 11.11, ubo: false },
      lee: { effective: 0.01, ubo: false },
    });
  });

  it('decides the UBO mark on the exact value, not the rounded one', () => {
    // 60 % of 41.67 % = 25.002 %: shown as 25 %, but above the threshold.
    const result = computeOwnership(
      'E',
      [company('E'), company('H'), person('max')],
      [link('H', 'E', 41.67), link('max', 'H', 60)],
    );
    expect(shares(result)).toEqual({ max: { effective: 25, ubo: true } });
  });

  it('keeps three levels of decimals exact', () => {
    // 12.5 % × 80 % × 50 % × 100 % = 5 %.
    const result = computeOwnership(
      'E',
      [company('E'), company('A'), company('B'), company('C'), person('ned')],
      [link('A', 'E', 12.5), link('B', 'A', 80), link('C', 'B', 50), link('ned', 'C', 100)],
    );
    expect(result.owners[0]).toMatchObject({ effective: 5, layers: 3, paths: 1 });
  });
});
