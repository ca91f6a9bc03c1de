/**
 * Fixed-window attempt counters, e.g. login attempts per account and per address. In memory: one
 * process serves the demo; a cluster would keep these in a shared store.
 */
export interface AttemptLimiter {
  /** Counts an attempt for every key; answers the seconds to wait when any key is over its limit. */
  hit(
    keys: { key: string; max: number }[],
    now?: number,
  ): { allowed: true } | { allowed: false; retryAfterSeconds: number };
}

export function createAttemptLimiter(windowMs: number, maxKeys = 100_000): AttemptLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    hit(keys, now = Date.now()) {
      if (windows.size > maxKeys) {
        for (const [key, w] of windows) if (now - w.start >= windowMs) windows.delete(key);
      }
      let wait = 0;
      for (const { key, max } of keys) {
        let w = windows.get(key);
        if (!w || now - w.start >= windowMs) {
          w = { start: now, count: 0 };
          windows.set(key, w);
        }
        w.count += 1;
        if (w.count > max) wait = Math.max(wait, Math.ceil((w.start + windowMs - now) / 1000));
      }
      return wait > 0 ? { allowed: false, retryAfterSeconds: wait } : { allowed: true };
    },
  };
}
