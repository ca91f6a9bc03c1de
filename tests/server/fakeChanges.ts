import type { Change, Changes } from '../../server/db/changes';

/** A database's changes (server/db/changes.ts) told by hand, and its blindness (a listening connection down). */
export function fakeChanges() {
  let listener: ((change: Change) => void) | null = null;
  let blindness: ((isBlind: boolean) => void) | undefined;
  const changes: Changes = {
    listen: async (l, b) => {
      listener = l;
      blindness = b;
      return async () => {
        listener = null;
        blindness = undefined;
      };
    },
  };
  return {
    changes,
    tell: (change: Change) => listener?.(change),
    blind: (isBlind: boolean) => blindness?.(isBlind),
    listening: () => listener !== null,
  };
}
