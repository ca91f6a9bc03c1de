/**
 * `useProfileLive` on a screen's mount: starting to watch a profile renders nothing more (the whole profile screen
 * would render a second time right after it mounts); who else has it open still shows, and another profile still
 * starts with nobody.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import type { ProfileWatchListener } from '../../src/services/profileWatch';
import { ProfileSocketContext, useProfileLive } from '../../src/ui/app/realtime/ProfileSocket';

function fakeSocket() {
  const listeners = new Map<number, ProfileWatchListener>();
  const socket = {
    watchProfile: (profileId: number, listener: ProfileWatchListener) => {
      listeners.set(profileId, listener);
      return () => listeners.delete(profileId);
    },
    onReviewCase: () => () => undefined,
    subscribe: () => () => undefined,
  };
  return { socket, listeners };
}

function mounted(profileId: number) {
  const { socket, listeners } = fakeSocket();
  const client = new QueryClient();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <ProfileSocketContext.Provider value={socket as never}>{children}</ProfileSocketContext.Provider>
    </QueryClientProvider>
  );
  let renders = 0;
  const hook = renderHook(
    ({ id }: { id: number }) => {
      renders += 1;
      return useProfileLive(id);
    },
    { wrapper, initialProps: { id: profileId } },
  );
  return { ...hook, listeners, renders: () => renders };
}

const ADA = { user_id: 41, name: 'Ada Reviewer' };

describe('useProfileLive', () => {
  it('renders once when it starts watching, then once for each presence it is told', () => {
    const { result, listeners, renders } = mounted(7);
    expect(listeners.has(7)).toBe(true);
    expect(renders()).toBe(1);
    expect(result.current.viewers).toEqual([]);

    act(() => listeners.get(7)?.({ type: 'PROFILE.PRESENCE', viewers: [ADA] }));
    expect(result.current.viewers).toEqual([ADA]);
    expect(renders()).toBe(2);
  });

  it('starts another profile with nobody', () => {
    const { result, listeners, rerender } = mounted(7);
    act(() => listeners.get(7)?.({ type: 'PROFILE.PRESENCE', viewers: [ADA] }));
    expect(result.current.viewers).toEqual([ADA]);

    rerender({ id: 8 });
    expect(listeners.has(7)).toBe(false);
    expect(listeners.has(8)).toBe(true);
    expect(result.current.viewers).toEqual([]);
  });
});
