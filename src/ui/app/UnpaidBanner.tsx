import { AnchorButton, Callout, Intent } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { Account } from '../../services/accounts';
import { getCompanyPaymentStatus, paymentKeys } from '../../services/api/payments';
import { canVisit } from '../../services/permissions';

/**
 * The unpaid-company policy: services start once the plan is paid. Until then every screen says so,
 * with the way to Plan and payment for those who may open it.
 */
export function UnpaidBanner({ account }: { account: Account }) {
  const { t } = useTranslation();
  const status = useQuery({
    queryKey: paymentKeys.companyStatus(account.company_id),
    queryFn: ({ signal }) => getCompanyPaymentStatus(account.company_id, { signal }),
    staleTime: 30_000,
  });
  if (status.data === undefined || status.data === 'paid') return null;
  const canPay = canVisit('/company-settings', account);
  return (
    <Callout
      className="studio-unpaid-banner"
      intent={Intent.WARNING}
      icon="credit-card"
      role="status"
      title={t('unpaid.title')}
      data-testid="unpaid-banner"
    >
      <p>{t('unpaid.body')}</p>
      {canPay ? (
        <Link href="~/company-settings?tab=plan" asChild>
          <AnchorButton intent={Intent.PRIMARY} icon="credit-card" text={t('unpaid.action')} />
        </Link>
      ) : (
        <p>{t('unpaid.askAdmin')}</p>
      )}
    </Callout>
  );
}
