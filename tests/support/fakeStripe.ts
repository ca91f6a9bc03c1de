import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local fake of the part of Stripe's HTTP API the Stripe adapter uses (docs/decisions/0158): create,
 * retrieve and list Checkout Sessions, with the SDK's form-encoded bodies and its Bearer secret key. The test
 * plays the customer and Stripe's back office through `complete`, `expire`, `refund`: each changes the session
 * as Stripe would and answers the event JSON Stripe would send, which the test signs with the SDK's
 * `webhooks.generateTestHeaderString` and posts to the studio's notification route.
 */
export interface FakeStripe {
  /** `http://127.0.0.1:<port>`: STRIPE_API_BASE. */
  url: string;
  /** The create parameters of each session, as the fake decoded them. */
  created: Map<string, Record<string, unknown>>;
  /** Every request, method and path (with query). */
  requests: { method: string; path: string; authorization: string | undefined }[];
  /** The key the fake accepts (a test rolls it, as the dashboard would, to see a 401). */
  secretKey: string;
  /** Answers every API call with this status and a Stripe error body until set back to null. */
  failWith: number | null;
  complete(sessionId: string, paymentStatus?: 'paid' | 'unpaid'): StripeEvent;
  asyncPaymentSucceeded(sessionId: string): StripeEvent;
  expire(sessionId: string): StripeEvent;
  refund(sessionId: string, amount: number): StripeEvent;
  close(): Promise<void>;
}

export interface StripeEvent {
  id: string;
  object: 'event';
  type: string;
  created: number;
  data: { object: Record<string, unknown> };
  [key: string]: unknown;
}

const randomId = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;
const now = () => Math.floor(Date.now() / 1000);

/** `a[b][0][c]=1` → { a: { b: [{ c: '1' }] } }: how the SDK encodes nested parameters. */
export function decodeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> | unknown[] = root;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[i + 1] ?? '');
      const slot = node as Record<string, unknown>;
      if (last) slot[part] = value;
      else {
        slot[part] ??= nextIsIndex ? [] : {};
        node = slot[part] as Record<string, unknown>;
      }
    });
  }
  return root;
}

const stripeError = (
  response: ServerResponse,
  status: number,
  message: string,
  type = 'invalid_request_error',
) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ error: { message, type } }));
};

