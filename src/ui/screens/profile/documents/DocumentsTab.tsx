import { Button, Callout, H5, Intent, NonIdealState, SegmentedControl, Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { groupByClass } from '../../../../machines/documents';
import { isApiError } from '../../../../services/api/http';
import { documentsQuery } from '../../../queries';
import { DocumentCard } from './DocumentCard';
import { useDocumentLabels } from './labels';
import { UploadDialog } from './UploadDialog';
import './documents.css';
import './icons';

/** The profile's documents (the Documents tab): active or archived, grouped by class in the order of docs/product/entities.md#document. */
export function DocumentsTab({ profileId }: { profileId: number }) {
  const { t } = useTranslation('documents');
  const { t: tc } = useTranslation();
  const labels = useDocumentLabels();
  const [view, setView] = useState<'active' | 'archived'>('active');
  const [uploading, setUploading] = useState(false);
  const list = useQuery(documentsQuery(profileId));
  const shown = list.data?.filter((document) => document.archived === (view === 'archived')) ?? [];
  const count = (archived: boolean) => list.data?.filter((d) => d.archived === archived).length ?? 0;

  return (
    <section aria-labelledby="documents-title" className="studio-documents">
      <div className="studio-section-title">
        <H5 id="documents-title">{t('title')}</H5>
        <SegmentedControl
          aria-label={t('view.label')}
          size="small"
          value={view}
          onValueChange={(value) => setView(value as 'active' | 'archived')}
          options={[
            { value: 'active', label: t('view.active', { count: count(false) }) },
            { value: 'archived', label: t('view.archived', { count: count(true) }) },
          ]}
        />
        <Button
          icon="upload"
          intent={Intent.PRIMARY}
          text={t('upload.open')}
          onClick={() => setUploading(true)}
        />
      </div>
      {list.isError ? (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          <p>{isApiError(list.error) && list.error.detail ? list.error.detail : tc('messages.error')}</p>
          <Button icon="refresh" text={t('retry')} onClick={() => list.refetch()} />
        </Callout>
      ) : !list.data ? (
        <Spinner size={24} />
      ) : shown.length === 0 ? (
        <NonIdealState
          icon="document"
          title={view === 'active' ? t('empty.active') : t('empty.archived')}
          description={view === 'active' ? t('empty.activeHelp') : undefined}
        />
      ) : (
        groupByClass(shown).map((group) => (
          <section
            key={group.documentClass}
            aria-label={labels.documentClass(group.documentClass)}
            className="studio-document-group"
          >
            <h3 className="studio-document-group-title">
              {t('group', {
                label: labels.documentClass(group.documentClass),
                count: group.documents.length,
              })}
            </h3>
            {group.documents.map((document) => (
              <DocumentCard key={document.id} document={document} profileId={profileId} />
            ))}
          </section>
        ))
      )}
      {uploading && <UploadDialog profileId={profileId} onClose={() => setUploading(false)} />}
    </section>
  );
}
