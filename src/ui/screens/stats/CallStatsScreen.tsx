import { AnchorButton, H2 } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { usePageTitle } from '../../app/usePageTitle';
import { CallReport } from './CallReport';

/** /calls/report: the detailed call statistics on a page of their own (the calls screen shows them too). */
export function CallStatsScreen() {
  const { t } = useTranslation('stats');
  const title = t('callStats.title');
  usePageTitle(title);
  return (
    <section className="studio-page studio-page-wide" aria-labelledby="page-title">
      <div className="studio-section-title">
        <H2 id="page-title">{title}</H2>
        <Link href="~/calls" asChild>
          <AnchorButton role="link" variant="minimal" icon="arrow-left" text={t('callStats.back')} />
        </Link>
      </div>
      <CallReport showTitle={false} />
    </section>
  );
}
