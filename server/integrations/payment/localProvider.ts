import { z } from 'zod';
import {
  type CheckoutSession,
  type CreateCheckoutSessionParams,
  NotificationRefused,
  type PaymentNotification,
  type PaymentProvider,
  PaymentProviderError,
} from './provider';
import { verifyStandardWebhook } from './standardWebhooks';

/** The local payment service's session, as its merchant API and its notifications carry it. */
const wireSession = z.object({
  id: z.string(),
  url: z.string(),
  status: z.enum(['open', 'complete', 'declined', 'expired']),
  payment_status: z.enum(['unpaid', 'paid']),
  amount_total: z.number().int(),
  currency: z.string(),
  client_reference_id: z.string().nullable(),
  metadata: z.record(z.string(), z.string()),
  expires_at: z.number().int(),
  completed_at: z.number().int().nullable(),
  receipt_url: z.string().nullable(),
  decline_code: z.string().nullable(),
});

const wireEvent = z.object({
  id: z.string(),
  type: z.string(),
  data: z.object({ object: wireSession }),
});

function toSession(wire: z.infer<typeof wireSession>): CheckoutSession {
  return {
    id: wire.id,
    url: wire.url,
    status:
      wire.status === 'complete' && wire.payment_status === 'paid'
        ? 'paid'
        : wire.status === 'complete'
          ? 'open'
          : wire.status,
    amount: wire.amount_total,
    currency: wire.currency,
    expiresAt: new Date(wire.expires_at * 1000),
    reference: wire.client_reference_id,
    metadata: wire.metadata,
    paidAt: wire.completed_at ? new Date(wire.completed_at * 1000) : null,
    receiptUrl: wire.receipt_url,
    declineCode: wire.decline_code,
    // The local service has no refunds.
    refundedAmount: 0,
  };
}

const EVENT_TYPES: Record<string, PaymentNotification['type']> = {
  'checkout.session.completed': 'session.paid',
  'checkout.session.payment_failed': 'session.declined',
  'checkout.session.expired': 'session.expired',
};

/** The adapter for the local payment service (payment-service/), over HTTP with the merchant API key. */
export function createLocalPaymentProvider(options: {
  serviceUrl: string;
  apiKey: string;
  webhookSecret: string;
  toleranceSeconds: number;
  fetch?: typeof fetch;
}): PaymentProvider {
  const doFetch = options.fetch ?? fetch;
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    let response: Response;
    try {
      response = await doFetch(`${options.serviceUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      throw new PaymentProviderError(`payment service unreachable: ${(error as Error).message}`, 502);
    }
    const text = await response.text();
    if (!response.ok)
      throw new PaymentProviderError(`payment service answered ${response.status}: ${text}`, response.status);
    return toSession(wireSession.parse(JSON.parse(text)));
  };

  return {
    name: 'local',
    createCheckoutSession(params: CreateCheckoutSessionParams) {
      return call('POST', '/v1/checkout/sessions', {
        line_items: [
          { name: params.name, description: params.description, quantity: 1, amount: params.amount },
        ],
        currency: params.currency,
        client_reference_id: params.reference,
        metadata: params.metadata,
        success_url: params.successUrl,
        cancel_url: params.cancelUrl,
        locale: params.locale,
        expires_at: Math.floor(params.expiresAt.getTime() / 1000),
      });
    },
    retrieveCheckoutSession(id: string) {
      return call('GET', `/v1/checkout/sessions/${encodeURIComponent(id)}`);
    },
    async verifyNotification(rawBody, headers) {
      const id = verifyStandardWebhook(options.webhookSecret, rawBody, headers, options.toleranceSeconds);
      let event: z.infer<typeof wireEvent>;
      try {
        event = wireEvent.parse(JSON.parse(rawBody));
      } catch {
        throw new NotificationRefused('Malformed notification body');
      }
      if (event.id !== id) throw new NotificationRefused('The notification id does not match its header');
      return { id, type: EVENT_TYPES[event.type] ?? 'other', session: toSession(event.data.object) };
    },
  };
}
