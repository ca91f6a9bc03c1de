import { Button, Callout, H2, Intent, NonIdealState, Spinner } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import { isApiError } from '../../../services/api/http';
import { useProfileLive } from '../../app/realtime/ProfileSocket';
import { usePageTitle } from '../../app/usePageTitle';
import { documentsQuery } from '../../queries';
import { DocumentCard } from './documents/DocumentCard';
import { useDocumentLabels } from './documents/labels';
import './documents/documents.css';
import './documents/icons';
import { ProfileChangeNotice, ProfileViewers } from './ProfilePresence';

/** profile/:profileID/document/:docID (docs/product/screens.md): one document with its pages, details and actions. */
export function DocumentScreen() {
  const { t } = useTranslation('documents');
  const { t: tc } = useTranslation();
  const labels = useDocumentLabels();
  const params = useParams<{ profileID: string; docID: string }>();
  const profileId = Number(params.profileID);
  const documentId = Number(params.docID);
  // The first query the navigation started (screens.ts): read from the cache.
  const list = useQuery(documentsQuery(profileId));
  // Who else has the profile open, and live refreshes when someone changes it.
  const live = useProfileLive(Number.isInteger(profileId) ? profileId : 0);
  const document = list.data?.find((d) => d.id === documentId);
  const title = document
    ? (document.type?.name ?? labels.documentClass(document.document_class))
    : t('document');
  usePageTitle(title);
  const back = (
    <Link href={`~/profile/${profileId}?tab=documents`} className="studio-back-link">
      {t('back')}
    </Link>
  );
  return (
    <section aria-labelledby="page-title" className="studio-documents">
      {back}
      <header className="studio-profile-header">
        <H2 id="page-title">{title}</H2>
        <ProfileViewers viewers={live.viewers} />
      </header>
      <ProfileChangeNotice live={live} />
      {list.isError ? (
        <Callout intent={Intent.DANGER} icon="error" role="alert">
          <p>{isApiError(list.error) && list.error.detail ? list.error.detail : tc('messages.error')}</p>
          <Button icon="refresh" text={t('retry')} onClick={() => list.refetch()} />
        </Callout>
      ) : !list.data ? (
        <Spinner size={24} />
      ) : !document ? (
        <NonIdealState icon="document" title={t('notFound')} description={t('notFoundHelp')} />
      ) : (
        <DocumentCard document={document} profileId={profileId} linkToPage={false} />
      )}
    </section>
  );
}
