import { AsyncLocalStorage } from 'node:async_hooks';
import type { Db } from '../../db/client';
import type { Claimed, Room } from './fanOut';

/**
 * Deliveries claimed by the transaction that queues their event, handed to this process's worker at its COMMIT.
 * While the worker runs, each `db.transaction` of its database is followed: an enqueue in it asks the worker for
 * room (free slots, held until the transaction ends, so the in-flight limits hold), fans its message out and claims
 * the new deliveries in its own statement, and says what it claimed; once the transaction has committed, the
 * worker starts those attempts with no further trip to the database. A rollback takes the deliveries with it and
 * frees the slots. A process that dies between COMMIT and the attempt leaves the deliveries leased: another pass
 * takes them when the lease ends, so they are late, never lost, and never sent twice (nothing else claims a
 * delivery under lease).
 */
export interface Claimer {
  /** Room for one enqueue's claim now, held until `settle`; null when nothing may be claimed at enqueue. */
  reserve(max: number): Room | null;
  /**
   * A transaction that asked for room ended: its rooms are free again, and (committed) its claimed deliveries are
   * attempted. Not called for one that queued no event: every other write of the process would wake the worker.
   */
  settle(rooms: Room[], committed: Claimed[] | null): void;
}

interface Open {
  tx: unknown;
  claimer: Claimer;
  rooms: Room[];
  claimed: Claimed[];
}

const open = new AsyncLocalStorage<Open>();

/** Follows `db`'s transactions for `claimer` until the returned function is called. */
export function followCommits(db: Db, claimer: Claimer): () => void {
  const target = db as unknown as { transaction: (...args: unknown[]) => Promise<unknown> };
  const original = target.transaction;
  const followed = async (callback: (tx: unknown) => Promise<unknown>, ...rest: unknown[]) => {
    let state: Open | undefined;
    let result: unknown;
    try {
      result = await original.call(
        db,
        (tx: unknown) => {
          state = { tx, claimer, rooms: [], claimed: [] };
          return open.run(state, () => callback(tx));
        },
        ...rest,
      );
    } catch (error) {
      if (state && state.rooms.length > 0) claimer.settle(state.rooms, null);
      throw error;
    }
    if (state && state.rooms.length > 0) claimer.settle(state.rooms, state.claimed);
    return result;
  };
  target.transaction = followed as (...args: unknown[]) => Promise<unknown>;
  return () => {
    if ((target.transaction as unknown) === followed) target.transaction = original;
  };
}

/**
 * Room to claim the deliveries of an event queued in `tx`, when `tx` is a followed transaction itself (not one of
 * its savepoints, whose rollback would leave the claim behind); null otherwise (the worker's pass fans it out).
 */
export function roomIn(tx: unknown, max: number): Room | null {
  const state = open.getStore();
  if (!state || state.tx !== tx) return null;
  const room = state.claimer.reserve(max);
  if (room) state.rooms.push(room);
  return room;
}

/** Says what an enqueue in `tx` claimed: attempted once `tx` has committed. */
export function claimedIn(tx: unknown, rows: Claimed[]): void {
  const state = open.getStore();
  if (state && state.tx === tx) state.claimed.push(...rows);
}