export async function startFakeStripe(secretKey: string): Promise<FakeStripe> {
  const sessions = new Map<string, Record<string, unknown>>();
  const created = new Map<string, Record<string, unknown>>();
  const requests: FakeStripe['requests'] = [];
  /** Refunded so far per session (Stripe keeps it on the charge). */
  const refunds = new Map<string, number>();
  let base = '';

  const event = (type: string, object: Record<string, unknown>): StripeEvent => ({
    id: randomId('evt'),
    object: 'event',
    api_version: '2026-10-28.endive',
    created: now(),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object: structuredClone(object) },
  });
  const sessionOf = (id: string) => {
    const session = sessions.get(id);
    if (!session) throw new Error(`the fake has no session ${id}`);
    return session;
  };

  function createSession(params: Record<string, unknown>, response: ServerResponse) {
    const items = params.line_items as
      | { quantity?: string; price_data?: Record<string, unknown> }[]
      | undefined;
    const price = items?.[0]?.price_data as
      | { currency?: string; unit_amount?: string; product_data?: { name?: string } }
      | undefined;
    if (params.mode !== 'payment') return stripeError(response, 400, 'Missing required param: mode.');
    if (!price?.currency || !price.unit_amount || !price.product_data?.name)
      return stripeError(response, 400, 'Missing required param: line_items[0][price_data].');
    if (typeof params.success_url !== 'string') return stripeError(response, 400, 'Missing success_url.');
    const expiresAt = Number(params.expires_at ?? now() + 86_400);
    if (expiresAt < now() + 30 * 60 || expiresAt > now() + 24 * 3600)
      return stripeError(
        response,
        400,
        'The `expires_at` timestamp must be between 30 minutes and 24 hours.',
      );
    const id = randomId('cs');
    const session = {
      id,
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_subtotal: Number(price.unit_amount) * Number(items?.[0]?.quantity ?? 1),
      amount_total: Number(price.unit_amount) * Number(items?.[0]?.quantity ?? 1),
      currency: price.currency,
      client_reference_id: params.client_reference_id ?? null,
      metadata: params.metadata ?? {},
      locale: params.locale ?? null,
      expires_at: expiresAt,
      created: now(),
      livemode: false,
      payment_intent: null,
      success_url: params.success_url,
      cancel_url: params.cancel_url ?? null,
      url: `${base}/c/pay/${id}`,
    };
    sessions.set(id, session);
    created.set(id, params);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(session));
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    const url = new URL(request.url ?? '/', base);
    requests.push({
      method: request.method ?? '',
      path: url.pathname + url.search,
      authorization: request.headers.authorization,
    });
    if (request.headers.authorization !== `Bearer ${fake.secretKey}`)
      return stripeError(response, 401, 'Invalid API Key provided: sk_test_****');
    if (fake.failWith !== null)
      return stripeError(response, fake.failWith, 'Something went wrong', 'api_error');
    const match = /^\/v1\/checkout\/sessions(?:\/([\w-]+))?$/.exec(url.pathname);
    if (!match)
      return stripeError(response, 404, `Unrecognized request URL (${request.method}: ${url.pathname}).`);
    const [, id] = match;
    if (request.method === 'POST' && !id) return createSession(decodeForm(body), response);
    if (request.method === 'GET' && id) {
      const session = sessions.get(id);
      if (!session) return stripeError(response, 404, `No such checkout.session: '${id}'`);
      response.writeHead(200, { 'content-type': 'application/json' });
      return response.end(JSON.stringify(session));
    }
    if (request.method === 'GET' && !id) {
      const intent = url.searchParams.get('payment_intent');
      const data = [...sessions.values()].filter((s) => !intent || s.payment_intent === intent);
      response.writeHead(200, { 'content-type': 'application/json' });
      return response.end(
        JSON.stringify({
          object: 'list',
          data: data.slice(0, Number(url.searchParams.get('limit') ?? 10)),
          has_more: false,
          url: '/v1/checkout/sessions',
        }),
      );
    }
    return stripeError(response, 405, 'Method not allowed');
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) =>
      stripeError(response, 500, String(error), 'api_error'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake: FakeStripe = {
    url: base,
    secretKey,
    created,
    requests,
    failWith: null,
    complete(sessionId, paymentStatus = 'paid') {
      const session = sessionOf(sessionId);
      Object.assign(session, {
        status: 'complete',
        payment_status: paymentStatus,
        payment_intent: randomId('pi'),
        url: null,
      });
      return event('checkout.session.completed', session);
    },
    asyncPaymentSucceeded(sessionId) {
      const session = sessionOf(sessionId);
      session.payment_status = 'paid';
      return event('checkout.session.async_payment_succeeded', session);
    },
    expire(sessionId) {
      const session = sessionOf(sessionId);
      Object.assign(session, { status: 'expired', url: null });
      return event('checkout.session.expired', session);
    },
    refund(sessionId, amount) {
      const session = sessionOf(sessionId);
      const refunded = (refunds.get(sessionId) ?? 0) + amount;
      refunds.set(sessionId, refunded);
      const total = Number(session.amount_total);
      return event('charge.refunded', {
        id: `ch_for_${session.payment_intent}`,
        object: 'charge',
        amount: total,
        amount_captured: total,
        amount_refunded: refunded,
        currency: session.currency,
        payment_intent: session.payment_intent,
        paid: true,
        refunded: refunded >= total,
        status: 'succeeded',
        created: now(),
        livemode: false,
      });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // The SDK keeps its connections alive: close them, or `close` waits for their time-out.
        server.closeAllConnections();
      }),
  };
  return fake;
}
