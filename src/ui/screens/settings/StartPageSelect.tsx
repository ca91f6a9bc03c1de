import { FormGroup, HTMLSelect } from '@blueprintjs/core';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { START_PAGES, type StartPage } from '#contract/constants';
import { failureOf } from '../../../machines/failure';
import { accounts } from '../../../services/accounts';
import { updateUser } from '../../../services/api/users';
import { mayChooseStartPage } from '../../../services/startPage';
import { useActiveAccount } from '../../app/useAccounts';
import { showError, showSuccess } from '../../toaster';

/**
 * The screen `/` opens, for users who may open the reviewers' desk (for anyone else there is
 * nothing to choose). Saved on the server (PATCH /user/{id}, no password for one's own) and into the stored
 * account, which `/` reads; the select shows the stored value, so it changes only on the server's answer.
 */
export function StartPageSelect() {
  const account = useActiveAccount();
  if (!account || !mayChooseStartPage(account)) return null;
  return <StartPageField userId={account.id} companyId={account.company_id} value={account.start_page} />;
}

function StartPageField({
  userId,
  companyId,
  value,
}: {
  userId: number;
  companyId: number;
  value: StartPage;
}) {
  const { t } = useTranslation('admin', { keyPrefix: 'settings.preferences' });
  const save = useMutation({
    mutationFn: (page: StartPage) => updateUser(userId, { start_page: page }),
    onSuccess: (saved) => {
      const active = accounts.active();
      // The account may have been switched meanwhile: only the one it was saved for takes it.
      if (active?.id === userId && active.company_id === companyId)
        accounts.save({ ...active, start_page: saved.start_page });
      void showSuccess(t('startPageSaved', { page: t(`startPageOptions.${saved.start_page}`) }));
    },
    onError: (error) => {
      const { detail } = failureOf(error);
      void showError(detail ? `${t('startPageFailed')}: ${detail}` : t('startPageFailed'));
    },
  });
  return (
    <FormGroup label={t('startPage')} labelFor="settings-start-page" helperText={t('startPageHelp')} inline>
      <HTMLSelect
        id="settings-start-page"
        value={value}
        disabled={save.isPending}
        onChange={(event) => save.mutate(event.currentTarget.value as StartPage)}
        options={START_PAGES.map((page) => ({ value: page, label: t(`startPageOptions.${page}`) }))}
      />
    </FormGroup>
  );
}
