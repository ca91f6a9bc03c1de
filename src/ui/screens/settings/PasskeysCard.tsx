import { Button, Callout, Card, H4, HTMLTable, Intent, Spinner, Tag } from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Passkey } from '#contract/passkeys';
import { failureOf } from '../../../machines/failure';
import {
  listPasskeys,
  passkeyKeys,
  passkeysAvailable,
  registerPasskey,
  removePasskey,
} from '../../../services/api/passkeys';
import { useActiveAccount } from '../../app/useAccounts';
import { showSuccess } from '../../toaster';
import { PasskeyDialog } from './PasskeyDialog';
import { PasswordPrompt } from './PasswordPrompt';

/**
 * The user's passkeys: name, kind, where it works, added and last used; Add a passkey (name and
 * password, then this device's ceremony) and Remove (confirmed with the password, like the two-factor actions).
 */
export function PasskeysCard() {
  const { t, i18n } = useTranslation('auth');
  const account = useActiveAccount();
  const queryClient = useQueryClient();
  const key = [...passkeyKeys.list(), account?.server ?? '', account?.id ?? 0];
  const passkeys = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => listPasskeys({ signal }),
    enabled: !!account,
  });
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const remove = useMutation({
    mutationFn: ({ passkey, password }: { passkey: Passkey; password: string }) =>
      removePasskey(passkey.id, password),
    onSuccess: () => {
      setRemoving(null);
      void showSuccess(t('passkeys.removed'));
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
  const available = passkeysAvailable();
  const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const when = (iso: string | null) => (iso ? dates.format(new Date(iso)) : t('passkeys.never'));

  return (
    <Card className="studio-settings-card">
      <H4 id="settings-passkeys-title">{t('passkeys.title')}</H4>
      <p>{t('passkeys.intro')}</p>
      {!available && (
        <Callout intent={Intent.WARNING} icon="warning-sign" className="studio-auth-callout">
          {t('passkeys.unavailableHere')}
        </Callout>
      )}
      {passkeys.isPending && <Spinner size={24} aria-label={t('passkeys.title')} />}
      {passkeys.isError && (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          {t('passkeys.loadFailed')}
        </Callout>
      )}
      {passkeys.data && passkeys.data.length === 0 && <p>{t('passkeys.empty')}</p>}
      {passkeys.data && passkeys.data.length > 0 && (
        <HTMLTable compact className="studio-table" aria-labelledby="settings-passkeys-title">
          <thead>
            <tr>
              <th scope="col">{t('passkeys.columns.name')}</th>
              <th scope="col">{t('passkeys.columns.kind')}</th>
              <th scope="col">{t('passkeys.columns.site')}</th>
              <th scope="col">{t('passkeys.created')}</th>
              <th scope="col">{t('passkeys.lastUsed')}</th>
              <th scope="col">{t('passkeys.columns.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {passkeys.data.map((passkey) => (
              <tr key={passkey.id}>
                <td>{passkey.name}</td>
                <td>
                  <Tag minimal>{passkey.backed_up ? t('passkeys.synced') : t('passkeys.deviceBound')}</Tag>
                </td>
                <td>{passkey.rp_id}</td>
                <td>{when(passkey.created_at)}</td>
                <td>{when(passkey.last_used_at)}</td>
                <td>
                  <Button
                    size="small"
                    intent={Intent.DANGER}
                    variant="minimal"
                    text={t('passkeys.remove')}
                    aria-label={`${t('passkeys.remove')}: ${passkey.name}`}
                    onClick={() => setRemoving(passkey)}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      )}
      <Button icon="key" text={t('passkeys.add')} disabled={!available} onClick={() => setAdding(true)} />
      {adding && (
        <PasskeyDialog
          isOpen
          title={t('passkeys.addTitle')}
          intro={<p>{t('passkeys.addBody')}</p>}
          askPassword
          onRegister={async (name, password) => {
            await registerPasskey({ name, password });
            setAdding(false);
            void showSuccess(t('passkeys.added'));
            await queryClient.invalidateQueries({ queryKey: key });
          }}
          onCancel={() => setAdding(false)}
        />
      )}
      <PasswordPrompt
        isOpen={removing !== null}
        busy={remove.isPending}
        error={remove.isError ? failureOf(remove.error).detail : null}
        title={t('passkeys.removeTitle')}
        body={t('passkeys.removeBody', { name: removing?.name ?? '' })}
        onConfirm={(password) => removing && remove.mutate({ passkey: removing, password })}
        onCancel={() => {
          setRemoving(null);
          remove.reset();
        }}
      />
    </Card>
  );
}
