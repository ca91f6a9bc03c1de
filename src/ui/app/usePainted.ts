import { useEffect, useState } from 'react';

/**
 * False in the commit that mounts the component, true from the next render on, which comes after the
 * browser has painted (a passive effect). For the shell's popovers (issue 19): Floating UI keeps its target
 * element in React state, set from a ref during the commit, so a popover mounted with the first screen makes
 * React render again synchronously and run every passive effect of the screen (sockets, icon loads) before
 * the first paint. Their target button alone is drawn first; the popover around it one frame later.
 */
export function usePainted(): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => setPainted(true), []);
  return painted;
}
