/**
 * Exact list counts kept for a moment, per company and filter set. Counting 10,000 rows is most of a
 * list request's database time, and a studio pages through the same list again and again. Write paths
 * that add, remove or re-status a company's rows call `invalidate(companyId)`; the short time-to-live is
 * the safety net, so a count is at most `ttlMs` old.
 */
export interface CountCache {
  get(companyId: number, filterKey: string, now?: number): number | undefined;
  set(companyId: number, filterKey: string, count: number, now?: number): void;
  invalidate(companyId: number): void;
}

export function createCountCache(ttlMs: number, maxEntries = 5_000): CountCache {
  const entries = new Map<string, { at: number; count: number }>();
  const keyOf = (companyId: number, filterKey: string) => `${companyId}|${filterKey}`;
  return {
    get(companyId, filterKey, now = Date.now()) {
      if (ttlMs <= 0) return undefined;
      const hit = entries.get(keyOf(companyId, filterKey));
      return hit && now - hit.at < ttlMs ? hit.count : undefined;
    },
    set(companyId, filterKey, count, now = Date.now()) {
      if (ttlMs <= 0) return;
      if (entries.size >= maxEntries) entries.clear();
      entries.set(keyOf(companyId, filterKey), { at: now, count });
    },
    invalidate(companyId) {
      const prefix = `${companyId}|`;
      for (const key of entries.keys()) if (key.startsWith(prefix)) entries.delete(key);
    },
  };
}
