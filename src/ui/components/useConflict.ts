import { useState } from 'react';
import {
  changesMeanwhile,
  conflictCurrent,
  type FieldChange,
  type FieldReaders,
  type Wanted,
} from '../../machines/versionConflict';

/** A versioned write: `again` is true when it re-applies after a conflict. */
export type VersionedWrite = (version: number, again: boolean) => Promise<unknown>;

interface Pending<T> {
  base: T;
  current: T;
  wanted: Wanted;
  write: VersionedWrite;
  onApplied: (result: unknown) => void;
}

/**
 * Runs writes that carry the version the screen holds. A 409 opens the conflict dialog with the
 * comparison of `versionConflict.ts`; "Apply my change again" re-sends against the version there now (and
 * can conflict again), "Discard my change" calls `onDiscarded` (the caller reloads). Other errors reach the
 * caller as they are.
 */
export function useConflict<T extends { version: number }>(
  readers: FieldReaders<T>,
  { onDiscarded, onError }: { onDiscarded: () => void; onError: (error: unknown) => void },
) {
  const [pending, setPending] = useState<Pending<T> | null>(null);
  const [busy, setBusy] = useState(false);

  /** Answers true when the write passed; false when it conflicted (the dialog is open then). */
  const attempt = async (
    base: T,
    wanted: Wanted,
    write: VersionedWrite,
    /** Gets the write's answer: the caller puts the new version in its cache at once. */
    onApplied: (result: unknown) => void,
    again = false,
  ): Promise<boolean> => {
    try {
      const result = await write(base.version, again);
      setPending(null);
      onApplied(result);
      return true;
    } catch (error) {
      const current = conflictCurrent<T>(error);
      if (!current) throw error;
      setPending({ base, current, wanted, write, onApplied });
      return false;
    }
  };

  const changes: FieldChange[] = pending
    ? changesMeanwhile(readers, pending.base, pending.current, pending.wanted)
    : [];

  return {
    attempt,
    /** The write that conflicted, if any (its `current` is what is there now). */
    pending,
    dialog: {
      isOpen: pending !== null,
      changes,
      busy,
      onReapply: () => {
        if (!pending) return;
        setBusy(true);
        // Against what is there now: that becomes the base should it conflict again.
        attempt(pending.current, pending.wanted, pending.write, pending.onApplied, true)
          .catch((error) => {
            setPending(null);
            onError(error);
          })
          .finally(() => setBusy(false));
      },
      onDiscard: () => {
        setPending(null);
        onDiscarded();
      },
      onClose: () => setPending(null),
    },
  };
}
