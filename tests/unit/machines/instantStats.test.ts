import { describe, expect, it } from 'vitest';
import type { BoardAgent } from '#contract/socket';
import { waitingFiguresOf } from '../../../server/realtime/instantStats';
import {
  agentsByStatus,
  agentsInCall,
  secondsInState,
  waitFigures,
} from '../../../src/machines/instantStats';

const agent = (id: number, status: BoardAgent['status'], call_id: number | null = null): BoardAgent => ({
  id,
  name: `Agent ${id}`,
  status,
  since: '2026-11-22T10:00:00.000Z',
  call_id,
});

describe('instant stats figures', () => {
  it('counts agents by availability and in a call', () => {
    const agents = [agent(1, 'Online', 7), agent(2, 'Online'), agent(3, 'Break'), agent(4, 'Offline')];
    expect(agentsByStatus(agents)).toEqual({ Online: 2, Offline: 1, Break: 1, Meeting: 0, Education: 0 });
    expect(agentsInCall(agents)).toBe(1);
  });

  it('counts the waits up to now', () => {
    const now = Date.parse('2026-11-22T10:05:00.000Z');
    expect(waitFigures(waitingFiguresOf([]), now)).toEqual({ waiting: 0, longest: 0, average: 0 });
    const joined = waitingFiguresOf(['2026-11-22T10:04:00.000Z', '2026-11-22T10:00:00.000Z']);
    expect(joined).toEqual({
      count: 2,
      oldest_since: '2026-11-22T10:00:00.000Z',
      mean_since: '2026-11-22T10:02:00.000Z',
    });
    expect(waitFigures(joined, now)).toEqual({
      waiting: 2,
      longest: 300,
      average: 180,
    });
    expect(secondsInState(agent(1, 'Online'), now)).toBe(300);
    expect(secondsInState({ ...agent(1, 'Online'), since: null }, now)).toBeNull();
  });

  it('gives the same mean of thousands of moments in any order', () => {
    const start = Date.parse('2026-11-22T08:00:00.000Z');
    const moments = Array.from({ length: 5_000 }, (_, i) =>
      new Date(start + ((i * 7919) % 5_000) * 1_003).toISOString(),
    );
    const figures = waitingFiguresOf(moments);
    expect(waitingFiguresOf([...moments].reverse())).toEqual(figures);
    expect(waitingFiguresOf([...moments].sort())).toEqual(figures);
    expect(figures.count).toBe(5_000);
    expect(figures.oldest_since).toBe('2026-11-22T08:00:00.000Z');
    // The offsets are 0 … 4,999 × 1,003 ms: their mean is 2,499.5 × 1,003 ms = 2,506,998.5, rounded to 2,506,999.
    expect(figures.mean_since).toBe(new Date(start + 2_506_999).toISOString());
  });
});
