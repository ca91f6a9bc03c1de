import { AnchorButton, Callout, H2, Intent } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type screens from '../../../locales/en-US/screens.json';
import { usePageTitle } from '../app/usePageTitle';

export type ScreenName = keyof typeof screens;

/** A screen that a later issue fills in: its title and what will be there, in the user's language. */
export function Placeholder({ screen }: { screen: ScreenName }) {
  const { t } = useTranslation('screens');
  const { t: tc } = useTranslation();
  const title = t(`${screen}.title`);
  usePageTitle(title);
  return (
    <section className="studio-page" aria-labelledby="page-title">
      <H2 id="page-title">{title}</H2>
      <Callout intent={Intent.PRIMARY} icon="info-sign" title={tc('placeholder.badge')}>
        {t(`${screen}.description`)}
      </Callout>
      <Link href="~/" asChild>
        <AnchorButton
          role="link"
          variant="minimal"
          icon="home"
          text={tc('placeholder.back')}
          className="studio-back"
        />
      </Link>
    </section>
  );
}
