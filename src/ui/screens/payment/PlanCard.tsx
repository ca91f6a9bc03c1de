import { Button, Callout, Card, H4, NonIdealState, ProgressBar, Spinner, Tag } from '@blueprintjs/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Plan } from '#contract/payments';
import { useFormat } from '../../format';
import { useMoney, usePaymentErrorText } from './format';

/** The company's plan: package, paid period, and verifications used in it against those included. */
export function PlanCard({ plan }: { plan: UseQueryResult<Plan> }) {
  const { t } = useTranslation('payment');
  const errorText = usePaymentErrorText();
  const money = useMoney();
  const formatDate = useFormat().date;

  let body: React.ReactNode;
  if (plan.isPending) body = <Spinner size={24} aria-label={t('plan.title')} />;
  else if (plan.isError)
    body = (
      <Callout intent="danger" title={t('plan.loadFailed')}>
        <p>{errorText(plan.error)}</p>
        <Button icon="refresh" onClick={() => void plan.refetch()} text={t('return.checkAgain')} />
      </Callout>
    );
  else if (!plan.data.package)
    body = <NonIdealState icon="credit-card" title={t('plan.none')} description={t('plan.noneHint')} />;
  else {
    const { package: pkg, included_verifications: included, used_verifications: used } = plan.data;
    const limit = included ?? pkg.verifications;
    const over = used - limit;
    body = (
      <div data-testid="current-plan">
        <p className="studio-payment-plan-name">
          <strong>{pkg.name}</strong>
          <Tag intent={plan.data.payment_status === 'paid' ? 'success' : 'warning'} minimal>
            {plan.data.payment_status === 'paid'
              ? t('plan.paymentStatus.paid')
              : t('plan.paymentStatus.unpaid')}
          </Tag>
        </p>
        <p className="studio-muted">
          {pkg.is_custom
            ? t('plan.customPrice')
            : t('plan.price', { price: money(pkg.price, pkg.currency), days: pkg.period_days })}
        </p>
        <p>
          {plan.data.period_start && plan.data.period_end
            ? t('plan.period', {
                start: formatDate(plan.data.period_start),
                end: formatDate(plan.data.period_end),
              })
            : t('plan.noPeriod')}
        </p>
        <div className="studio-payment-usage">
          <ProgressBar
            value={limit > 0 ? Math.min(1, used / limit) : 0}
            intent={over > 0 ? 'danger' : used / Math.max(limit, 1) > 0.8 ? 'warning' : 'primary'}
            stripes={false}
            animate={false}
            aria-label={t('plan.usageLabel')}
            aria-valuetext={t('plan.usage', { used, included: limit })}
          />
          <p>{t('plan.usage', { used, included: limit })}</p>
          {over > 0 && <p className="studio-payment-over">{t('plan.over', { count: over })}</p>}
        </div>
      </div>
    );
  }
  return (
    <Card>
      <H4>{t('plan.title')}</H4>
      {body}
    </Card>
  );
}
