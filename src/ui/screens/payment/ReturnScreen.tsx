import { AnchorButton, Button, Callout, Card, H2, NonIdealState, Spinner } from '@blueprintjs/core';
import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearch } from 'wouter';
import { fromPromise } from 'xstate';
import type { BuyPackageReply, SessionStatus } from '#contract/payments';
import { paymentReturnMachine } from '../../../machines/paymentReturn.machine';
import { buyPackage, getSessionStatus, paymentKeys } from '../../../services/api/payments';
import { usePageTitle } from '../../app/usePageTitle';
import { checkoutLocale, studioReturnUrl, usePaymentErrorText } from './format';
import './icons';
import './payment.css';

/**
 * /return (docs/product/screens.md): where the checkout sends the browser back (the root path forwards `session_id` here). It
 * shows what the studio's server knows from the provider's signed notification: paid, declined (try
 * again), expired, or pending while the notification is on its way.
 */
export function ReturnScreen() {
  const { t } = useTranslation('payment');
  usePageTitle(t('return.title'));
  const sessionId = new URLSearchParams(useSearch()).get('session_id')?.trim() ?? '';
  return (
    <section className="studio-page studio-payment-return" aria-labelledby="page-title">
      <H2 id="page-title">{t('return.title')}</H2>
      {sessionId ? (
        <ReturnResult key={sessionId} sessionId={sessionId} />
      ) : (
        <NonIdealState
          icon="credit-card"
          title={t('return.missing')}
          description={t('return.missingHint')}
          action={<BackToPlan />}
        />
      )}
    </section>
  );
}

function BackToPlan({ primary = false }: { primary?: boolean }) {
  const { t } = useTranslation('payment');
  return (
    <Link href="/company-settings?tab=plan" asChild>
      <AnchorButton intent={primary ? 'primary' : 'none'} text={t('return.backToPlan')} />
    </Link>
  );
}

function ReturnResult({ sessionId }: { sessionId: string }) {
  const { t, i18n } = useTranslation('payment');
  const { t: tc } = useTranslation();
  const errorText = usePaymentErrorText();
  const queryClient = useQueryClient();
  const machine = useMemo(
    () =>
      paymentReturnMachine.provide({
        actors: {
          fetchStatus: fromPromise<SessionStatus, { sessionId: string }>(({ input, signal }) =>
            getSessionStatus(input.sessionId, { signal }),
          ),
          startCheckout: fromPromise<BuyPackageReply, { packageId: number }>(({ input, signal }) =>
            // Try again repeats the purchase the user confirmed before the checkout (a running plan's
            // replacement included).
            buyPackage(input.packageId, studioReturnUrl(), checkoutLocale(i18n.language), {
              signal,
              replaceCurrentPlan: true,
            }),
          ),
        },
        actions: {
          goToCheckout: (_, url: string) => window.location.assign(url),
          planChanged: () => void queryClient.invalidateQueries({ queryKey: paymentKeys.all }),
        },
      }),
    [i18n.language, queryClient],
  );
  const [state, send] = useMachine(machine, { input: { sessionId } });
  const session = state.context.session;
  const packageName = session?.package?.name ?? '';

  if (state.matches('checking') && !session)
    return <NonIdealState icon={<Spinner size={40} />} title={t('return.checking')} />;

  if (state.matches('failed'))
    return (
      <Callout intent="danger" title={t('return.loadFailed')} role="alert">
        <p>{errorText(state.context.error)}</p>
        <div className="studio-payment-actions">
          <Button
            icon="refresh"
            text={t('return.checkAgain')}
            onClick={() => send({ type: 'status.recheck' })}
          />
          <BackToPlan />
        </div>
      </Callout>
    );

  if (state.matches('paid') && session)
    return (
      <Card>
        <NonIdealState
          icon="tick-circle"
          title={t('return.paidTitle')}
          description={
            <>
              <p>{t('return.paidText', { package: packageName })}</p>
              {session.receipt_number && (
                <p>
                  {session.receipt_url ? (
                    <a href={session.receipt_url} target="_blank" rel="noopener noreferrer">
                      {t('return.receipt', { number: session.receipt_number })}
                    </a>
                  ) : (
                    t('return.receipt', { number: session.receipt_number })
                  )}
                </p>
              )}
            </>
          }
          action={<BackToPlan primary />}
        />
      </Card>
    );

  if (state.hasTag('pending'))
    return (
      <Card>
        <NonIdealState
          icon="time"
          title={t('return.pendingTitle')}
          description={
            // The server read the session back from the provider: the money is there, its signed
            // notification (which alone changes the plan) not yet.
            session?.provider_status === 'paid'
              ? t('return.receivedText')
              : state.matches('pending')
                ? t('return.stillPending')
                : t('return.pendingText')
          }
          action={
            <div className="studio-payment-actions">
              {state.matches('pending') ? (
                <Button
                  intent="primary"
                  icon="refresh"
                  text={t('return.checkAgain')}
                  onClick={() => send({ type: 'status.recheck' })}
                />
              ) : (
                <Spinner size={20} />
              )}
              <BackToPlan />
            </div>
          }
        />
      </Card>
    );

  // Declined or expired (also while a new checkout is being created, or after that failed).
  const declined = session?.status === 'declined';
  const reason = declined && session?.decline_code ? declineReason(t, session.decline_code) : null;
  return (
    <Card>
      <NonIdealState
        icon="error"
        title={declined ? t('return.declinedTitle') : t('return.expiredTitle')}
        description={
          <>
            <p>
              {declined
                ? t('return.declinedText', { package: packageName })
                : t('return.expiredText', { package: packageName })}
            </p>
            {reason && <p>{reason}</p>}
            {!session?.package && (
              <Callout intent="warning" role="alert">
                {tc('messages.packageAndRegionNeeded')}
              </Callout>
            )}
            {state.matches('retryFailed') && (
              <Callout intent="danger" role="alert">
                {errorText(state.context.error)}
              </Callout>
            )}
          </>
        }
        action={
          <div className="studio-payment-actions">
            {session?.package && (
              <Button
                intent="primary"
                icon="credit-card"
                text={t('return.tryAgain')}
                loading={state.hasTag('busy')}
                onClick={() => send({ type: 'checkout.retried' })}
              />
            )}
            <BackToPlan />
          </div>
        }
      />
    </Card>
  );
}

type T = ReturnType<typeof useTranslation<'payment'>>['t'];
function declineReason(t: T, code: string): string | null {
  if (code === 'card_declined') return t('return.declineCodes.card_declined');
  if (code === 'authentication_failed') return t('return.declineCodes.authentication_failed');
  return null;
}
