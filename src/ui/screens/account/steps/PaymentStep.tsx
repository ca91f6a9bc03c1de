import { Button, Callout, Card, Classes, Intent } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import type { SnapshotFrom } from 'xstate';
import type { createAccountMachine } from '../../../../machines/createAccount.machine';
import { type Send, usePrice } from './shared';

/** Paying for the chosen package at the provider's checkout, then signing in to the new account. */
export function PaymentStep({
  state,
  send,
}: {
  state: SnapshotFrom<typeof createAccountMachine>;
  send: Send;
}) {
  const { t } = useTranslation('signup');
  const price = usePrice();
  const { context } = state;
  const pkg = context.packages.find((p) => p.id === context.packageId);
  const busy = state.hasTag('busy');
  if (state.matches('signingIn'))
    return (
      <Callout intent={Intent.SUCCESS} icon="tick-circle">
        {t('payment.signingIn')}
      </Callout>
    );
  if (state.matches('signInFailed'))
    return (
      <div>
        <Callout intent={Intent.WARNING} icon="warning-sign" className="studio-auth-callout">
          {t('payment.signInFailed')}
        </Callout>
        <Button
          intent={Intent.PRIMARY}
          icon="refresh"
          text={t('retry')}
          onClick={() => send({ type: 'retry' })}
        />
      </div>
    );
  const amount = pkg ? price(pkg) : '';
  const checkout = state.matches({ payment: 'atCheckout' });
  const pending = state.matches({ payment: 'pending' });
  return (
    <div>
      {context.error === 'paymentDeclined' && (
        <Callout intent={Intent.DANGER} icon="error" className="studio-auth-callout" role="alert">
          {t('payment.declined')}
        </Callout>
      )}
      {context.error === 'paymentExpired' && (
        <Callout intent={Intent.WARNING} icon="warning-sign" className="studio-auth-callout" role="alert">
          {t('payment.expired')}
        </Callout>
      )}
      <p>{t('payment.intro')}</p>
      <Card className="studio-signup-summary">
        <strong>
          {pkg ? t('payment.summary', { plan: pkg.name, price: amount, days: pkg.period_days }) : null}
        </strong>
        <div className={Classes.TEXT_MUTED}>
          {t('payment.company', { name: context.profile.company_name })}
        </div>
      </Card>
      {checkout && <p role="status">{t('payment.atCheckout')}</p>}
      {pending && (
        <Callout intent={Intent.PRIMARY} icon="info-sign" className="studio-auth-callout" role="status">
          {t('payment.pending')}
        </Callout>
      )}
      <div className="studio-form-actions">
        <Button
          variant="minimal"
          icon="arrow-left"
          text={t('payment.changePlan')}
          onClick={() => send({ type: 'back' })}
          disabled={busy}
        />
        {checkout || pending ? (
          <>
            <Button
              text={pending ? t('payment.checkAgain') : t('payment.check')}
              loading={state.matches({ payment: 'checking' })}
              onClick={() => send({ type: 'payment.check' })}
            />
            <Button
              intent={Intent.PRIMARY}
              icon="credit-card"
              text={t('payment.openAgain')}
              onClick={() => send({ type: 'payment.start' })}
            />
          </>
        ) : (
          <Button
            intent={Intent.PRIMARY}
            icon="credit-card"
            text={t('payment.pay', { price: amount })}
            loading={busy}
            onClick={() => send({ type: 'payment.start' })}
          />
        )}
      </div>
    </div>
  );
}
