import type { Change, Changes } from '../../server/db/changes';

/** A database's changes (server/db/changes.ts) told by hand. */
export function fakeChanges() {
  let listener: ((change: Change) => void) | null = null;
  const changes: Changes = {
    listen: async (l) => {
      listener = l;
      return async () => {
        listener = null;
      };
    },
  };
  return { changes, tell: (change: Change) => listener?.(change), listening: () => listener !== null };
}
