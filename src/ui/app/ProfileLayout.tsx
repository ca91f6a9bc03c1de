import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SectionLayout } from './SectionLayout';

/** The profile layout (docs/product/screens.md): profile/:id and its document, video and AML pages. */
export function ProfileLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation('screens');
  return (
    <SectionLayout
      label={t('profile.nav')}
      sections={[
        { path: '/', label: t('profile.info'), icon: 'person' },
        { path: '/amlHistory', label: t('profile.amlHistory'), icon: 'search' },
      ]}
    >
      {children}
    </SectionLayout>
  );
}
