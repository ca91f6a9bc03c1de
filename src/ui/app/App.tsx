import { OverlaysProvider } from '@blueprintjs/core';
import { Suspense, useEffect } from 'react';
import { useLocation } from 'wouter';
import { onLogoutInOtherTab } from '../../services/accounts';
import { onAppEvent } from '../../services/appEvents';
import { SESSION_ENDED_QUERY } from './guards';
import { NavigationRouter } from './navigation';
import { reloadPage } from './reload';
import { AppRoutes } from './routes';

/**
 * Session ends (§4, §8): a 401 sends the user to /login with their email (and the page to come back to);
 * a logout in another tab reloads this one.
 */
function useSessionEnd(): void {
  const [, navigate] = useLocation();
  useEffect(
    () =>
      onAppEvent((event) => {
        if (event.type !== 'session.ended') return;
        const query = new URLSearchParams();
        if (event.email) query.set('email', event.email);
        query.set('redirect', `${window.location.pathname}${window.location.search}`);
        // The sign-in page says why (issue 27): the server's reason, or that the session ended.
        query.set(SESSION_ENDED_QUERY, event.reason ?? 'unknown');
        navigate(`/login?${query}`, { replace: true });
      }),
    [navigate],
  );
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
