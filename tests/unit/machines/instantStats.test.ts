import { describe, expect, it } from 'vitest';
import type { BoardAgent } from '#contract/socket';
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
    expect(waitFigures([], now)).toEqual({ waiting: 0, longest: 0, average: 0 });
    expect(waitFigures(['2026-11-22T10:00:00.000Z', '2026-11-22T10:04:00.000Z'], now)).toEqual({
      waiting: 2,
      longest: 300,
      average: 180,
    });
    expect(secondsInState(agent(1, 'Online'), now)).toBe(300);
    expect(secondsInState({ ...agent(1, 'Online'), since: null }, now)).toBeNull();
  });
});
