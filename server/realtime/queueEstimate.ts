/**
 * A waiting customer's expected wait, from where they stand in the queue, the agents who can take
 * them and the company's average handling time.
 * - As many customers as there are agents Online and free are being rung now: they wait for an answer, not
 *   for a call to end (0 s).
 * - Those behind wait for calls to end: each round frees every agent on duty (Online, or in a call), so the
 *   n-th customer past the free agents waits ceil(n / on duty) handling times.
 * - With nobody on duty the estimate is one agent's pace (the first agent to come Online serves the queue in
 *   order), so it still grows with the position.
 */
export function expectedWaitSeconds(options: {
  /** 1 = next. */
  position: number;
  /** Agents Online and not in a call. */
  free: number;
  /** Agents Online or in a call. */
  onDuty: number;
  /** Average seconds a call takes. */
  handlingSeconds: number;
}): number {
  const { position, free, onDuty, handlingSeconds } = options;
  if (position <= free) return 0;
  return Math.ceil((position - free) / Math.max(1, onDuty)) * handlingSeconds;
}
