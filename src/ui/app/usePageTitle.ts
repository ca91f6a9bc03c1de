import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** Sets the browser tab's title to "<title> · <app name>". */
export function usePageTitle(title: string): void {
  const { t } = useTranslation();
  const appName = t('app.name');
  useEffect(() => {
    document.title = `${title} · ${appName}`;
  }, [title, appName]);
}
