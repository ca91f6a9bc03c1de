import { Classes } from '@blueprintjs/core';
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
      {/* Blueprint's Card and H2 markup: their modules are not worth a request on the sign-in page. */}
      <div
        className={`${Classes.CARD} ${Classes.ELEVATION_2} studio-auth-card${wide ? ' studio-auth-card-wide' : ''}`}
      >
        <div className="studio-auth-brand">{t('app.name')}</div>
        <h2 className={Classes.HEADING}>{title}</h2>
        {children}
      </div>
    </main>
  );
}
