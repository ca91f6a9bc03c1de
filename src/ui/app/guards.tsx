import type { ReactNode } from 'react';
import { Redirect, useSearch } from 'wouter';
import { useBrowserLocation } from 'wouter/use-browser-location';
import { canVisit } from '../../services/permissions';
import { signupFinishing } from '../../services/signupStore';
import { homePath } from '../../services/startPage';
import { NotAllowedScreen } from '../screens/notAllowed/NotAllowedScreen';
import { ADD_ACCOUNT_QUERY } from './loginQuery';
import { useShownUrl } from './navigation';
import { useActiveAccount } from './useAccounts';

/** Signed out on a protected route: go to /login with the original full path in `redirect` (docs/product/screens.md). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const account = useActiveAccount();
  // The full path, also inside nested routes.
  const [location] = useBrowserLocation();
  const search = useSearch();
  const shown = useShownUrl();
  if (account) return children;
  // A navigation is on its way (the URL is ahead of the screen): the next route's guards decide.
  if (shown.path !== location) return null;
  const original = search ? `${location}?${search}` : location;
  // '~' makes the path absolute also inside nested routes.
  return <Redirect to={`~/login?redirect=${encodeURIComponent(original)}`} replace />;
}

/** Signed in on a public route: go to / (docs/product/screens.md). Adding another account is the one exception. */
export function PublicOnly({ children }: { children: ReactNode }) {
  const account = useActiveAccount();
  const search = new URLSearchParams(useSearch());
  const [location] = useBrowserLocation();
  const shown = useShownUrl();
  // A navigation is on its way (e.g. to the sign-in's `redirect` query): it decides where to go, not this page.
  if (shown.path !== location) return children;
  if (account && !search.has(ADD_ACCOUNT_QUERY)) return <Redirect to="~/" replace />;
  return children;
}

/**
 * /create-account: public, except that the new admin it has just signed in stays on its "first steps" until
 * they leave them.
 */
export function PublicOrFinishingSignup({ children }: { children: ReactNode }) {
  const account = useActiveAccount();
  if (account && signupFinishing()) return children;
  return <PublicOnly>{children}</PublicOnly>;
}

/** The route shows only when the active account's permissions allow it (docs/product/roles.md#route-permissions); else not-allowed. */
export function RequirePermission({ children }: { children: ReactNode }) {
  const account = useActiveAccount();
  // The screen on show (during a navigation the URL is already the next one's).
  const location = useShownUrl().path;
  // `/` opens the start page (homePath): a reviewer sent on to the desk needs no customers permission here.
  if (!account || !canVisit(location === '/' ? homePath(account) : location, account))
    return <NotAllowedScreen />;
  return children;
}
