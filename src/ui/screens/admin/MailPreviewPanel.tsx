import { Card, FormGroup, H4, HTMLSelect, Pre, Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAIL_KINDS, MAIL_LANGUAGES, type MailKind, type MailLanguage } from '#contract/mail';
import { mailKeys, previewMail } from '../../../services/api/mail';
import { LoadFailed } from '../../components/ListFilters';

/**
 * Each template in each language with sample values, as the server renders it. The HTML part is shown in an
 * iframe sandboxed with no permissions at all (no scripts, no forms, no same origin), from `srcdoc`.
 */
export function MailPreviewPanel() {
  const { t, i18n } = useTranslation('admin');
  const [kind, setKind] = useState<MailKind>('invitation');
  // The studio's language first; the other is one choice away.
  const [language, setLanguage] = useState<MailLanguage>(i18n.language === 'tr' ? 'tr' : 'en');
  const preview = useQuery({
    queryKey: mailKeys.preview(kind, language),
    queryFn: ({ signal }) => previewMail(kind, language, { signal }),
  });
  return (
    <Card className="studio-mail-preview">
      <H4>{t('mail.preview.title')}</H4>
      <div className="studio-filters">
        <FormGroup label={t('mail.preview.kind')} labelFor="mail-preview-kind" inline>
          <HTMLSelect
            id="mail-preview-kind"
            value={kind}
            onChange={(event) => setKind(event.currentTarget.value as MailKind)}
            options={MAIL_KINDS.map((k) => ({ value: k, label: t(`mail.kinds.${k}`) }))}
          />
        </FormGroup>
        <FormGroup label={t('mail.preview.language')} labelFor="mail-preview-language" inline>
          <HTMLSelect
            id="mail-preview-language"
            value={language}
            onChange={(event) => setLanguage(event.currentTarget.value as MailLanguage)}
            options={MAIL_LANGUAGES.map((l) => ({ value: l, label: t(`mail.languages.${l}`) }))}
          />
        </FormGroup>
      </div>
      {preview.isError && (
        <LoadFailed
          text={t('mail.preview.loadFailed')}
          retry={t('retry')}
          onRetry={() => preview.refetch()}
        />
      )}
      {preview.isPending && <Spinner className="studio-list-message" />}
      {preview.data && (
        <>
          <p>
            <strong>{t('mail.preview.subject')}</strong> {preview.data.subject}
          </p>
          <iframe
            className="studio-mail-frame"
            title={t('mail.preview.html')}
            sandbox=""
            srcDoc={preview.data.html}
          />
          <section aria-labelledby="mail-preview-text">
            <H4 id="mail-preview-text" className="studio-mail-text-title">
              {t('mail.preview.text')}
            </H4>
            <Pre className="studio-mail-text">{preview.data.text}</Pre>
          </section>
        </>
      )}
    </Card>
  );
}
