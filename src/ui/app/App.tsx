import { OverlaysProvider } from '@blueprintjs/core';
import { Suspense, useEffect } from 'react';
import { navigate } from 'wouter/use-browser-location';
import { onLogoutInOtherTab } from '../../services/accounts';
import { onAppEvent, takeSessionEnd } from '../../services/appEvents';
import { SESSION_ENDED_QUERY } from './loginQuery';
import { NavigationRouter } from './navigation';
import { provideRouteTable } from './preload';
import { reloadPage } from './reload';
import { AppRoutes } from './routes';

// The route table knows every screen, and the screens preload routes: only the app, above them all, imports
// it (on first use, a chunk of its own); the rest reach it through preload.ts.
provideRouteTable(() => import('./routeTable'));

/**
 * Session ends (docs/product/states.md, docs/product/errors.md): a 401 sends the user to /login with their email (and the page to come back to);
 * a logout in another tab reloads this one.
 */
function useSessionEnd(): void {
  // The browser location's navigate, not wouter's useLocation: that hook would render the whole app again on
  // every change of address, in the click that starts a navigation, before its requests go out.
  useEffect(() => {
    const ended = (event: { email: string | null; reason: string | null }) => {
      const query = new URLSearchParams();
      if (event.email) query.set('email', event.email);
      // A 401 while the page started may have sent the user to /login already: the page they were on stays.
      const redirect = window.location.pathname.startsWith('/login')
        ? new URLSearchParams(window.location.search).get('redirect')
        : `${window.location.pathname}${window.location.search}`;
      if (redirect) query.set('redirect', redirect);
      // The sign-in page says why: the server's reason, or that the session ended.
      query.set(SESSION_ENDED_QUERY, event.reason ?? 'unknown');
      navigate(`/login?${query}`, { replace: true });
    };
    const off = onAppEvent((event) => {
      if (event.type !== 'session.ended') return;
      takeSessionEnd();
      ended(event);
    });
    const early = takeSessionEnd();
    if (early) ended(early);
    return off;
  }, []);
  useEffect(() => onLogoutInOtherTab(window, reloadPage), []);
}

export function App() {
  useSessionEnd();
  return (
    <OverlaysProvider>
      <NavigationRouter>
        <Suspense fallback={<div className="studio-loading-bar" />}>
          <AppRoutes />
        </Suspense>
      </NavigationRouter>
    </OverlaysProvider>
  );
}
