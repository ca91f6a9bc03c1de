/**
 * The channels on which the database says, at commit, what changed (migrations 0037 and 0038): the payload is
 * the id of what changed, or '*' for everything.
 * - `rollups_changed`: a company's report figures (its id, docs/decisions/0173-reports-kept-until-they-change.md);
 * - `principals_changed`: what a user may do (their id: role, flags, state, groups; '*' when a group's
 *   permissions changed; docs/decisions/0179-principals-kept-until-they-change.md).
 */
export const ROLLUPS_CHANGED = 'rollups_changed';
export const PRINCIPALS_CHANGED = 'principals_changed';
/** Webhook messages were queued (payload '*'): the delivery workers wake (migration 0048). */
export const WEBHOOKS_QUEUED = 'webhooks_queued';

/** The id of what changed (a company, a user), or null for everything. */
export type Change = number | null;

/** What changed, as the database tells it at commit. */
export interface Changes {
  /**
   * Calls `listener` for each change from now on; resolves to the way to stop. `blind(true)` says that changes
   * may go untold from now on (the connection that hears them is down), `blind(false)` that they are heard again;
   * what changed in between is not known.
   */
  listen(
    listener: (change: Change) => void,
    blind?: (isBlind: boolean) => void,
  ): Promise<() => Promise<void>>;
}

/** A notification's payload as a change: anything but an id means everything. */
export function changeOf(payload: string): Change {
  return /^[1-9][0-9]{0,9}$/.test(payload) ? Number(payload) : null;
}

/** A PGlite, in process or in its thread (pgliteRemote.ts): what tells its notifications. */
export interface Listening {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

/**
 * PGlite's: one session, so this process sees every write, and its notifications reach the listener in a
 * microtask queued while the COMMIT's answer is read (from the database thread: in a message posted before the
 * COMMIT's reply), before the writer's own await goes on. It is never blind.
 */
export function pgliteChanges(client: Listening, channel: string): Changes {
  return { listen: (listener) => client.listen(channel, (payload) => listener(changeOf(payload))) };
}
