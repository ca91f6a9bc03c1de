import { describe, expect, it } from 'vitest';
import { tallestBar, valueAxis } from '../../../src/machines/chartAxis';

describe('the value axis of the statistics charts (bars never touch the top)', () => {
  it.each([
    [0, 1],
    [1, 2],
    [4, 5],
    [5, 6],
    [9, 10],
    [10, 15],
    [18, 20],
    [20, 25],
    [37, 50],
    [100, 125],
    [1234, 1500],
  ])('bars up to %i: the axis ends at %i, a round number above the tallest bar', (tallest, top) => {
    const axis = valueAxis(tallest);
    expect(axis.top).toBe(top);
    expect(axis.top).toBeGreaterThan(tallest);
    expect(axis.ticks.at(-1)).toBe(axis.top);
    expect(axis.ticks[0]).toBe(0);
    expect(axis.ticks.every((tick) => Number.isInteger(tick))).toBe(true);
  });

  it('the tallest bar is the sum of a stacked row, the largest value of a grouped one', () => {
    const rows = [
      { period: '2026-01', approved: 4, rejected: 3 },
      { period: '2026-02', approved: 5, rejected: 0 },
    ];
    expect(tallestBar(rows, ['approved', 'rejected'], true)).toBe(7);
    expect(tallestBar(rows, ['approved', 'rejected'], false)).toBe(5);
    expect(tallestBar([], ['approved'], false)).toBe(0);
  });
});
