import { useEffect } from 'react';
import { preloadRoute } from './preload';

/**
 * Once the screen is idle, the profile screen's chunks and namespaces load, so the first step to a profile
 * (a row of the customers list, Next case on the desk) waits for its data only. Browsers without idle
 * callbacks load them on the first hover or click.
 */
export function useIdleProfilePreload() {
  useEffect(() => {
    if (typeof window.requestIdleCallback !== 'function') return;
    const handle = window.requestIdleCallback(() => void preloadRoute('/profile/0', { chunksOnly: true }), {
      timeout: 3000,
    });
    return () => window.cancelIdleCallback(handle);
  }, []);
}
