import { useSyncExternalStore } from 'react';
import type { InstantStats } from '#contract/socket';
import type { RealtimeDesk } from '../../app/realtime/RealtimeProvider';

/** The company's instant stats as the server last pushed them (null before the first push). */
export function useInstantStats(realtime: RealtimeDesk): InstantStats | null {
  return useSyncExternalStore(
    (onChange) =>
      realtime.subscribe((event) => {
        if (event.type === 'STATS.UPDATE') onChange();
      }),
    () => realtime.realtime.latestStats(),
  );
}
