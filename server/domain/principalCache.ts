import type { DbOrTx } from '../db/client';
import { loadPrincipal, type Principal } from './principal';

/**
 * Principals of recent requests, kept for a few seconds so a burst of requests does not reload the
 * user and groups each time. Changes to a user (later write paths) call `forget(userId)`; otherwise a
 * change (disable, role) reaches running sessions within `ttlMs`.
 */
export interface PrincipalCache {
  get(db: DbOrTx, userId: number): Promise<Principal | null>;
  forget(userId: number): void;
}

export function createPrincipalCache(ttlMs: number, maxEntries = 1000): PrincipalCache {
  const entries = new Map<number, { at: number; value: Promise<Principal | null> }>();
  return {
    get(db, userId) {
      const now = Date.now();
      const hit = entries.get(userId);
      if (hit && now - hit.at < ttlMs) return hit.value;
      if (entries.size >= maxEntries) entries.clear();
      const value = loadPrincipal(db, userId);
      entries.set(userId, { at: now, value });
      value.catch(() => entries.delete(userId));
      return value;
    },
    forget(userId) {
      entries.delete(userId);
    },
  };
}
