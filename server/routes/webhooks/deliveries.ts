/** The deliveries console: the delivery logs (company and endpoint), a test event sent now, retries and replays. */
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema, idParams } from '#contract/common';
import {
  endpointLogsQuerySchema,
  endpointLogsResponseSchema,
  WEBHOOK_TEST_EVENT,
  type WebhookLog,
  webhookLogPageSchema,
  webhookLogsQuerySchema,
  webhookRetryBodySchema,
  webhookRetryResponseSchema,
  webhookTestBodySchema,
  webhookTestResultSchema,
} from '#contract/webhooks';
import type { AppContext } from '../../context';
import { webhookDeliveries, webhookLogs, webhookMessages } from '../../db/schema';
import {
  endpointLogs,
  listLogs,
  logFilters,
  requeueDeliveries,
  requireEndpoint,
  withoutContent,
} from '../../domain/webhooks';
import { badRequest } from '../../errors';
import { principalOf } from '../../http/access';
import { toKeysetPage } from '../../http/paging';
import { rateLimited, sharedLimit } from '../../http/rateLimits';
import { newMessageId } from '../../integrations/webhooks/signer';
import { authErrors } from '../shared';
import { access, adminAccess, tags } from './access';

/**
 * Delivery logs: every user with view_company_page sees the attempts, but the payloads, the signature headers
 * and the receivers' answers only who manages webhooks (adminAccess's Admin role).
 */
const logView = (request: FastifyRequest) =>
  principalOf(request).role === 'Admin' ? (log: WebhookLog) => log : withoutContent;

export function webhookDeliveryRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/webhook/logs',
      {
        config: { access },
        schema: {
          tags,
          summary: 'Delivery attempts of the company',
          description:
            'Every attempt, newest first; page size default 10. Filters: `status` (succeeded, failed), `event`, ' +
            '`search` (event, URL or message id). Payloads, request headers (signatures) and response bodies ' +
            'are null unless the caller is an Admin.',
          querystring: webhookLogsQuerySchema,
          response: { 200: webhookLogPageSchema, ...authErrors },
        },
      },
      async (request) => {
        const where = logFilters(eq(webhookLogs.companyId, principalOf(request).companyId), request.query);
        const page = await listLogs(ctx.db, where, request.query, ctx.config.listCountCap);
        return toKeysetPage(
          request,
          request.query.limit,
          page,
          page.links,
          page.results.map(logView(request)),
        );
      },
    );

    app.get(
      '/webhook_endpoint/:id/logs',
      {
        config: { access },
        schema: {
          tags,
          summary: "An endpoint's delivery attempts",
          description:
            'Newest first, `limit` default 10; `after_id` continues below that entry; `search` matches event, ' +
            'URL or message id; `status` and `event` filter. Payloads, request headers (signatures) and ' +
            'response bodies are null unless the caller is an Admin.',
          params: idParams,
          querystring: endpointLogsQuerySchema,
          response: { 200: endpointLogsResponseSchema, ...authErrors },
        },
      },
      async (request) => {
        const row = await requireEndpoint(ctx.db, principalOf(request).companyId, request.params.id);
        const logs = await endpointLogs(ctx.db, row.id, request.query);
        return { ...logs, results: logs.results.map(logView(request)) };
      },
    );

    const outside = sharedLimit(ctx, 'outsideCalls');
    app.post(
      '/webhook_endpoint/:id/test',
      {
        config: { access: adminAccess },
        onRequest: outside.onRequest,
        schema: {
          tags,
          summary: 'Send a test event now',
          description:
            `Signs and sends one event (\`${WEBHOOK_TEST_EVENT}\` unless another is named) to this endpoint at ` +
            "once, and answers the receiver's status, body and time. Not retried; logged like any attempt. " +
            outside.text,
          params: idParams,
          body: webhookTestBodySchema,
          response: { 200: webhookTestResultSchema, ...authErrors, 409: errorSchema, ...rateLimited },
        },
      },
      async (request) => {
        const { companyId } = principalOf(request);
        const endpoint = await requireEndpoint(ctx.db, companyId, request.params.id);
        if (!endpoint.isActive) throw badRequest('Enable the endpoint before sending a test event');
        const event = request.body.event;
        const body = JSON.stringify({
          type: event,
          timestamp: new Date().toISOString(),
          data: { test: true, endpoint_id: endpoint.id, sent_by: principalOf(request).email },
        });
        const deliveryId = await ctx.db.transaction(async (tx) => {
          const [message] = await tx
            .insert(webhookMessages)
            .values({
              msgId: newMessageId(),
              companyId,
              eventType: event,
              body,
              endpointId: endpoint.id,
              fannedOut: true,
            })
            .returning({ id: webhookMessages.id });
          if (!message) throw new Error('message insert returned nothing');
          const [delivery] = await tx
            .insert(webhookDeliveries)
            .values({
              messageId: message.id,
              endpointId: endpoint.id,
              companyId,
              status: 'failed',
              nextAttemptAt: new Date(),
            })
            .returning({ id: webhookDeliveries.id });
          if (!delivery) throw new Error('delivery insert returned nothing');
          return delivery.id;
        });
        const { result, msgId } = await ctx.webhooks.attemptNow(deliveryId);
        return {
          success: result.status !== null && result.status >= 200 && result.status < 300,
          message_id: msgId,
          status_code: result.status,
          response_body: result.body,
          duration_ms: result.durationMs,
          error: result.error,
        };
      },
    );

    app.post(
      '/webhook_endpoint/retry',
      {
        config: { access: adminAccess },
        schema: {
          tags,
          summary: 'Retry or replay deliveries',
          description:
            'For each log entry, its delivery is due again now: a failed one is retried, a delivered one ' +
            'replayed, with the same message and `webhook-id`.',
          body: webhookRetryBodySchema,
          response: { 200: webhookRetryResponseSchema, ...authErrors },
        },
      },
      async (request) => {
        const queued = await requeueDeliveries(ctx.db, principalOf(request).companyId, request.body.ids);
        return { queued };
      },
    );
  };
}
