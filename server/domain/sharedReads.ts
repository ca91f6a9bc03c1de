/**
 * Identical reads in flight share one answer (issue 31): a caller whose read is already running gets that
 * run's promise instead of running it again. Fifty staff screens asking for the same report at once cost one
 * query, and each answer is as fresh as a read that started when the first one did: nothing is kept once the
 * read settles (a failure too is shared, then forgotten).
 */
export function createSharedReads<T>(): (key: string, read: () => Promise<T>) => Promise<T> {
  const running = new Map<string, Promise<T>>();
  return (key, read) => {
    const current = running.get(key);
    if (current) return current;
    const started = read().finally(() => running.delete(key));
    running.set(key, started);
    return started;
  };
}
