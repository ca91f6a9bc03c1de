import { timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createNotifier, type Deliver, type EventType, type Notifier } from './notifier';
import {
  authenticatePage,
  checkoutPage,
  closedPage,
  type FormState,
  notFoundPage,
  receiptPage,
} from './pages';
import {
  CURRENCIES,
  countries,
  industries,
  type Lang,
  langOf,
  MINIMUM_COMMITMENT_VERIFICATIONS,
} from './reference';
import {
  type CheckoutSession,
  cardOutcome,
  createSessionStore,
  newSessionId,
  type SessionStore,
} from './sessions';

export interface PaymentServiceOptions {
  /** Where browsers reach this service (the checkout address is built from it). */
  publicUrl: string;
  /** The merchant's secret API key (`Authorization: Bearer …` on /v1). */
  apiKey: string;
  /** Signs the notifications (Standard Webhooks `whsec_…`). */
  webhookSecret: string;
  /** The merchant's notification endpoint. */
  notifyUrl: string;
  /** Seconds before each retry of a notification that was not accepted. */
  retrySchedule?: number[];
  /** How often open sessions are checked for expiry (0: never by timer; tests call `sweep`). */
  sweepMs?: number;
  /** Keep sessions in this JSON file across restarts. */
  dataFile?: string;
  /** The clock, in milliseconds (tests move it). */
  now?: () => number;
  deliver?: Deliver;
  logLevel?: string;
}

export interface PaymentServiceState {
  sessions: SessionStore;
  notifier: Notifier;
  /** Expires every open session past its `expires_at` (and notifies the merchant). */
  sweep(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    payment: PaymentServiceState;
  }
}

/** Sessions live between 30 seconds and 24 hours; 30 minutes unless the merchant says otherwise. */
const DEFAULT_TTL_SECONDS = 30 * 60;

const lineItem = z.strictObject({
  /** What is bought (Stripe's `product_data.name`): the checkout page's heading. */
  name: z.string().trim().min(1).max(100).optional(),
  description: z.string().trim().min(1).max(200),
  quantity: z.number().int().min(1).max(1_000_000),
  /** Unit amount in minor units. */
  amount: z.number().int().min(1).max(100_000_000),
});

const createBody = z.strictObject({
  line_items: z.array(lineItem).min(1).max(10),
  currency: z.enum(CURRENCIES),
  client_reference_id: z.string().max(200).optional(),
  metadata: z.record(z.string().max(40), z.string().max(500)).optional(),
  success_url: z.url({ protocol: /^https?$/ }),
  cancel_url: z.url({ protocol: /^https?$/ }),
  locale: z.string().max(10).optional(),
  expires_at: z.number().int().optional(),
});

const idParams = z.strictObject({ id: z.string().regex(/^cs_test_[A-Za-z0-9_-]{10,64}$/) });
const langQuery = z.object({ lang: z.string().max(10).optional() });

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Stripe's placeholder in a success address, replaced by the session id. */
const withSessionId = (url: string, id: string) => url.replaceAll('{CHECKOUT_SESSION_ID}', id);

/**
 * The payment service: a stand-in for a card payment provider (docs/decisions/0069-payment-service.md).
 * Merchant API under /v1 (bearer API key), hosted checkout pages under /checkout, receipts, signed
 * notifications to the merchant, and the public reference data the studio reads (`GET /config`,
 * `GET /industry`).
 */
