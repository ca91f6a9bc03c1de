import { describe, expect, it } from 'vitest';
import { expectedWaitSeconds } from '../../../server/realtime/queueEstimate';

const wait = (position: number, free: number, onDuty: number) =>
  expectedWaitSeconds({ position, free, onDuty, handlingSeconds: 300 });

describe('a waiting customer’s expected wait', () => {
  it('is nothing for the customers the free Online agents are being rung for', () => {
    expect(wait(1, 1, 1)).toBe(0);
    expect(wait(2, 2, 3)).toBe(0);
  });

  it('counts the calls to end for those behind, shared by every agent on duty', () => {
    // Two Online agents, both in a call: the first two customers wait one call, the next two a second.
    expect([1, 2, 3, 4].map((p) => wait(p, 0, 2))).toEqual([300, 300, 600, 600]);
    // One free agent of three on duty: the second customer waits one call.
    expect(wait(2, 1, 3)).toBe(300);
    expect(wait(5, 1, 3)).toBe(600);
  });

  it('grows with the position at one agent’s pace when nobody is on duty', () => {
    expect([1, 2, 3].map((p) => wait(p, 0, 0))).toEqual([300, 600, 900]);
  });
});
