import type { PGlite } from '@electric-sql/pglite';

/** The channel of migration 0037: a company's report figures changed (its id), or every company's ('*'). */
export const ROLLUPS_CHANGED = 'rollups_changed';

/** A company whose figures changed, or null for every company. */
export type RollupChange = number | null;

/** The companies whose report figures changed, as the database tells them at commit (record 0173). */
export interface RollupChanges {
  /** Calls `listener` for each change from now on; resolves to the way to stop. */
  listen(listener: (change: RollupChange) => void): Promise<() => Promise<void>>;
}

/** A notification's payload as a change: anything but a company id means every company. */
export function changeOf(payload: string): RollupChange {
  return /^[1-9][0-9]{0,9}$/.test(payload) ? Number(payload) : null;
}

/**
 * PGlite's: one session, so this process sees every write, and its notifications reach the listener in a
 * microtask queued while the COMMIT's answer is read, before the writer's own await goes on.
 */
export function pgliteRollupChanges(client: PGlite): RollupChanges {
  return { listen: (listener) => client.listen(ROLLUPS_CHANGED, (payload) => listener(changeOf(payload))) };
}
