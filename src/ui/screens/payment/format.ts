import { useTranslation } from 'react-i18next';
import type { Payment, PaymentStatus } from '#contract/payments';
import { isApiError } from '../../../services/api/http';
import { useFormat } from '../../format';

/** An amount in minor units (cents) in the interface language. */
export const useMoney = () => useFormat().money;

export const STATUS_INTENT: Record<PaymentStatus, 'success' | 'danger' | 'warning' | 'none'> = {
  paid: 'success',
  declined: 'danger',
  expired: 'none',
  open: 'warning',
};

/** A paid payment the provider refunded whole (a partial refund shows its amount). */
export const refundedInFull = (payment: Pick<Payment, 'amount' | 'refunded_amount'>) =>
  payment.refunded_amount >= payment.amount;

/** The server's detail when it sent one (docs/product/errors.md), else "An error occured". */
export function usePaymentErrorText() {
  const { t } = useTranslation();
  return (error: unknown) => (isApiError(error) && error.detail ? error.detail : t('messages.error'));
}

/** The checkout's language: the interface's. */
export const checkoutLocale = (language: string): 'en-US' | 'tr' =>
  language.startsWith('tr') ? 'tr' : 'en-US';

/** Where the checkout sends the browser back: the studio's root (which forwards `session_id` to /return). */
export const studioReturnUrl = () => `${window.location.origin}/`;
