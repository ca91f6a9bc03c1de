import Stripe from 'stripe';
import { DAY_MS } from '#contract/time';
import {
  type CheckoutSession,
  type CreateCheckoutSessionParams,
  NotificationRefused,
  type PaymentProvider,
  PaymentProviderError,
} from './provider';

export interface StripeOptions {
  /** The account's secret key (`sk_live_…`, `sk_test_…` or a restricted `rk_…`): STRIPE_SECRET_KEY. */
  secretKey: string;
  /** The endpoint's signing secret (`whsec_…`) from the dashboard: STRIPE_WEBHOOK_SECRET. */
  webhookSecret: string;
  /** Another API address than https://api.stripe.com (a local fake in tests): STRIPE_API_BASE. */
  apiBase: string | undefined;
}

/** Stripe refuses an `expires_at` closer than 30 minutes or further than 24 hours from the session's creation. */
const MIN_LIFETIME_MS = 30 * 60_000 + 60_000;
const MAX_LIFETIME_MS = DAY_MS - 60_000;

/** The SDK's address settings from STRIPE_API_BASE (`http://127.0.0.1:12111`). */
function addressOf(apiBase: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiBase) return {};
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

const idOf = (value: string | { id: string } | null) =>
  typeof value === 'string' ? value : (value?.id ?? null);

/** Stripe's session in the provider-neutral shape: paid only when Stripe says the money is there. */
function toSession(session: Stripe.Checkout.Session, refundedAmount = 0): CheckoutSession {
  const paid = session.status === 'complete' && session.payment_status === 'paid';
  return {
    id: session.id,
    url: session.url ?? '',
    status: paid ? 'paid' : session.status === 'expired' ? 'expired' : 'open',
    amount: session.amount_total ?? 0,
    // Stripe writes currencies in lower case; the packages and our rows in upper case.
    currency: (session.currency ?? '').toUpperCase(),
    expiresAt: new Date(session.expires_at * 1000),
    reference: session.client_reference_id,
    metadata: session.metadata ?? {},
    // A Checkout Session has no completion time: the event that reports it carries it (set by the caller).
    paidAt: null,
    // Stripe's receipt belongs to the charge, which the session does not carry; Stripe mails it itself.
    receiptUrl: null,
    declineCode: null,
    refundedAmount,
  };
}

/** A failed call to Stripe: its status (401 bad key, 5xx) kept, the message without secrets. */
function providerError(error: unknown): PaymentProviderError {
  if (error instanceof Stripe.errors.StripeError)
    return new PaymentProviderError(
      `Stripe answered ${error.statusCode ?? 'nothing'}: ${error.message}`,
      502,
    );
  return new PaymentProviderError(`Stripe unreachable: ${(error as Error).message}`, 502);
}

/**
 * The Stripe adapter (docs/decisions/0158-stripe-payment-adapter.md): Checkout Sessions in `payment` mode with
 * one `price_data` line, notifications verified by the SDK's `webhooks.constructEvent` with the endpoint's
 * secret. The outcome comes from the signed events only; the browser's return carries nothing we believe.
 */
export function createStripePaymentProvider(
  options: StripeOptions & { toleranceSeconds: number },
): PaymentProvider {
  const stripe = new Stripe(options.secretKey, {
    ...addressOf(options.apiBase),
    timeout: 10_000,
    maxNetworkRetries: 1,
    telemetry: false,
  });

  const retrieve = async (id: string) => {
    try {
      return await stripe.checkout.sessions.retrieve(id);
    } catch (error) {
      throw providerError(error);
    }
  };

  /** The session that took a payment intent's money (a refund names the charge and its intent only). */
  const sessionOfIntent = async (paymentIntent: string) => {
    try {
      const list = await stripe.checkout.sessions.list({ payment_intent: paymentIntent, limit: 1 });
      return list.data[0] ?? null;
    } catch (error) {
      throw providerError(error);
    }
  };

  return {
    name: 'stripe',
    async createCheckoutSession(params: CreateCheckoutSessionParams) {
      const now = Date.now();
      const expiresAt = Math.min(
        Math.max(params.expiresAt.getTime(), now + MIN_LIFETIME_MS),
        now + MAX_LIFETIME_MS,
      );
      try {
        const session = await stripe.checkout.sessions.create({
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: params.currency.toLowerCase(),
                unit_amount: params.amount,
                product_data: { name: params.name, description: params.description },
              },
            },
          ],
          client_reference_id: params.reference,
          metadata: params.metadata,
          // The payment intent carries them too: a refund in the dashboard then shows whose package it was.
          payment_intent_data: { metadata: params.metadata },
          locale: params.locale,
          expires_at: Math.floor(expiresAt / 1000),
          success_url: params.successUrl,
          cancel_url: params.cancelUrl,
        });
        return toSession(session);
      } catch (error) {
        throw providerError(error);
      }
    },

    async retrieveCheckoutSession(id: string) {
      return toSession(await retrieve(id));
    },

    async verifyNotification(rawBody, headers) {
      const header = headers['stripe-signature'];
      const signature = Array.isArray(header) ? header[0] : header;
      if (!signature) throw new NotificationRefused('Missing Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          signature,
          options.webhookSecret,
          options.toleranceSeconds,
        );
      } catch (error) {
        if (error instanceof Stripe.errors.StripeSignatureVerificationError)
          throw new NotificationRefused(`Invalid Stripe signature: ${error.message}`);
        throw new NotificationRefused('Malformed notification body');
      }
      const at = new Date(event.created * 1000);
      // The account may sell other things too (a shop, another product): their sessions and charges are
      // acknowledged and left alone, or Stripe would retry a refused event for days.
      const other = { id: event.id, type: 'other' as const, session: otherSession(event) };
      const object = event.data.object as { object?: string; metadata?: Stripe.Metadata | null };
      if (object.object === 'checkout.session' && !isOurs(object)) return other;
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded': {
          // A completed session of a delayed method (a bank debit) is still unpaid: only `paid` counts.
          const session = toSession(event.data.object);
          return {
            id: event.id,
            type: 'session.paid',
            session: { ...session, paidAt: session.status === 'paid' ? at : null },
          };
        }
        case 'checkout.session.async_payment_failed': {
          const session = toSession(event.data.object);
          return {
            id: event.id,
            type: 'session.declined',
            session: { ...session, declineCode: 'payment_failed' },
          };
        }
        case 'checkout.session.expired':
          return { id: event.id, type: 'session.expired', session: toSession(event.data.object) };
        case 'charge.refunded': {
          const charge = event.data.object;
          const intent = idOf(charge.payment_intent);
          const found = intent ? await sessionOfIntent(intent) : null;
          if (!found || !isOurs(found)) return other;
          return {
            id: event.id,
            type: 'session.refunded',
            session: { ...toSession(found, charge.amount_refunded), paidAt: null },
          };
        }
        default:
          // Other events the endpoint may be sent: acknowledged, nothing applied.
          return other;
      }
    },
  };
}

/** A session this server created: it carries the company and package in its metadata. */
const isOurs = (session: { metadata?: Stripe.Metadata | null }) =>
  Boolean(session.metadata?.company_id && session.metadata.package_id);

/** An event we do not act on still needs a session shape for the record of its id; it matches no row. */
function otherSession(event: Stripe.Event): CheckoutSession {
  return {
    id: `${event.type}:${event.id}`,
    url: '',
    status: 'open',
    amount: 0,
    currency: '',
    expiresAt: new Date(event.created * 1000),
    reference: null,
    metadata: {},
    paidAt: null,
    receiptUrl: null,
    declineCode: null,
    refundedAmount: 0,
  };
}
