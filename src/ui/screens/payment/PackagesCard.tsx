import { Button, Callout, Card, H4, H5, Icon, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isService } from '#contract/constants';
import { MINIMUM_COMMITMENT_VERIFICATIONS, type Package, type Plan } from '#contract/payments';
import { BASE_SERVICES } from '#contract/signup';
import { DAY_MS } from '#contract/time';
import { buyPackage } from '../../../services/api/payments';
import { useActiveAccount } from '../../app/useAccounts';
import { Alert } from '../../components/Dialog';
import { useFormat } from '../../format';
import { CustomPriceDialog } from './CustomPriceDialog';
import { checkoutLocale, studioReturnUrl, usePaymentErrorText } from './format';

/** The paid period that buying now would replace, with what is left of it; null when none runs. */
export function runningPeriod(plan: Plan | undefined, now = Date.now()) {
  if (!plan?.package || plan.payment_status !== 'paid' || !plan.period_end) return null;
  const end = Date.parse(plan.period_end);
  if (!(end > now)) return null;
  const included = plan.included_verifications ?? plan.package.verifications;
  return {
    current: plan.package,
    end: plan.period_end,
    daysLeft: Math.ceil((end - now) / DAY_MS),
    included,
    left: Math.max(0, included - plan.used_verifications),
  };
}

/**
 * The packages on offer with their prices. Buying asks for a confirmation, creates a checkout session and
 * sends the browser to the payment provider's checkout; it comes back on /return.
 */
