/**
 * Which free agent is offered a waiting call next (one-at-a-time routing): pure, so it is tested with
 * a seeded random source. Among the candidates who speak the customer's language (all of them when none does,
 * or when the language is not known), those who took the fewest calls in the last hour, one drawn uniformly.
 */

export interface RoutingCandidate {
  id: number;
  /** The languages the agent speaks (AGENT_LANGUAGES). */
  languages: readonly string[];
  /** Calls the agent answered in the last hour. */
  callsLastHour: number;
}

export interface RoutingChoice {
  agentId: number;
  /** False: nobody among the candidates spoke the language (or it is not known), so all of them were eligible. */
  languageMatched: boolean;
  /** How many candidates were eligible after the language rule. */
  candidates: number;
  /** The fewest calls in the last hour among them (the chosen agent's). */
  fewestCalls: number;
}

/** A random number in [0, 1), as Math.random gives. */
export type RandomSource = () => number;

export function chooseAgent(
  candidates: readonly RoutingCandidate[],
  language: string | null,
  random: RandomSource,
): RoutingChoice | null {
  if (candidates.length === 0) return null;
  const speakers = language === null ? [] : candidates.filter((c) => c.languages.includes(language));
  const pool = speakers.length > 0 ? speakers : candidates;
  const fewestCalls = Math.min(...pool.map((c) => c.callsLastHour));
  const fewest = pool.filter((c) => c.callsLastHour === fewestCalls);
  const index = Math.min(fewest.length - 1, Math.floor(random() * fewest.length));
  const chosen = fewest[index] as RoutingCandidate;
  return { agentId: chosen.id, languageMatched: speakers.length > 0, candidates: pool.length, fewestCalls };
}

/**
 * The free agents who may be offered a call next: those not yet offered it in this round. When every free agent
 * had it (each let it lapse), a new round starts with all of them (`newRound`).
 */
export function eligibleThisRound<T extends { id: number }>(
  free: readonly T[],
  hadIt: ReadonlySet<number>,
): { eligible: T[]; newRound: boolean } {
  const fresh = free.filter((agent) => !hadIt.has(agent.id));
  if (fresh.length > 0 || free.length === 0) return { eligible: fresh, newRound: false };
  return { eligible: [...free], newRound: true };
}
