import { Callout, Card, Classes, H4, Intent, Spinner, Switch } from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureOf } from '../../../machines/failure';
import { getPasskeyPolicy, passkeyKeys, setPasskeyPolicy } from '../../../services/api/passkeys';
import { useActiveAccount } from '../../app/useAccounts';
import { showSuccess } from '../../toaster';
import { PasswordPrompt } from '../settings/PasswordPrompt';

/** The tab's title, in the passkeys' namespace. */
export function PasskeyPolicyTabTitle() {
  const { t } = useTranslation('auth');
  return <>{t('passkeys.policy.tab')}</>;
}

/**
 * Sign-in: whether the company's users must sign in with a passkey. Admins change it with their
 * password; the server refuses to turn it on for an Admin without a passkey of their own (its detail shows).
 */
export function PasskeyPolicyTab() {
  const { t } = useTranslation('auth');
  const account = useActiveAccount();
  const isAdmin = account?.role === 'Admin';
  const queryClient = useQueryClient();
  const key = [...passkeyKeys.policy(), account?.server ?? '', account?.company_id ?? 0];
  const policy = useQuery({ queryKey: key, queryFn: ({ signal }) => getPasskeyPolicy({ signal }) });
  const [wanted, setWanted] = useState<boolean | null>(null);
  const save = useMutation({
    mutationFn: ({ require, password }: { require: boolean; password: string }) =>
      setPasskeyPolicy({ require_passkeys: require, password }),
    onSuccess: (answer) => {
      setWanted(null);
      queryClient.setQueryData(key, answer);
      void showSuccess(t('passkeys.policy.saved'));
    },
  });

  return (
    <Card className="studio-settings-card">
      <H4>{t('passkeys.policy.title')}</H4>
      <p>{t('passkeys.policy.body')}</p>
      {policy.isPending && <Spinner size={24} aria-label={t('passkeys.policy.title')} />}
      {policy.isError && (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          {t('passkeys.policy.loadFailed')}
        </Callout>
      )}
      {policy.data && (
        <Switch
          large
          label={t('passkeys.policy.require')}
          checked={policy.data.require_passkeys}
          disabled={!isAdmin || save.isPending}
          onChange={() => setWanted(!policy.data.require_passkeys)}
        />
      )}
      {!isAdmin && <p className={Classes.TEXT_MUTED}>{t('passkeys.policy.adminOnly')}</p>}
      <PasswordPrompt
        isOpen={wanted !== null}
        busy={save.isPending}
        error={save.isError ? failureOf(save.error).detail : null}
        title={wanted ? t('passkeys.policy.onTitle') : t('passkeys.policy.offTitle')}
        body={t('passkeys.policy.confirmBody')}
        onConfirm={(password) => wanted !== null && save.mutate({ require: wanted, password })}
        onCancel={() => {
          setWanted(null);
          save.reset();
        }}
      />
    </Card>
  );
}
