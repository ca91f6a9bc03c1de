import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SectionLayout } from './SectionLayout';

/** The entity layout (docs/product/screens.md): entity/:id and entity/:id/documents. */
export function EntityLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation('screens');
  return (
    <SectionLayout
      label={t('entity.nav')}
      sections={[
        { path: '/', label: t('entity.status'), icon: 'office' },
        { path: '/documents', label: t('entity.documents'), icon: 'document' },
      ]}
    >
      {children}
    </SectionLayout>
  );
}
