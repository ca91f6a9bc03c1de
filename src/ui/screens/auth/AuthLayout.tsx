import { Card, Elevation, H2 } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../app/usePageTitle';
import { LanguageSelect, ThemeToggle } from '../../components/ShellControls';

/** The public pages (sign-in, password reset): a centred card with the language and theme controls. */
export function AuthLayout({
  title,
  wide = false,
  children,
}: {
  title: string;
  /** A wider card (the create-account packages). */
  wide?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  usePageTitle(title);
  return (
    // The page's main landmark (the signed-in shell has its own <main>): nothing outside a landmark.
    <main className="studio-auth">
      <div className="studio-auth-controls">
        <LanguageSelect />
        <ThemeToggle />
      </div>
      <Card
        elevation={Elevation.TWO}
        className={wide ? 'studio-auth-card studio-auth-card-wide' : 'studio-auth-card'}
      >
        <div className="studio-auth-brand">{t('app.name')}</div>
        <H2>{title}</H2>
        {children}
      </Card>
    </main>
  );
}
