/**
 * The worker follows its process's transactions only for what they queue: a transaction that asked for room
 * hands it back (and its claims, once committed); any other write asks nothing of the worker, so the webhook
 * worker makes no pass for a write that queued no event.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Db } from '../../server/db/client';
import type { Room } from '../../server/integrations/webhooks/fanOut';
import { claimedIn, followCommits, roomIn } from '../../server/integrations/webhooks/handoff';

const ROOM: Room = { slots: 2, lease: '2026-12-07T00:00:00.000Z', skip: [] };

/** A database whose transactions run their callback with a transaction object of their own. */
function fakeDb() {
  return {
    transaction: async <T>(callback: (tx: object) => Promise<T>) => callback({}),
  } as unknown as Db & { transaction<T>(callback: (tx: object) => Promise<T>): Promise<T> };
}

function follow() {
  const db = fakeDb();
  const claimer = { reserve: vi.fn(() => ROOM), settle: vi.fn() };
  const stop = followCommits(db, claimer);
  return { db, claimer, stop };
}

describe('following transactions for their webhook claims', () => {
  it('asks nothing of the worker for a transaction that queued no event', async () => {
    const { db, claimer, stop } = follow();
    await db.transaction(async () => 'a write of something else');
    await expect(
      db.transaction(async () => {
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(claimer.settle).not.toHaveBeenCalled();
    stop();
  });

  it('hands back the room of a transaction that asked for it, with its claims once it committed', async () => {
    const { db, claimer, stop } = follow();
    const claimed = [{ id: 5 }] as unknown as Parameters<typeof claimedIn>[1];
    await db.transaction(async (tx) => {
      expect(roomIn(tx, 2)).toBe(ROOM);
      claimedIn(tx, claimed);
    });
    expect(claimer.settle).toHaveBeenCalledWith([ROOM], claimed);

    await expect(
      db.transaction(async (tx) => {
        roomIn(tx, 1);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(claimer.settle).toHaveBeenLastCalledWith([ROOM], null);
    stop();
  });
});
