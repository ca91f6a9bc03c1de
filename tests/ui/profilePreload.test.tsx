import { renderHook } from '@testing-library/react';
import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { preloadRoute } from '../../src/ui/app/preload';
import { IDLE_PRELOAD_TIMEOUT_MS, useProfilePreload } from '../../src/ui/app/useProfilePreload';

vi.mock('../../src/ui/app/preload', () => ({ preloadRoute: vi.fn(() => Promise.resolve()) }));

const preload = vi.mocked(preloadRoute);
const PROFILE_CHUNKS = ['/profile/0', { chunksOnly: true }] as const;

/** Two frames and a task: what the hook waits for before it starts the preload, and a little more. */
const nextPaint = () =>
  new Promise<void>((resolve) =>
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0))),
  );

/** The idle callbacks asked for, run by the test (jsdom has no idle callbacks of its own). */
let idle: { run: IdleRequestCallback; options?: IdleRequestOptions; cancelled: boolean }[] = [];

beforeEach(() => {
  preload.mockClear();
  idle = [];
  vi.stubGlobal(
    'requestIdleCallback',
    vi.fn((run: IdleRequestCallback, options?: IdleRequestOptions) =>
      idle.push({ run, options, cancelled: false }),
    ),
  );
  vi.stubGlobal(
    'cancelIdleCallback',
    vi.fn((handle: number) => {
      const request = idle[handle - 1];
      if (request) request.cancelled = true;
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const runIdle = () => {
  for (const request of idle)
    if (!request.cancelled) request.run({ didTimeout: false, timeRemaining: () => 10 });
};

describe.each([
  ['without StrictMode', undefined],
  ['in StrictMode', StrictMode],
])('the profile preload of a list (%s)', (_name, wrapper) => {
  it('starts the profile chunks after the list has been painted, not while it renders', async () => {
    const { unmount } = renderHook(() => useProfilePreload(true), { wrapper });
    expect(preload).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(preload).toHaveBeenCalledWith(...PROFILE_CHUNKS));
    unmount();
  });

  it('waits for the first rows, then starts', async () => {
    const { rerender, unmount } = renderHook(({ shown }) => useProfilePreload(shown), {
      wrapper,
      initialProps: { shown: false },
    });
    await nextPaint();
    expect(preload).not.toHaveBeenCalled();
    rerender({ shown: true });
    await vi.waitFor(() => expect(preload).toHaveBeenCalledWith(...PROFILE_CHUNKS));
    unmount();
  });

  it('starts nothing when the list is left before its paint', async () => {
    const { unmount } = renderHook(() => useProfilePreload(true), { wrapper });
    unmount();
    await nextPaint();
    await nextPaint();
    expect(preload).not.toHaveBeenCalled();
    runIdle();
    expect(preload).not.toHaveBeenCalled();
  });

  it('a list that does not show still preloads when the page is idle', async () => {
    const { unmount } = renderHook(() => useProfilePreload(false), { wrapper });
    expect(idle.some((request) => !request.cancelled)).toBe(true);
    expect(idle.every((request) => request.options?.timeout === IDLE_PRELOAD_TIMEOUT_MS)).toBe(true);
    expect(preload).not.toHaveBeenCalled();
    runIdle();
    expect(preload).toHaveBeenCalledWith(...PROFILE_CHUNKS);
    unmount();
  });
});
