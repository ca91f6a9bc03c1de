import { useEffect, useState } from 'react';

/**
 * False in a component's first render and commit, true from the next animation frame on: the first frame
 * is painted without what waits for it. For parts whose mounting sets state synchronously (a Blueprint
 * popover notes its target in state), which makes React run every effect of a new screen, its
 * subscriptions and requests, and render again before that screen's first paint.
 */
export function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (painted) return;
    const frame = requestAnimationFrame(() => setPainted(true));
    return () => cancelAnimationFrame(frame);
  }, [painted]);
  return painted;
}