export function PackagesCard({
  packages,
  plan,
}: {
  packages: UseQueryResult<Package[]>;
  /** The company's plan: a running paid period makes buying a replacement that must be confirmed. */
  plan: Plan | undefined;
}) {
  const { t, i18n } = useTranslation('payment');
  const { t: tc } = useTranslation();
  const { t: ts } = useTranslation('signup');
  const account = useActiveAccount();
  const errorText = usePaymentErrorText();
  const { money, date } = useFormat();
  const currentPackageId = plan?.package?.id ?? null;
  const running = runningPeriod(plan);
  const [confirming, setConfirming] = useState<Package | null>(null);
  const [redirecting, setRedirecting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [customOpen, setCustomOpen] = useState(false);

  const checkout = async () => {
    const pkg = confirming;
    // A purchase needs the package and the account's region server.
    if (!pkg || !account?.server) {
      setConfirming(null);
      setProblem(tc('messages.packageAndRegionNeeded'));
      return;
    }
    setRedirecting(true);
    setProblem(null);
    try {
      const session = await buyPackage(pkg.id, studioReturnUrl(), checkoutLocale(i18n.language), {
        replaceCurrentPlan: running !== null,
      });
      window.location.assign(session.checkout_url);
    } catch (error) {
      setRedirecting(false);
      setConfirming(null);
      setProblem(errorText(error));
    }
  };

  let body: React.ReactNode;
  if (packages.isPending) body = <Spinner size={24} aria-label={t('packages.title')} />;
  else if (packages.isError)
    body = (
      <Callout intent="danger" title={t('packages.loadFailed')}>
        <p>{errorText(packages.error)}</p>
        <Button icon="refresh" onClick={() => void packages.refetch()} text={t('return.checkAgain')} />
      </Callout>
    );
  else if (packages.data.length === 0)
    body = (
      <NonIdealState
        icon="shopping-cart"
        title={t('packages.empty')}
        description={t('packages.emptyHint')}
        action={
          <Button icon="envelope" text={t('packages.requestPrice')} onClick={() => setCustomOpen(true)} />
        }
      />
    );
  else
    body = (
      <ul className="studio-payment-packages" aria-label={t('packages.title')}>
        {packages.data.map((pkg) => (
          <li key={pkg.id}>
            <Card className="studio-payment-package" data-testid={`package-${pkg.id}`}>
              <H5>
                {pkg.name}{' '}
                {pkg.id === currentPackageId && (
                  <Tag intent="success" minimal>
                    {t('packages.current')}
                  </Tag>
                )}
              </H5>
              <span className="studio-payment-price">
                {pkg.is_custom ? t('packages.custom') : money(pkg.price, pkg.currency)}
              </span>
              {!pkg.is_custom && (
                <span className="studio-muted">{t('packages.perPeriod', { days: pkg.period_days })}</span>
              )}
              <span>
                {pkg.is_custom
                  ? t('packages.customHint', {
                      min: Math.max(pkg.verifications, MINIMUM_COMMITMENT_VERIFICATIONS),
                    })
                  : t('packages.verifications', { count: pkg.verifications })}
              </span>
              {!pkg.is_custom && (
                <ul className="studio-payment-services" aria-label={ts('package.includes')}>
                  {(pkg.services ?? BASE_SERVICES).filter(isService).map((service) => (
                    <li key={service}>
                      <Icon icon="small-tick" intent="success" />
                      {ts(`package.services.${service}`)}
                    </li>
                  ))}
                </ul>
              )}
              <div className="studio-payment-actions">
                {pkg.is_custom ? (
                  <Button
                    icon="envelope"
                    text={t('packages.requestPrice')}
                    onClick={() => setCustomOpen(true)}
                  />
                ) : (
                  <Button
                    intent="primary"
                    icon="credit-card"
                    text={t('packages.buy', { name: pkg.name })}
                    disabled={redirecting}
                    onClick={() => {
                      setProblem(null);
                      setConfirming(pkg);
                    }}
                  />
                )}
              </div>
            </Card>
          </li>
        ))}
      </ul>
    );

  return (
    <Card>
      <div className="studio-payment-head">
        <div>
          <H4>{t('packages.title')}</H4>
          <p className="studio-muted">{t('packages.intro')}</p>
        </div>
      </div>
      {problem && (
        <Callout intent="danger" role="alert">
          {problem}
        </Callout>
      )}
      {body}
      <Alert
        isOpen={confirming !== null}
        intent="primary"
        icon="credit-card"
        confirmButtonText={running ? t('packages.replace.confirm') : t('packages.confirm')}
        cancelButtonText={t('packages.cancel')}
        loading={redirecting}
        onConfirm={() => void checkout()}
        onCancel={() => setConfirming(null)}
        canEscapeKeyCancel={!redirecting}
      >
        {confirming && !running && (
          <>
            <H5>{t('packages.confirmTitle', { name: confirming.name })}</H5>
            <p>
              {t('packages.confirmText', {
                name: confirming.name,
                price: money(confirming.price, confirming.currency),
                days: confirming.period_days,
                count: confirming.verifications,
              })}
            </p>
          </>
        )}
        {confirming && running && (
          <div data-testid="plan-change">
            <H5>
              {confirming.id === running.current.id
                ? t('packages.replace.titleSame', { name: confirming.name })
                : t('packages.replace.title', { current: running.current.name, name: confirming.name })}
            </H5>
            <p>
              {t('packages.replace.now', {
                current: running.current.name,
                end: date(running.end),
                left: running.left,
                included: running.included,
              })}
            </p>
            <ul>
              <li>
                <strong>{t('packages.replace.loseLabel')}</strong>{' '}
                {t('packages.replace.lose', { count: running.daysLeft, left: running.left })}
              </li>
              <li>
                <strong>{t('packages.replace.keepLabel')}</strong> {t('packages.replace.keep')}
              </li>
              <li>
                <strong>{t('packages.replace.getLabel')}</strong>{' '}
                {t('packages.replace.get', {
                  name: confirming.name,
                  count: confirming.verifications,
                  days: confirming.period_days,
                  end: date(new Date(Date.now() + confirming.period_days * DAY_MS)),
                  price: money(confirming.price, confirming.currency),
                })}
              </li>
            </ul>
            {confirming.verifications < running.included && (
              <Callout intent="warning" icon="warning-sign">
                {t('packages.replace.smaller', {
                  name: confirming.name,
                  current: running.current.name,
                  end: date(running.end),
                })}
              </Callout>
            )}
          </div>
        )}
      </Alert>
      <CustomPriceDialog isOpen={customOpen} onClose={() => setCustomOpen(false)} />
    </Card>
  );
}
