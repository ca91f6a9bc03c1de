import { FormGroup, HTMLSelect } from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MAIL_LANGUAGES, type MailLanguage } from '#contract/mail';
import { failureOf } from '../../../machines/failure';
import { getCompanyMailLanguage, mailKeys, setCompanyMailLanguage } from '../../../services/api/mail';
import { showError, showSuccess } from '../../toaster';

/**
 * The language of the company's e-mail to users who chose none of their own (docs/decisions/0161-mail-templates.md): saved on
 * the server at once (PUT /mail/language), the select showing the server's value.
 */
export function CompanyMailLanguageSelect() {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const language = useQuery({
    queryKey: mailKeys.language(),
    queryFn: ({ signal }) => getCompanyMailLanguage({ signal }),
  });
  const save = useMutation({
    mutationFn: (mail_language: MailLanguage) => setCompanyMailLanguage({ mail_language }),
    onSuccess: (saved) => {
      queryClient.setQueryData(mailKeys.language(), saved);
      void showSuccess(t('mail.companyLanguageSaved'));
    },
    onError: (error) => {
      const { detail } = failureOf(error);
      void showError(
        detail ? `${t('mail.companyLanguageFailed')}: ${detail}` : t('mail.companyLanguageFailed'),
      );
    },
  });
  if (!language.data) return null;
  return (
    <FormGroup
      label={t('mail.companyLanguage')}
      labelFor="mail-company-language"
      helperText={t('mail.companyLanguageHelp')}
      inline
    >
      <HTMLSelect
        id="mail-company-language"
        value={language.data.mail_language}
        disabled={save.isPending}
        onChange={(event) => save.mutate(event.currentTarget.value as MailLanguage)}
        options={MAIL_LANGUAGES.map((value) => ({
          value,
          label: t(`settings.preferences.mailLanguageOptions.${value}`),
        }))}
      />
    </FormGroup>
  );
}
