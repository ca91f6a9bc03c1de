import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../app/usePageTitle';
import '../entities/entities.css';
import '../entities/icons';
import { EntityDocumentList } from './DocumentsTab';
import { EntityHeader, EntityNotFound, useRouteEntity } from './EntityScreen';

/** entity/:id/documents (docs/product/screens.md): the entity's documents, large, opened in the image viewer. */
export function EntityDocumentsScreen() {
  const { t } = useTranslation('entities');
  const { t: ts } = useTranslation('screens');
  const entity = useRouteEntity();
  usePageTitle(entity ? t('documents.pageTitle', { name: entity.name }) : ts('entityDocuments.title'));
  if (!entity) return <EntityNotFound />;
  return (
    <section className="studio-page studio-page-wide studio-entity" aria-labelledby="page-title">
      <EntityHeader entity={entity} />
      <EntityDocumentList entity={entity} large />
    </section>
  );
}
