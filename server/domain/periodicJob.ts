/**
 * A background job of this process: `run` every `everyMs` (0: never), one run at a time, the first after one
 * interval so starting a server stays fast. Its failures go to `onError`; `stop` waits for a run under way.
 */
export function periodicJob(
  run: () => Promise<unknown>,
  everyMs: number,
  onError: (error: unknown) => void,
): { stop(): Promise<void> } {
  if (everyMs <= 0) return { stop: async () => {} };
  let running: Promise<unknown> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = run()
      .catch(onError)
      .finally(() => {
        running = undefined;
      });
  }, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
