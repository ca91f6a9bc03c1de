/**
 * The payment provider, shaped after real hosted-checkout APIs (Stripe Checkout Sessions, Adyen sessions,
 * Mollie payments): the server creates a checkout session, sends the customer's browser to its address,
 * and learns the outcome only from the provider's signed notification (never from the browser coming
 * back). The local payment service (payment-service/) is one adapter (./localProvider.ts), Stripe
 * another (./stripeProvider.ts, docs/decisions/0158-stripe-payment-adapter.md).
 */

/** Provider-neutral status of a session. */
export type CheckoutStatus = 'open' | 'paid' | 'declined' | 'expired';

export interface CreateCheckoutSessionParams {
  /** Minor units (cents). */
  amount: number;
  currency: string;
  /** What is bought, the checkout's heading: the package's name. */
  name: string;
  /** The line item's text in the checkout's language, e.g. "2,000 verifications for 30 days". */
  description: string;
  /** Where the browser goes after paying or a decline; `{CHECKOUT_SESSION_ID}` is replaced by the id. */
  successUrl: string;
  /** Where the browser goes when the customer cancels. */
  cancelUrl: string;
  /** The checkout page's language (`en` or `tr`). */
  locale: 'en' | 'tr';
  /** When the session stops being payable. */
  expiresAt: Date;
  /** Our reference (the payment row), echoed in notifications. */
  reference: string;
  metadata: Record<string, string>;
}

export interface CheckoutSession {
  id: string;
  /** The hosted checkout page. */
  url: string;
  status: CheckoutStatus;
  amount: number;
  currency: string;
  expiresAt: Date;
  reference: string | null;
  metadata: Record<string, string>;
  paidAt: Date | null;
  /** The provider's receipt page of a paid session. */
  receiptUrl: string | null;
  /** Why the payment was declined (`card_declined`, `authentication_failed` …). */
  declineCode: string | null;
  /** Minor units refunded so far (0: none); only a `session.refunded` notification raises it. */
  refundedAmount: number;
}

/** A verified notification: one session's new state. */
export interface PaymentNotification {
  /** Unique per event; retries of one event keep it. */
  id: string;
  type: 'session.paid' | 'session.declined' | 'session.expired' | 'session.refunded' | 'other';
  session: CheckoutSession;
}

export interface PaymentProvider {
  /** The adapter's name, kept with each payment. */
  readonly name: string;
  createCheckoutSession(params: CreateCheckoutSessionParams): Promise<CheckoutSession>;
  retrieveCheckoutSession(id: string): Promise<CheckoutSession>;
  /**
   * Checks a notification's signature and age against the raw body and headers; throws
   * `NotificationRefused` for a forged, altered or stale one. Asynchronous because an adapter may have to
   * read the session back (Stripe's refund is an event about a charge, not about the session).
   */
  verifyNotification(
    rawBody: string,
    headers: Record<string, string | string[] | undefined>,
  ): Promise<PaymentNotification>;
}

export class NotificationRefused extends Error {
  constructor(detail: string) {
    super(detail);
    this.name = 'NotificationRefused';
  }
}

/** The provider could not be reached or refused a call (the studio shows "An error occured"). */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}
