import { AnchorButton, NonIdealState } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { usePageTitle } from '../../app/usePageTitle';

/** Shown where the active account lacks the permission a route needs (docs/product/screens.md). */
export function NotAllowedScreen() {
  const { t } = useTranslation();
  usePageTitle(t('notAllowed.title'));
  return (
    <NonIdealState
      icon="lock"
      title={t('notAllowed.title')}
      description={t('notAllowed.body')}
      action={
        <Link href="~/" asChild>
          <AnchorButton role="link" icon="home" text={t('notAllowed.home')} />
        </Link>
      }
    />
  );
}
