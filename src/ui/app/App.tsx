import { OverlaysProvider } from '@blueprintjs/core';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { onLogoutInOtherTab } from '../../services/accounts';
import { onAppEvent } from '../../services/appEvents';
import { showError } from '../toaster';
import { NavigationRouter } from './navigation';
import { reloadPage } from './reload';
import { AppRoutes } from './routes';

/**
 * Session ends (§4, §8): a 401 sends the user to /login with their email (and the page to come back to);
 * a logout in another tab reloads this one.
 */
function useSessionEnd(): void {
  const [, navigate] = useLocation();
  const { t } = useTranslation();
  useEffect(
    () =>
      onAppEvent((event) => {
        if (event.type !== 'session.ended') return;
        const query = new URLSearchParams();
        if (event.email) query.set('email', event.email);
        query.set('redirect', `${window.location.pathname}${window.location.search}`);
        navigate(`/login?${query}`, { replace: true });
        void showError(t('messages.sessionEnded'));
      }),
    [navigate, t],
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
