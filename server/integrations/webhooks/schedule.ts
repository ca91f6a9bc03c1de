/**
 * When to try again (docs/webhooks.md). Attempt n (1-based) failed: the next one waits schedule[n-1]
 * seconds ±20 % jitter, or longer when the receiver asked for it with Retry-After. Past the schedule's end
 * the delivery has failed for good.
 */
export function nextRetryDelayMs(
  schedule: readonly number[],
  attempt: number,
  retryAfterSeconds: number | null,
  random: () => number = Math.random,
): number | null {
  const base = schedule[attempt - 1];
  if (base === undefined) return null;
  const jittered = base * 1000 * (0.8 + 0.4 * random());
  const asked = retryAfterSeconds === null ? 0 : Math.min(retryAfterSeconds, 86_400) * 1000;
  return Math.round(Math.max(jittered, asked));
}

/** Retry-After as seconds: a number, or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Network errors, 408, 429 and 5xx are worth another attempt; other answers are final. */
export function isRetryable(status: number | null): boolean {
  if (status === null) return true;
  return status === 408 || status === 429 || status >= 500;
}
