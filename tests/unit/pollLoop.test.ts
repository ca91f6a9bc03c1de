/**
 * The workers' poll loop: a kick is never lost, whether it comes while a pass takes work, while the pass looks up
 * the next due work, or while a pass that filled every slot runs; a full pass left alone schedules nothing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createPollLoop } from '../../server/integrations/pollLoop';
import { deferred } from '../support/deferred';

/** A promise and the way to settle it. */
/** A loop whose passes and looks wait until the test lets them end; `passes` counts the passes begun. */
function controlledLoop() {
  const passEnds: ReturnType<typeof deferred<boolean>>[] = [];
  const lookEnds: ReturnType<typeof deferred<number>>[] = [];
  const loop = createPollLoop({
    pass: () => {
      const end = deferred<boolean>();
      passEnds.push(end);
      return end.promise;
    },
    nextDueInMs: () => {
      const end = deferred<number>();
      lookEnds.push(end);
      return end.promise;
    },
    fallbackMs: 3_600_000,
    onError: (error) => {
      throw error;
    },
  });
  /** Stops the loop, letting whatever still waits end first. */
  const stop = async () => {
    const stopping = loop.stop();
    for (const end of passEnds) end.resolve(true);
    for (const end of lookEnds) end.resolve(0);
    await stopping;
  };
  return { loop, passEnds, lookEnds, stop };
}

describe('the poll loop', () => {
  let running: ReturnType<typeof controlledLoop> | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await running?.stop();
    running = undefined;
  });
  /** A loop started for the test (stopped after it). */
  const started = () => {
    running = controlledLoop();
    running.loop.start();
    return running;
  };

  it('runs another pass at once for a kick that came while the pass looked up the next due work', async () => {
    vi.useFakeTimers();
    const { loop, passEnds, lookEnds } = started();
    await vi.advanceTimersByTimeAsync(0);
    expect(passEnds).toHaveLength(1);
    passEnds[0]?.resolve(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(lookEnds).toHaveLength(1);
    // Work is queued after the look read the table: its answer (nothing due for an hour) is already old.
    loop.kick();
    lookEnds[0]?.resolve(3_600_000);
    await vi.advanceTimersByTimeAsync(0);
    expect(passEnds).toHaveLength(2);
  });

  it('runs another pass for a kick that came while a pass filled every slot', async () => {
    vi.useFakeTimers();
    const { loop, passEnds, lookEnds } = started();
    await vi.advanceTimersByTimeAsync(0);
    loop.kick();
    passEnds[0]?.resolve(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(passEnds).toHaveLength(2);
    expect(lookEnds).toHaveLength(0);
  });

  it('schedules nothing after a full pass left alone, and passes again at the next kick', async () => {
    vi.useFakeTimers();
    const { loop, passEnds, lookEnds } = started();
    await vi.advanceTimersByTimeAsync(0);
    passEnds[0]?.resolve(true);
    await vi.advanceTimersByTimeAsync(7_200_000);
    expect(passEnds).toHaveLength(1);
    expect(lookEnds).toHaveLength(0);
    loop.kick();
    await vi.advanceTimersByTimeAsync(0);
    expect(passEnds).toHaveLength(2);
  });

  it('waits for the next due work when no kick came', async () => {
    vi.useFakeTimers();
    const { passEnds, lookEnds } = started();
    await vi.advanceTimersByTimeAsync(0);
    passEnds[0]?.resolve(false);
    await vi.advanceTimersByTimeAsync(0);
    lookEnds[0]?.resolve(5_000);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(passEnds).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(passEnds).toHaveLength(2);
  });

  it('stops after the pass under way, its look included', async () => {
    const { loop, passEnds, lookEnds } = started();
    await vi.waitFor(() => expect(passEnds).toHaveLength(1));
    passEnds[0]?.resolve(false);
    await vi.waitFor(() => expect(lookEnds).toHaveLength(1));
    let stopped = false;
    const stopping = loop.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stopped).toBe(false);
    lookEnds[0]?.resolve(0);
    await stopping;
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(passEnds).toHaveLength(1);
  });
});
