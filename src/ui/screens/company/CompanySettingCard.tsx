import { Button, Callout, Card, Classes, H4, Intent, Spinner } from '@blueprintjs/core';
import { type UseQueryResult, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../services/api/http';
import { useActiveAccount } from '../../app/useAccounts';
import { showError, showSuccess } from '../../toaster';

/**
 * The texts of one company setting, under `<prefix>.` in the calls namespace: title, body, loadFailed, save,
 * saved, adminOnly.
 */
type TextPrefix = 'evidence.retention' | 'routing' | 'joinLinks' | 'reviewRules' | 'network' | 'watchSetting';

/**
 * One company setting read and written whole (evidence retention, call routing, four-eyes rules): the active account's
 * settings, the fields the user changed (`draft`), and the save, which takes the server's answer as the new
 * settings and says so. Admins change it; everyone else reads it.
 */
export function useCompanySetting<Settings, Body extends object>(options: {
  keys: readonly unknown[];
  read: (request: { signal: AbortSignal }) => Promise<Settings>;
  write: (body: Body) => Promise<Settings>;
  texts: TextPrefix;
}) {
  const { t } = useTranslation('calls');
  const { t: tc } = useTranslation();
  const account = useActiveAccount();
  const queryClient = useQueryClient();
  const key = [...options.keys, account?.server ?? '', account?.company_id ?? 0];
  const settings = useQuery({ queryKey: key, queryFn: ({ signal }) => options.read({ signal }) });
  const [draft, setDraft] = useState<Partial<Body>>({});
  const save = useMutation({
    mutationFn: options.write,
    onSuccess: (answer) => {
      queryClient.setQueryData(key, answer);
      setDraft({});
      void showSuccess(t(`${options.texts}.saved`));
    },
    onError: (error) => void showError(isApiError(error) ? error.detail : tc('messages.error')),
  });
  return {
    isAdmin: account?.role === 'Admin',
    settings,
    draft,
    setDraft,
    changed: Object.values(draft).some((value) => value !== undefined),
    save,
  };
}

/**
 * The card of one company setting: its title and what it does, loading and failure, then the form (its
 * fields are the children) with Save for Admins, or a line saying only Admins change it.
 */
export function CompanySettingCard({
  texts,
  settings,
  isAdmin,
  saving,
  canSave,
  onSave,
  children,
}: {
  texts: TextPrefix;
  settings: UseQueryResult;
  isAdmin: boolean;
  saving: boolean;
  canSave: boolean;
  onSave: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('calls');
  return (
    <Card className="studio-settings-card">
      <H4>{t(`${texts}.title`)}</H4>
      <p>{t(`${texts}.body`)}</p>
      {settings.isPending && <Spinner size={24} aria-label={t(`${texts}.title`)} />}
      {settings.isError && (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          {t(`${texts}.loadFailed`)}
        </Callout>
      )}
      {settings.data !== undefined && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (canSave) onSave();
          }}
        >
          {children}
          {isAdmin ? (
            <Button
              type="submit"
              intent={Intent.PRIMARY}
              text={t(`${texts}.save`)}
              loading={saving}
              disabled={!canSave}
            />
          ) : (
            <p className={Classes.TEXT_MUTED}>{t(`${texts}.adminOnly`)}</p>
          )}
        </form>
      )}
    </Card>
  );
}
