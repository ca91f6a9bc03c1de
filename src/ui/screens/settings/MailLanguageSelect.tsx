import { FormGroup, HTMLSelect } from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MAIL_LANGUAGES, type MailLanguage } from '#contract/mail';
import { failureOf } from '../../../machines/failure';
import { getUser, updateUser, userKeys } from '../../../services/api/users';
import { useActiveAccount } from '../../app/useAccounts';
import { showError, showSuccess } from '../../toaster';

/** The company's language: no choice of one's own. */
const COMPANY = '';

/**
 * The language of one's own e-mail (docs/decisions/0161-mail-templates.md): English, Turkish, or the company's. Saved on the
 * server (PATCH /user/{id}, no password for one's own); the select shows the server's value.
 */
export function MailLanguageSelect() {
  const account = useActiveAccount();
  const { t } = useTranslation('admin', { keyPrefix: 'settings.preferences' });
  const queryClient = useQueryClient();
  const id = account?.id ?? 0;
  const user = useQuery({
    queryKey: userKeys.detail(id),
    queryFn: ({ signal }) => getUser(id, { signal }),
    enabled: id > 0,
  });
  const save = useMutation({
    mutationFn: (language: MailLanguage | null) => updateUser(id, { mail_language: language }),
    onSuccess: (saved) => {
      queryClient.setQueryData(userKeys.detail(saved.id), saved);
      void showSuccess(t('mailLanguageSaved'));
    },
    onError: (error) => {
      const { detail } = failureOf(error);
      void showError(detail ? `${t('mailLanguageFailed')}: ${detail}` : t('mailLanguageFailed'));
    },
  });
  if (!account || !user.data) return null;
  return (
    <FormGroup
      label={t('mailLanguage')}
      labelFor="settings-mail-language"
      helperText={t('mailLanguageHelp')}
      inline
    >
      <HTMLSelect
        id="settings-mail-language"
        value={user.data.mail_language ?? COMPANY}
        disabled={save.isPending}
        onChange={(event) => {
          const value = event.currentTarget.value;
          save.mutate(value === COMPANY ? null : (value as MailLanguage));
        }}
        options={[
          { value: COMPANY, label: t('mailLanguageOptions.company') },
          ...MAIL_LANGUAGES.map((language) => ({
            value: language,
            label: t(`mailLanguageOptions.${language}`),
          })),
        ]}
      />
    </FormGroup>
  );
}
