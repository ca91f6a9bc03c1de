/**
 * Runs each key's work at most once per `everyMs`: at once (the next tick) when its last run is that
 * old, else when that time is up. Requests in between share the run that is due, so a burst of a thousand
 * changes costs one run per period, and a lone change is not delayed.
 */
export interface Pacer {
  request(key: number, run: () => void): void;
  close(): void;
}

export function createPacer(everyMs: number): Pacer {
  /** Keys with a run due: key → calls it off. */
  const due = new Map<number, () => void>();
  const ranAt = new Map<number, number>();
  return {
    request(key, run) {
      if (due.has(key)) return;
      const go = () => {
        due.delete(key);
        ranAt.set(key, Date.now());
        run();
      };
      const wait = (ranAt.get(key) ?? Number.NEGATIVE_INFINITY) + everyMs - Date.now();
      if (wait > 0) {
        const timer = setTimeout(go, wait);
        due.set(key, () => clearTimeout(timer));
      } else {
        const immediate = setImmediate(go);
        due.set(key, () => clearImmediate(immediate));
      }
    },
    close() {
      for (const callOff of due.values()) callOff();
      due.clear();
    },
  };
}
