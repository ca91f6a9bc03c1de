/**
 * The socket's profile side for views: who else has a profile open and what they change. Accounts
 * with the calls area share the call desk's socket; accounts that only review profiles (`view_profiles_page`,
 * e.g. a Restricted User) get a socket of their own here, without the call desk's machines.
 */
import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from 'react';
import type { ProfileChange, ProfileViewer } from '#contract/socket';
import { type Account, accounts } from '../../../services/accounts';
import { reviewKeys } from '../../../services/api/review';
import { getSocketToken } from '../../../services/api/videocalls';
import { staleKeys } from '../../../services/profileWatch';
import { connectRealtime, type Realtime } from '../../../services/socket';
import { useActiveAccount } from '../useAccounts';

export const ProfileSocketContext = createContext<Pick<
  Realtime,
  'watchProfile' | 'onReviewCase' | 'subscribe'
> | null>(null);

/** A socket for profile presence only (no call desk): opened for the account, closed when it changes. */
export function ProfileSocketOnly({ account, children }: { account: Account; children: ReactNode }) {
  const [realtime, setRealtime] = useState<Realtime | null>(null);
  const current = useRef(account);
  current.current = account;
  useEffect(() => {
    const next = connectRealtime({
      server: current.current.server,
      socketToken: async () =>
        (await getSocketToken(accounts.active()?.access ?? current.current.access)).token,
    });
    setRealtime(next);
    return () => {
      next.close();
      setRealtime(null);
    };
  }, []);
  return <ProfileSocketContext.Provider value={realtime}>{children}</ProfileSocketContext.Provider>;
}

export interface ProfileLive {
  /** The others who have the profile open now (not this user). */
  viewers: ProfileViewer[];
  /** The last change someone else made while it was open. */
  change: ProfileChange | null;
  dismiss: () => void;
}

/** Nobody else: one array, so emptying the list when it is already empty is no change and renders nothing. */
const NO_VIEWERS: ProfileViewer[] = [];

/**
 * Watches a profile while the view is mounted: keeps who else has it open, refreshes the cached data a
 * change makes stale (every change, this user's own from another tab too), and keeps the last change
 * someone else made for a notice.
 */
export function useProfileLive(profileId: number): ProfileLive {
  const socket = useContext(ProfileSocketContext);
  const queryClient = useQueryClient();
  const me = useActiveAccount()?.id ?? 0;
  const [viewers, setViewers] = useState<ProfileViewer[]>(NO_VIEWERS);
  const [change, setChange] = useState<ProfileChange | null>(null);
  useEffect(() => {
    if (!socket || !(profileId > 0)) return;
    // Another profile or socket starts empty. On a screen's mount both are already empty: React keeps the state
    // and does not render the whole screen a second time right after it mounts.
    setViewers(NO_VIEWERS);
    setChange(null);
    return socket.watchProfile(profileId, (event) => {
      if (event.type === 'PROFILE.PRESENCE') {
        setViewers(event.viewers.filter((viewer) => viewer.user_id !== me));
        return;
      }
      for (const queryKey of staleKeys(event.change)) void queryClient.invalidateQueries({ queryKey });
      if (event.change.by.user_id !== me) setChange(event.change);
    });
  }, [socket, profileId, me, queryClient]);
  return { viewers, change, dismiss: () => setChange(null) };
}

/** How long the desk gathers `review.case_changed` events before it reads its cases again. */
export const REVIEW_LIVE_GATHER_MS = 200;

/**
 * The reviewers' desk live: every `review.case_changed` (and a reconnect) marks the desk's cached
 * cases stale, so the list and the profile's case panel show what the server holds, without a reload. Events
 * are gathered for a moment and read once: fifty reviewers at work send many, and the press of Next case sends
 * one while its profile opens (read then, the desk's answers would interrupt the profile's rendering; a moment
 * later the desk is gone and its cases are only marked stale).
 */
export function useReviewLive(): void {
  const socket = useContext(ProfileSocketContext);
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!socket) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = socket.onReviewCase(() => {
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        void queryClient.invalidateQueries({ queryKey: reviewKeys.all });
      }, REVIEW_LIVE_GATHER_MS);
    });
    return () => {
      unsubscribe();
      if (timer === undefined) return;
      // Leaving with events gathered: the cached cases are stale, and read when a screen shows them again.
      clearTimeout(timer);
      void queryClient.invalidateQueries({ queryKey: reviewKeys.all, refetchType: 'none' });
    };
  }, [socket, queryClient]);
}
