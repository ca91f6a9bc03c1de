/**
 * Figures of the instant stats computed from what the server pushes: agents by availability, who
 * is in a call, and the waits, counted up to `now` so they move every second between pushes.
 */
import { AGENT_STATUSES, type AgentStatusName } from '#contract/constants';
import type { BoardAgent, WaitingFigures } from '#contract/socket';

export function agentsByStatus(agents: readonly BoardAgent[]): Record<AgentStatusName, number> {
  const counts = Object.fromEntries(AGENT_STATUSES.map((s) => [s, 0])) as Record<AgentStatusName, number>;
  for (const agent of agents) counts[agent.status] += 1;
  return counts;
}

export const agentsInCall = (agents: readonly BoardAgent[]) =>
  agents.filter((a) => a.call_id !== null).length;

export interface WaitFigures {
  waiting: number;
  /** Seconds; 0 when nobody waits. */
  longest: number;
  average: number;
}

export function waitFigures(waiting: WaitingFigures, now: number): WaitFigures {
  const secondsSince = (moment: string | null) =>
    moment === null ? 0 : Math.max(0, (now - Date.parse(moment)) / 1000);
  if (waiting.count === 0) return { waiting: 0, longest: 0, average: 0 };
  return {
    waiting: waiting.count,
    longest: secondsSince(waiting.oldest_since),
    average: secondsSince(waiting.mean_since),
  };
}

/** Seconds an agent has been in their status, or null when not known. */
export const secondsInState = (agent: BoardAgent, now: number): number | null =>
  agent.since ? Math.max(0, (now - Date.parse(agent.since)) / 1000) : null;
