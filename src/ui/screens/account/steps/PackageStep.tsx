import { Button, Callout, Card, Classes, H4, Icon, Intent, Spinner, SpinnerSize } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { isService } from '#contract/constants';
import type { Package } from '#contract/payments';
import { BASE_SERVICES, CUSTOM_PRICE_FROM_VERIFICATIONS } from '#contract/signup';
import { type Send, usePrice } from './shared';

/** The packages to choose from. */
export function PackageStep({
  packages,
  loading,
  chosen,
  send,
}: {
  packages: Package[];
  loading: boolean;
  chosen: number | null;
  canGoBack: boolean;
  send: Send;
}) {
  const { t } = useTranslation('signup');
  const price = usePrice();
  if (loading) return <Spinner size={SpinnerSize.STANDARD} />;
  if (packages.length === 0) return <Callout intent={Intent.WARNING}>{t('package.empty')}</Callout>;
  return (
    <div>
      <p>{t('package.intro')}</p>
      <ul className="studio-signup-packages">
        {packages.map((pkg) => (
          <li key={pkg.id} aria-label={pkg.name}>
            <Card className={`studio-signup-package${chosen === pkg.id ? ' is-chosen' : ''}`}>
              <H4>{pkg.name}</H4>
              <div className="studio-signup-price">
                {pkg.is_custom ? (
                  t('package.custom')
                ) : (
                  <>
                    <strong>{price(pkg)}</strong>{' '}
                    <span className={Classes.TEXT_MUTED}>
                      {t('package.perPeriod', { days: pkg.period_days })}
                    </span>
                  </>
                )}
              </div>
              <p className={Classes.TEXT_MUTED}>
                {pkg.is_custom
                  ? t('package.customNote', { count: CUSTOM_PRICE_FROM_VERIFICATIONS })
                  : t('package.verifications', { count: pkg.verifications })}
              </p>
              {!pkg.is_custom && (
                <>
                  <div className={Classes.TEXT_MUTED}>{t('package.includes')}</div>
                  <ul className="studio-signup-services">
                    {(pkg.services ?? BASE_SERVICES).filter(isService).map((service) => (
                      <li key={service}>
                        <Icon icon="small-tick" intent={Intent.SUCCESS} />
                        {t(`package.services.${service}`)}
                      </li>
                    ))}
                  </ul>
                  <Button
                    intent={Intent.PRIMARY}
                    fill
                    variant={chosen === pkg.id ? 'solid' : 'outlined'}
                    text={t('package.choose', { name: pkg.name })}
                    onClick={() => send({ type: 'package.chosen', packageId: pkg.id })}
                  />
                </>
              )}
            </Card>
          </li>
        ))}
      </ul>
      <div className="studio-form-actions">
        <Button variant="minimal" text={t('startOver')} onClick={() => send({ type: 'restart' })} />
      </div>
    </div>
  );
}
