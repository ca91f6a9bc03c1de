import { AnchorButton, ButtonGroup } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';

/** The profile header's links to its two reports (pdf-basic, pdf-expand). */
export function ReportLinks({ profileId }: { profileId: number }) {
  const { t } = useTranslation('report');
  return (
    <ButtonGroup aria-label={t('links.label')}>
      <Link href={`~/pdf-basic/${profileId}`} asChild>
        <AnchorButton role="link" size="small" icon="document" text={t('links.basic')} />
      </Link>
      <Link href={`~/pdf-expand/${profileId}`} asChild>
        <AnchorButton role="link" size="small" icon="document" text={t('links.expanded')} />
      </Link>
    </ButtonGroup>
  );
}
