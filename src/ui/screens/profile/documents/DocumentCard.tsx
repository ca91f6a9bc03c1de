import { Callout, Card, H5, H6, HTMLTable, Intent, Tag } from '@blueprintjs/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { CHECK_KINDS, CONTENT_FIELDS } from '#contract/constants';
import type { Document } from '#contract/documents';
import { documentFlags } from '../../../../machines/documents';
import {
  ImageThumbnails,
  useImageViewer,
  type ViewerImage,
} from '../../../components/imageViewer/ImageViewer';
import { useFormat } from '../../../format';
import { AlertOverrideButton } from './AlertOverride';
import { DocumentActions } from './DocumentActions';
import { useDocumentLabels } from './labels';

const STATUS_INTENT = {
  pending_review: Intent.WARNING,
  approved: Intent.SUCCESS,
  rejected: Intent.DANGER,
} as const;
const CHECK_INTENT = {
  passed: Intent.SUCCESS,
  warning: Intent.WARNING,
  failed: Intent.DANGER,
  not_run: Intent.NONE,
} as const;

/** One document (docs/product/entities.md): pages, extracted fields, checks, alerts, source, dates, flags and its actions. */
export function DocumentCard({
  document,
  profileId,
  linkToPage = true,
}: {
  document: Document;
  profileId: number;
  linkToPage?: boolean;
}) {
  const { t } = useTranslation('documents');
  const labels = useDocumentLabels();
  const date = useFormat().dateTime;
  const day = useFormat().day;
  const viewer = useImageViewer();
  const flags = documentFlags(document, new Date());
  const title = document.type?.name ?? labels.documentClass(document.document_class);
  const titleId = `document-${document.id}-title`;
  const images = useMemo<ViewerImage[]>(
    () =>
      document.pages.map((page) => ({
        src: page.url,
        href: page.url,
        title: t('page', { page: page.page, title }),
        kind: page.content_type === 'application/pdf' ? 'pdf' : 'image',
      })),
    [document.pages, t, title],
  );

  return (
    <Card className="studio-document" aria-labelledby={titleId} role="article">
      <header className="studio-document-header">
        <H5 id={titleId}>
          {linkToPage ? <Link href={`~/profile/${profileId}/document/${document.id}`}>{title}</Link> : title}
        </H5>
        <Tag minimal>{labels.documentClass(document.document_class)}</Tag>
        <Tag intent={STATUS_INTENT[document.status]}>{t(`status.${document.status}`)}</Tag>
        {document.archived && (
          <Tag minimal icon="archive">
            {t('archivedTag')}
          </Tag>
        )}
        {flags.expired && (
          <Tag intent={Intent.DANGER} icon="outdated">
            {t('flags.expired')}
          </Tag>
        )}
        {flags.staleBill && (
          <Tag intent={Intent.WARNING} icon="outdated">
            {t('flags.staleBill')}
          </Tag>
        )}
      </header>
      <p className="studio-muted">
        {[
          t('meta.source', { source: labels.source(document.upload_source) }),
          t('meta.uploaded', { date: date(document.created_at) }),
          document.expiry_date ? t('meta.expires', { date: day(document.expiry_date) }) : t('meta.noExpiry'),
          document.stream ? t('meta.stream') : null,
          t('meta.pages', { count: document.pages.length }),
        ]
          .filter(Boolean)
          .join(' · ')}
      </p>
      {document.status === 'rejected' && document.review_reason && (
        <Callout intent={Intent.DANGER} icon="ban-circle" compact>
          {t('rejectedBecause', { reason: document.review_reason })}
        </Callout>
      )}
      {images.length > 0 ? (
        <ImageThumbnails images={images} label={t('pages', { title })} onOpen={viewer.open} />
      ) : (
        <p className="studio-muted">{t('noPages')}</p>
      )}
      {viewer.viewer}
      <div className="studio-document-body">
        <section aria-label={t('fields.title')}>
          <H6>{t('fields.title')}</H6>
          <HTMLTable compact className="studio-document-fields">
            <tbody>
              {CONTENT_FIELDS.map((field) => (
                <tr key={field}>
                  <th scope="row">{t(`fields.${field}`)}</th>
                  <td>
                    {document.content[field] ?? <span className="studio-muted">{t('fields.empty')}</span>}
                    {document.overridden_fields.includes(field) && (
                      <Tag minimal intent={Intent.PRIMARY} className="studio-document-overridden">
                        {t('fields.overridden')}
                      </Tag>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </section>
        <section aria-label={t('checks.title')}>
          <H6>{t('checks.title')}</H6>
          <ul className="studio-document-list">
            {CHECK_KINDS.map((kind) => {
              const check = document.checks[kind];
              return (
                <li key={kind}>
                  <span>{t(`checks.${kind}`)}</span>
                  <Tag minimal intent={CHECK_INTENT[check.result]}>
                    {t(`checks.result.${check.result}`)}
                    {check.score !== null ? ` · ${check.score}` : ''}
                  </Tag>
                </li>
              );
            })}
          </ul>
          <H6>{t('alerts.title')}</H6>
          {document.alerts.length === 0 ? (
            <p className="studio-muted">{t('alerts.none')}</p>
          ) : (
            <ul className="studio-document-list" aria-label={t('alerts.title')}>
              {document.alerts.map((alert) => (
                <li key={alert.id} className="studio-document-alert">
                  <div>
                    <Tag minimal intent={alert.overridden ? Intent.NONE : CHECK_INTENT[alert.result]}>
                      {t(`checks.result.${alert.result}`)}
                    </Tag>{' '}
                    {labels.alert(alert.code, alert.name)}
                    {alert.overridden && (
                      <div className="studio-muted">
                        {t('alerts.overriddenWith', {
                          reason: alert.override_reason ?? '',
                          date: alert.overridden_at ? date(alert.overridden_at) : '',
                        })}
                      </div>
                    )}
                  </div>
                  {!alert.overridden && (
                    <AlertOverrideButton
                      profileId={profileId}
                      alertId={alert.id}
                      name={labels.alert(alert.code, alert.name)}
                      document={document}
                    />
                  )}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      <DocumentActions document={document} profileId={profileId} title={title} />
    </Card>
  );
}
