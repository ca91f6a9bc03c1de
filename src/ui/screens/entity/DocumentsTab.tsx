import { AnchorButton, Card, H4, NonIdealState } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { BusinessEntity } from '#contract/entities';
import { useImageViewer, type ViewerImage } from '../../components/imageViewer/ImageViewer';
import { useEntityDate } from '../entities/entityLabels';

/** The entity's documents as cards; a click opens the image viewer on the whole group (docs/product/README.md). */
export function EntityDocumentList({ entity, large = false }: { entity: BusinessEntity; large?: boolean }) {
  const { t } = useTranslation('entities');
  const date = useEntityDate();
  const { open, viewer } = useImageViewer();
  if (entity.documents.length === 0) {
    return <NonIdealState icon="document" title={t('documents.empty')} />;
  }
  const images: ViewerImage[] = entity.documents.map((document) => ({
    src: document.file,
    title: t(`documents.kind.${document.kind}`),
  }));
  return (
    <>
      <ul
        className={`studio-entity-documents${large ? ' studio-entity-documents-large' : ''}`}
        aria-label={t('documents.title')}
      >
        {entity.documents.map((document, index) => (
          <li key={document.id}>
            <Card compact>
              <button
                type="button"
                className="studio-entity-document-image"
                aria-label={t('documents.open', { title: images[index]?.title })}
                onClick={() => open(images, index)}
              >
                <img src={document.file} alt="" loading="lazy" />
              </button>
              <div className="studio-entity-document-title">{images[index]?.title}</div>
              <div className="studio-muted">{t('documents.issued', { date: date(document.issued) })}</div>
            </Card>
          </li>
        ))}
      </ul>
      {viewer}
    </>
  );
}

/** Documents tab: the cards and a link to the entity's documents page (entity/:id/documents). */
export function DocumentsTab({ entity }: { entity: BusinessEntity }) {
  const { t } = useTranslation('entities');
  return (
    <section className="studio-entity-tab" aria-labelledby="entity-documents-title">
      <div className="studio-section-title">
        <H4 id="entity-documents-title">{t('documents.title')}</H4>
        <Link href="/documents" asChild>
          <AnchorButton role="link" variant="minimal" icon="document" text={t('documents.page')} />
        </Link>
      </div>
      <EntityDocumentList entity={entity} />
    </section>
  );
}