export async function buildPaymentService(options: PaymentServiceOptions): Promise<FastifyInstance> {
  const now = options.now ?? Date.now;
  const nowSeconds = () => Math.floor(now() / 1000);
  const sessions = createSessionStore(options.dataFile);
  const app = Fastify({
    logger: { level: options.logLevel ?? 'info', redact: ['req.headers.authorization'] },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const notifier = createNotifier({
    url: options.notifyUrl,
    secret: options.webhookSecret,
    retrySchedule: options.retrySchedule ?? [1, 5, 30, 120, 600, 1800],
    now,
    deliver: options.deliver,
    onError: (message) => app.log.warn(message),
  });

  const close = (session: CheckoutSession, status: CheckoutSession['status'], event: EventType) => {
    const closed: CheckoutSession = { ...session, status, requires_action: false };
    if (status === 'complete') {
      closed.payment_status = 'paid';
      closed.completed_at = nowSeconds();
      closed.receipt_url = `${options.publicUrl}/receipts/${session.id}`;
    }
    sessions.put(closed);
    notifier.send(event, closed);
    return closed;
  };
  /** The session as it stands now: an open one past its end is expired first. */
  const current = (id: string): CheckoutSession | undefined => {
    const session = sessions.get(id);
    if (session?.status === 'open' && session.expires_at <= nowSeconds())
      return close(session, 'expired', 'checkout.session.expired');
    return session;
  };
  const sweep = () => {
    for (const session of sessions.all()) if (session.status === 'open') current(session.id);
  };
  app.decorate('payment', { sessions, notifier, sweep });

  app.setErrorHandler(
    (error: { statusCode?: number; message: string; validation?: unknown }, _request, reply) => {
      const status = error.validation ? 400 : (error.statusCode ?? 500);
      if (status >= 500) app.log.error(error);
      reply.code(status).send({ detail: status >= 500 ? 'An error occured' : error.message });
    },
  );
  app.setNotFoundHandler((_request, reply) => {
    reply.code(404).send({ detail: 'Not found.' });
  });
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  // ------------------------------------------------------------ public reference data (the studio reads it)
  const publicData = (reply: FastifyReply) =>
    reply.header('access-control-allow-origin', '*').header('cache-control', 'public, max-age=300');

  app.get('/config', { schema: { querystring: langQuery } }, async (request, reply) => {
    publicData(reply);
    const lang = langOf(request.query.lang ?? request.headers['accept-language']);
    return {
      currencies: [...CURRENCIES],
      default_currency: 'EUR',
      countries: countries(lang),
      minimum_commitment: { verifications: MINIMUM_COMMITMENT_VERIFICATIONS, custom_price: true },
      test_mode: true,
    };
  });
  app.get('/industry', { schema: { querystring: langQuery } }, async (request, reply) => {
    publicData(reply);
    return industries(langOf(request.query.lang ?? request.headers['accept-language']));
  });
  app.get('/health', async () => ({ ok: true }));

  // ------------------------------------------------------------ merchant API (the studio's server calls it)
  const merchant = async (request: FastifyRequest, reply: FastifyReply) => {
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    if (!match?.[1] || !sameSecret(match[1], options.apiKey))
      return reply.code(401).send({ detail: 'Invalid API key' });
  };

  app.post(
    '/v1/checkout/sessions',
    { onRequest: merchant, schema: { body: createBody } },
    async (request, reply) => {
      const body = request.body;
      const created = nowSeconds();
      const expiresAt = body.expires_at ?? created + DEFAULT_TTL_SECONDS;
      if (expiresAt < created + 30 || expiresAt > created + 24 * 3600)
        return reply.code(400).send({ detail: 'expires_at must be 30 seconds to 24 hours from now' });
      const id = newSessionId();
      const session: CheckoutSession = {
        id,
        object: 'checkout.session',
        url: `${options.publicUrl}/checkout/${id}`,
        status: 'open',
        payment_status: 'unpaid',
        amount_total: body.line_items.reduce((sum, item) => sum + item.amount * item.quantity, 0),
        currency: body.currency,
        line_items: body.line_items,
        client_reference_id: body.client_reference_id ?? null,
        metadata: body.metadata ?? {},
        success_url: withSessionId(body.success_url, id),
        cancel_url: withSessionId(body.cancel_url, id),
        locale: langOf(body.locale),
        created,
        expires_at: expiresAt,
        card_last4: null,
        decline_code: null,
        requires_action: false,
        receipt_url: null,
        completed_at: null,
      };
      sessions.put(session);
      return reply.code(201).send(session);
    },
  );

  app.get(
    '/v1/checkout/sessions/:id',
    { onRequest: merchant, schema: { params: idParams } },
    async (request, reply) =>
      current(request.params.id) ?? reply.code(404).send({ detail: 'No such session' }),
  );

  app.post(
    '/v1/checkout/sessions/:id/expire',
    { onRequest: merchant, schema: { params: idParams } },
    async (request, reply) => {
      const session = current(request.params.id);
      if (!session) return reply.code(404).send({ detail: 'No such session' });
      if (session.status !== 'open')
        return reply.code(409).send({ detail: `The session is ${session.status}` });
      return close(session, 'expired', 'checkout.session.expired');
    },
  );

  // ------------------------------------------------------------ hosted pages (the customer's browser)
  const html = (reply: FastifyReply, status: number, page: string) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'no-referrer')
      .send(page);

  const pageParams = z.object({ id: z.string().max(100) });
  const pageLang = (request: FastifyRequest, session?: CheckoutSession): Lang => {
    const query = request.query as { lang?: string } | undefined;
    const body = request.body as { lang?: string } | undefined;
    return langOf(body?.lang ?? query?.lang ?? session?.locale);
  };

  app.get(
    '/checkout/:id',
    { schema: { params: pageParams, querystring: langQuery } },
    async (request, reply) => {
      const session = current(request.params.id);
      if (!session) return html(reply, 404, notFoundPage(pageLang(request)));
      const lang = pageLang(request, session);
      if (session.status !== 'open') return html(reply, 200, closedPage(session, lang));
      if (session.requires_action) return html(reply, 200, authenticatePage(session, lang));
      return html(reply, 200, checkoutPage(session, lang, { values: {}, errors: {} }));
    },
  );

  const payBody = z.object({
    card_number: z.string().max(40).default(''),
    expiry: z.string().max(10).default(''),
    cvc: z.string().max(10).default(''),
    name: z.string().max(200).default(''),
    lang: z.string().max(10).optional(),
  });

  app.post('/checkout/:id/pay', { schema: { params: pageParams, body: payBody } }, async (request, reply) => {
    const session = current(request.params.id);
    if (!session) return html(reply, 404, notFoundPage(pageLang(request)));
    const lang = pageLang(request, session);
    if (session.status !== 'open' || session.requires_action)
      return html(reply, 409, closedPage(session, lang));
    const { card_number, expiry, cvc, name } = request.body;
    const form: FormState = { values: { card_number, expiry, cvc, name }, errors: {} };
    const outcome = cardOutcome(card_number);
    if (outcome === 'unknown') form.errors.card_number = 'errCardUnknown';
    const exp = /^\s*(0[1-9]|1[0-2])\s*\/\s*(\d{2})\s*$/.exec(expiry);
    const today = new Date(now());
    const expYear = exp ? 2000 + Number(exp[2]) : 0;
    const expMonth = exp ? Number(exp[1]) : 0;
    if (
      !exp ||
      expYear < today.getUTCFullYear() ||
      (expYear === today.getUTCFullYear() && expMonth < today.getUTCMonth() + 1)
    )
      form.errors.expiry = 'errExpiry';
    if (!/^\d{3,4}$/.test(cvc.trim())) form.errors.cvc = 'errCvc';
    if (name.trim().length < 2) form.errors.name = 'errName';
    if (Object.keys(form.errors).length > 0) return html(reply, 400, checkoutPage(session, lang, form));

    const last4 = card_number.replace(/\D/g, '').slice(-4);
    const tried: CheckoutSession = { ...session, card_last4: last4 };
    if (outcome === 'authenticate') {
      sessions.put({ ...tried, requires_action: true });
      return reply.redirect(`/checkout/${session.id}/authenticate?lang=${lang}`, 303);
    }
    if (outcome === 'declined') {
      close({ ...tried, decline_code: 'card_declined' }, 'declined', 'checkout.session.payment_failed');
      return reply.redirect(tried.success_url, 303);
    }
    close(tried, 'complete', 'checkout.session.completed');
    return reply.redirect(tried.success_url, 303);
  });

  app.get(
    '/checkout/:id/authenticate',
    { schema: { params: pageParams, querystring: langQuery } },
    async (request, reply) => {
      const session = current(request.params.id);
      if (!session) return html(reply, 404, notFoundPage(pageLang(request)));
      const lang = pageLang(request, session);
      if (session.status !== 'open') return html(reply, 200, closedPage(session, lang));
      if (!session.requires_action) return reply.redirect(`/checkout/${session.id}?lang=${lang}`, 303);
      return html(reply, 200, authenticatePage(session, lang));
    },
  );

  app.post(
    '/checkout/:id/authenticate',
    {
      schema: {
        params: pageParams,
        body: z.object({ result: z.enum(['complete', 'fail']), lang: z.string().max(10).optional() }),
      },
    },
    async (request, reply) => {
      const session = current(request.params.id);
      if (!session) return html(reply, 404, notFoundPage(pageLang(request)));
      const lang = pageLang(request, session);
      if (session.status !== 'open' || !session.requires_action)
        return html(reply, 409, closedPage(session, lang));
      if (request.body.result === 'complete') close(session, 'complete', 'checkout.session.completed');
      else
        close(
          { ...session, decline_code: 'authentication_failed' },
          'declined',
          'checkout.session.payment_failed',
        );
      return reply.redirect(session.success_url, 303);
    },
  );

  app.post(
    '/checkout/:id/cancel',
    { schema: { params: pageParams, body: z.object({ lang: z.string().max(10).optional() }).optional() } },
    async (request, reply) => {
      const session = current(request.params.id);
      if (!session) return html(reply, 404, notFoundPage(pageLang(request)));
      if (session.status === 'open') close(session, 'expired', 'checkout.session.expired');
      return reply.redirect(session.cancel_url, 303);
    },
  );

  app.get(
    '/receipts/:id',
    { schema: { params: pageParams, querystring: langQuery } },
    async (request, reply) => {
      const session = sessions.get(request.params.id);
      if (session?.status !== 'complete') return html(reply, 404, notFoundPage(pageLang(request)));
      return html(reply, 200, receiptPage(session, pageLang(request, session)));
    },
  );

  if (options.sweepMs) {
    const timer = setInterval(sweep, options.sweepMs);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }
  app.addHook('onClose', async () => notifier.stop());
  await app.ready();
  return app;
}
