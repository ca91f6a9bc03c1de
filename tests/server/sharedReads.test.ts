import { describe, expect, it } from 'vitest';
import { createSharedReads } from '../../server/domain/sharedReads';

/** A read that runs until `finish` is called, counting its runs. */
function slowRead<T>() {
  let runs = 0;
  let finish: (value: T) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const read = () => {
    runs += 1;
    return new Promise<T>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
  };
  return { read, runs: () => runs, finish: (v: T) => finish(v), fail: (e: Error) => fail(e) };
}

describe('createSharedReads', () => {
  it('answers the same read asked for while it runs from that run, and runs it again once it has settled', async () => {
    const shared = createSharedReads<number>();
    const slow = slowRead<number>();
    const first = shared('a', slow.read);
    const second = shared('a', slow.read);
    expect(slow.runs()).toBe(1);
    slow.finish(42);
    expect(await Promise.all([first, second])).toEqual([42, 42]);
    const third = shared('a', slow.read);
    expect(slow.runs()).toBe(2);
    slow.finish(43);
    expect(await third).toBe(43);
  });

  it('runs other keys on their own', async () => {
    const shared = createSharedReads<string>();
    const a = slowRead<string>();
    const b = slowRead<string>();
    const first = shared('a', a.read);
    const other = shared('b', b.read);
    a.finish('A');
    b.finish('B');
    expect(await Promise.all([first, other])).toEqual(['A', 'B']);
  });

  it('shares a failure with the callers waiting for it, then forgets it', async () => {
    const shared = createSharedReads<number>();
    const slow = slowRead<number>();
    const first = shared('a', slow.read);
    const second = shared('a', slow.read);
    slow.fail(new Error('the database went away'));
    await expect(first).rejects.toThrow('went away');
    await expect(second).rejects.toThrow('went away');
    const again = shared('a', slow.read);
    expect(slow.runs()).toBe(2);
    slow.finish(7);
    expect(await again).toBe(7);
  });
});
