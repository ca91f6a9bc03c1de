import { useEffect } from 'react';
import { preloadRoute } from './preload';

/** A list that never shows (a failed or slow answer) still preloads once the page has been idle this long. */
export const IDLE_PRELOAD_TIMEOUT_MS = 3000;

/**
 * Calls `run` once the next frame has been painted: at the start of the frame after it (the first frame's own
 * callbacks and the tasks queued behind its paint come first). Returns the canceller.
 */
function afterNextPaint(run: () => void): () => void {
  if (typeof window.requestAnimationFrame !== 'function') {
    const timer = setTimeout(run, 0);
    return () => clearTimeout(timer);
  }
  let frame = window.requestAnimationFrame(() => {
    frame = window.requestAnimationFrame(run);
  });
  return () => window.cancelAnimationFrame(frame);
}

/** Starts the profile screen's chunks and namespaces (not its data: which profile is not known yet). */
const preloadProfile = () => void preloadRoute('/profile/0', { chunksOnly: true });

/**
 * The first step to a profile from a list (a row of the customers list, Next case on the desk) waits for its
 * data only: the profile screen's chunks and namespaces load once the list's own first rows have been painted
 * (`shown`), so they never delay those rows, yet are in well before a reader's first click. A list that does
 * not show (an error, a slow answer) starts them when the page is idle instead. Starting twice is harmless:
 * a screen's chunk starts once.
 */
export function useProfilePreload(shown: boolean) {
  useEffect(() => {
    if (shown) return afterNextPaint(preloadProfile);
    if (typeof window.requestIdleCallback !== 'function') return;
    const handle = window.requestIdleCallback(preloadProfile, { timeout: IDLE_PRELOAD_TIMEOUT_MS });
    return () => window.cancelIdleCallback(handle);
  }, [shown]);
}
