import { Callout } from '@blueprintjs/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getPlan, listPackages, paymentKeys } from '../../../services/api/payments';
import { useActiveAccount } from '../../app/useAccounts';
import { HistoryCard } from './HistoryCard';
import { PackagesCard } from './PackagesCard';
import { PlanCard } from './PlanCard';
import './icons';
import './payment.css';

/** The tab's title in the company settings (its texts live in the `payment` namespace). */
export function PlanTabTitle() {
  const { t } = useTranslation('payment');
  return <>{t('tab')}</>;
}

/**
 * The Plan and payment tab of /company-settings: the current plan and its use, the packages
 * with their prices (bought through the payment provider's checkout), a custom-price request from 1000
 * verifications (docs/product/constants.md) and the payment history with receipts.
 */
export function PlanTab() {
  const { t } = useTranslation();
  const account = useActiveAccount();
  const plan = useQuery({ queryKey: paymentKeys.plan(), queryFn: ({ signal }) => getPlan({ signal }) });
  const packages = useQuery({
    queryKey: paymentKeys.packages(),
    queryFn: ({ signal }) => listPackages({ signal }),
  });
  return (
    <div className="studio-payment">
      {!account?.server && (
        <Callout intent="warning" role="alert">
          {t('messages.packageAndRegionNeeded')}
        </Callout>
      )}
      <PlanCard plan={plan} />
      <PackagesCard packages={packages} plan={plan.data} />
      <HistoryCard />
    </div>
  );
}
