import { Callout, Card, H2, H4, Intent, Spinner } from '@blueprintjs/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { getUser, userKeys } from '../../../services/api/users';
import { useActiveAccount } from '../../app/useAccounts';
import { usePageTitle } from '../../app/usePageTitle';
import { AccountsCard } from './AccountsCard';
import { AuthPhotoCard } from './AuthPhotoCard';
import { PasskeysCard } from './PasskeysCard';
import { PasswordCard } from './PasswordCard';
import { PreferencesCard } from './PreferencesCard';
import { ProfileCard } from './ProfileCard';
import { ReviewerAwayCard } from './ReviewerAwayCard';
import { SessionsCard } from './SessionsCard';
import { TwoFactorPanel } from './TwoFactorPanel';

/**
 * /settings: the signed-in user's own account (docs/product/screens.md): name and phone, password, two-factor, sign-in photo,
 * language and theme, a reviewer's away status, the accounts stored in this browser, and the account's active sessions.
 */
export function SettingsScreen() {
  const { t } = useTranslation('auth');
  const { t: ts } = useTranslation('screens');
  const title = ts('settings.title');
  usePageTitle(title);
  const account = useActiveAccount();
  const queryClient = useQueryClient();
  const id = account?.id ?? 0;
  const user = useQuery({
    queryKey: userKeys.detail(id),
    queryFn: ({ signal }) => getUser(id, { signal }),
    enabled: !!account,
  });
  const refresh = useCallback(
    () => queryClient.refetchQueries({ queryKey: userKeys.detail(id) }),
    [queryClient, id],
  );

  const accountCard = (
    <Card className="studio-settings-card">
      <H4>{t('settings.account')}</H4>
      <p>{t('settings.signedInAs', { email: account?.email ?? '' })}</p>
    </Card>
  );
  // The cards come in together once the account's own data is in: cards appearing one by one above the
  // others would move what a person is about to click.
  if (account && user.isPending)
    return (
      <section className="studio-page" aria-labelledby="page-title" aria-busy="true">
        <H2 id="page-title">{title}</H2>
        {accountCard}
        <Spinner size={24} aria-label={title} />
      </section>
    );
  return (
    <section className="studio-page" aria-labelledby="page-title">
      <H2 id="page-title">{title}</H2>
      {accountCard}
      {user.data && <ProfileCard key={user.data.id} user={user.data} onSaved={refresh} />}
      {user.data && <PasswordCard userId={user.data.id} />}
      <Card className="studio-settings-card">
        <H4>{t('twoFactor.title')}</H4>
        {user.isError && (
          <Callout intent={Intent.DANGER} icon="error" role="alert">
            {t('settings.loadFailed')}
          </Callout>
        )}
        {user.data && (
          <TwoFactorPanel
            key={user.data.id}
            userId={user.data.id}
            email={user.data.username}
            mfa={user.data.mfa}
            onRefresh={refresh}
          />
        )}
      </Card>
      <PasskeysCard />
      {user.data && <AuthPhotoCard user={user.data} onSaved={refresh} />}
      <ReviewerAwayCard />
      <PreferencesCard />
      <AccountsCard />
      <SessionsCard />
    </section>
  );
}
