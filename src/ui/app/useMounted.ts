import { useEffect, useState } from 'react';

/**
 * False in the commit that mounts the component, true from the next render on (a passive effect, which React
 * runs in a task of its own after the commit). For the shell's popovers: Floating UI keeps its
 * target element in React state, set from a ref during the commit, so a popover mounted with the first screen
 * made React render again synchronously inside that commit and run every passive effect of the screen
 * (sockets, icon loads, storage listeners) in the same long task before the browser could paint. Their target
 * button alone is drawn in the first commit; the popover wraps it in the next.
 */
export function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}
