/**
 * The loop of a database-backed worker (webhook deliveries, mail): one pass at a time; a kick while a pass runs
 * (its look for the next due work included) runs another right after it, so no kick is ever lost; otherwise the
 * next pass waits until the next due work (at most the poll interval). A pass that answers `full` (every slot
 * taken) schedules nothing: its worker kicks the loop as slots come free.
 */
export interface PollLoop {
  start(): void;
  /** Stops scheduling and waits for the pass under way. */
  stop(): Promise<void>;
  /** Look for work now. */
  kick(): void;
}

export function createPollLoop(options: {
  /** One pass; true when it could take no more work. */
  pass: () => Promise<boolean>;
  /** Milliseconds until the next due work (the poll interval when none); a failure waits `fallbackMs`. */
  nextDueInMs: () => Promise<number>;
  fallbackMs: number;
  onError: (error: unknown) => void;
}): PollLoop {
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> | undefined;
  let again = false;

  function schedule(delayMs: number) {
    if (!running) return;
    clearTimeout(timer);
    timer = setTimeout(loop, delayMs);
    timer.unref?.();
  }

  function loop() {
    if (!running) return;
    if (pass) {
      again = true;
      return;
    }
    pass = (async () => {
      let full = false;
      try {
        full = await options.pass();
      } catch (error) {
        if (running) options.onError(error);
      }
      // The look for the next due work belongs to the pass: a kick during it (work queued after the look read
      // the table) runs another pass rather than being overwritten by the look's older answer.
      const wait =
        full || again || !running ? 0 : await options.nextDueInMs().catch(() => options.fallbackMs);
      pass = undefined;
      if (again) {
        again = false;
        schedule(0);
      } else if (!full) {
        schedule(wait);
      }
    })();
  }

  return {
    start() {
      if (running) return;
      running = true;
      schedule(0);
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await pass;
    },
    kick() {
      if (!running) return;
      if (pass) again = true;
      else schedule(0);
    },
  };
}

/** The attempts a worker has started and not yet finished. */
export interface Attempts {
  readonly size: number;
  /** Starts `attempt` (its failure goes to `onError`); as it ends, `ended` runs and the loop is kicked. */
  start(attempt: () => Promise<unknown>, ended?: () => void): void;
  /** Runs one pass and waits for every attempt in flight; answers how many attempts the pass started. */
  runOnce(pass: () => Promise<unknown>): Promise<number>;
  /** Waits for the attempts in flight (stopping). */
  settled(): Promise<void>;
}

export function createAttempts(onError: (error: unknown) => void, kick: () => void): Attempts {
  const running = new Set<Promise<unknown>>();
  const settled = async () => {
    await Promise.all([...running]);
  };
  return {
    get size() {
      return running.size;
    },
    start(attempt, ended) {
      const done: Promise<unknown> = attempt()
        .catch(onError)
        .finally(() => {
          ended?.();
          running.delete(done);
          kick();
        });
      running.add(done);
    },
    async runOnce(pass) {
      const before = running.size;
      await pass();
      const started = running.size - before;
      await settled();
      return started;
    },
    settled,
  };
}
