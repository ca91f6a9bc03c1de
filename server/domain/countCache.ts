/**
 * List counts kept for a moment, per company and filter set. Counting 10,000 rows is most of a list request's
 * database time, and a studio pages through the same list again and again. Write paths that add, remove or
 * re-status a company's rows call `invalidate(companyId)`; the short time-to-live is the safety net, so an exact
 * count is at most `ttlMs` old.
 *
 * An estimated count (past the list's cap: "about N", docs/decisions/0164-keyset-lists.md) is kept `estimatedTtlMs`, a minute: it is the
 * planner's figure from the table's statistics, which change when PostgreSQL analyses the table, not with each
 * write, and finding again that a search passes the cap cost up to 190 ms on PGlite at a million profiles (the
 * trigram index's matches of "Yılmaz"), a stall of every request behind it, every 2 s (docs/decisions/0183-pglite-in-a-thread.md).
 */
export interface CountCache {
  get(companyId: number, filterKey: string, now?: number): number | undefined;
  set(
    companyId: number,
    filterKey: string,
    count: number,
    kept?: { estimated?: boolean; now?: number },
  ): void;
  invalidate(companyId: number): void;
}

export function createCountCache(ttlMs: number, estimatedTtlMs = 60_000, maxEntries = 5_000): CountCache {
  const entries = new Map<string, { until: number; count: number }>();
  const keyOf = (companyId: number, filterKey: string) => `${companyId}|${filterKey}`;
  return {
    get(companyId, filterKey, now = Date.now()) {
      const hit = entries.get(keyOf(companyId, filterKey));
      return hit && now < hit.until ? hit.count : undefined;
    },
    set(companyId, filterKey, count, { estimated = false, now = Date.now() } = {}) {
      if (ttlMs <= 0) return;
      if (entries.size >= maxEntries) entries.clear();
      entries.set(keyOf(companyId, filterKey), {
        until: now + (estimated ? Math.max(ttlMs, estimatedTtlMs) : ttlMs),
        count,
      });
    },
    invalidate(companyId) {
      const prefix = `${companyId}|`;
      for (const key of entries.keys()) if (key.startsWith(prefix)) entries.delete(key);
    },
  };
}
