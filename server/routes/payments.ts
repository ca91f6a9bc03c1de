import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, lineText, pageSchema, pagingQuery } from '#contract/common';
import {
  buyPackageBodySchema,
  buyPackageReplySchema,
  notificationHeadersSchema,
  paymentSchema,
  planSchema,
  sessionStatusSchema,
} from '#contract/payments';
import type { AppContext } from '../context';
import {
  applyNotification,
  companyPlan,
  PAYMENT_DETAILS,
  paymentHistory,
  sessionStatus,
  startCheckout,
} from '../domain/payments';
import { HttpError } from '../errors';
import { need, PUBLIC, principalOf } from '../http/access';
import { toPage } from '../http/paging';
import { NotificationRefused, PaymentProviderError } from '../integrations/payment/provider';
import { authErrors } from './shared';

export function paymentRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/payment/buy_package',
      {
        config: { access: need('view_company_page') },
        schema: {
          summary: 'Buy a package: start a checkout session',
          tags: ['payment'],
          description:
            'Creates a checkout session at the payment provider for the package and answers its hosted ' +
            'checkout address. The browser goes there; the checkout sends it back to `studio_url` with ' +
            '`?session_id=…`. The outcome reaches this server only by the provider’s signed notification ' +
            '(`POST /payment/notification`). Custom-priced packages cannot be bought (400). While a paid ' +
            'period runs, the new package replaces it from the payment on (its remaining days and ' +
            'verifications end): without `replace_current_plan: true` the call answers 409 and starts nothing.',
          body: buyPackageBodySchema,
          response: { 200: buyPackageReplySchema, ...authErrors, 409: errorSchema, 502: errorSchema },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        return startCheckout(
          ctx.db,
          ctx.payments,
          ctx.config,
          { companyId: principal.companyId, userId: principal.id },
          request.body,
        );
      },
    );

    app.get(
      '/payment/session_status',
      {
        config: { access: need('view_company_page') },
        schema: {
          summary: 'Status of a checkout session',
          tags: ['payment'],
          description:
            '`paid`, `open`, `declined` or `expired`, as the provider’s notifications left it (an open ' +
            'session past its end is recorded and answered as `expired`). For an open session, ' +
            '`provider_status` is the session read back from the provider by this server (`paid`: the ' +
            'money arrived, its signed notification not yet; null when not asked or unreachable): shown, ' +
            'never applied. Only sessions of the caller’s company (else 404).',
          querystring: z.strictObject({ session_id: lineText.trim().min(1).max(200) }),
          response: { 200: sessionStatusSchema, ...authErrors },
        },
      },
      async (request) =>
        sessionStatus(ctx.db, ctx.payments, principalOf(request).companyId, request.query.session_id),
    );

    app.get(
      '/payment/history',
      {
        config: { access: need('view_company_page') },
        schema: {
          summary: 'Payment history',
          tags: ['payment'],
          description:
            'The company’s checkout sessions, newest first, with status, receipt and the amount refunded ' +
            'at the provider. An open session past its `expires_at` is recorded as `expired` before the ' +
            'page is read.',
          querystring: z.strictObject(pagingQuery),
          response: { 200: pageSchema(paymentSchema), ...authErrors },
        },
      },
      async (request) => {
        const { total, results } = await paymentHistory(
          ctx.db,
          principalOf(request).companyId,
          request.query,
        );
        return toPage(request, request.query, total, results);
      },
    );

    app.get(
      '/payment/plan',
      {
        config: { access: need('view_company_page') },
        schema: {
          summary: 'The company’s plan and its use',
          tags: ['payment'],
          description:
            'The package, the current paid period, the verifications it includes and the profiles ' +
            'created in it.',
          response: { 200: planSchema, ...authErrors },
        },
      },
      async (request) => companyPlan(ctx.db, principalOf(request).companyId),
    );

    // The provider's notification: signed, so the raw body is kept (a child context with its own parser).
    await app.register(async (child) => {
      child.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
        done(null, body),
      );
      child.post(
        '/payment/notification',
        {
          config: { access: PUBLIC },
          schema: {
            summary: 'Signed notification of the payment provider',
            tags: ['payment'],
            description:
              'Server to server, from the payment provider only: a checkout session was paid, declined, ' +
              'expired or refunded. The local payment service signs with Standard Webhooks headers ' +
              '(`webhook-id`, `webhook-timestamp`, `webhook-signature`, HMAC-SHA256 with the shared ' +
              'secret); Stripe with its `Stripe-Signature` header (checked by its SDK with the endpoint’s ' +
              'secret). A bad signature or a timestamp older than 5 minutes is refused (400) and changes ' +
              'nothing; an id already applied is acknowledged with `applied: false` and changes nothing. A ' +
              'refund of a payment not recorded as paid yet answers 409 (the provider delivers it again).',
            security: [],
            headers: notificationHeadersSchema,
            body: z.string().max(64 * 1024),
            response: {
              200: z.object({ received: z.literal(true), applied: z.boolean() }),
              400: errorSchema,
              404: errorSchema,
              409: errorSchema,
              502: errorSchema,
            },
          },
        },
        async (request) => {
          let notification: Awaited<ReturnType<typeof ctx.payments.verifyNotification>>;
          try {
            notification = await ctx.payments.verifyNotification(request.body as string, request.headers);
          } catch (error) {
            if (error instanceof NotificationRefused) throw new HttpError(400, error.message);
            // The provider could not be asked about the session: a 502 makes it deliver the event again.
            if (error instanceof PaymentProviderError)
              throw Object.assign(new HttpError(502, PAYMENT_DETAILS.providerDown), { cause: error });
            throw error;
          }
          const outcome = await applyNotification(ctx.db, notification);
          return { received: true as const, applied: outcome === 'applied' };
        },
      );
    });
  };
}
