import { AnchorButton } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';

/** The way back to the calls list from a call that ended, was taken by another agent or failed. */
export function BackToCalls() {
  const { t } = useTranslation('calls');
  return (
    <Link href="~/calls" asChild>
      <AnchorButton role="link" icon="arrow-left" text={t('call.backToCalls')} />
    </Link>
  );
}
