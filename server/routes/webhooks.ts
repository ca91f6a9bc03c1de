import { randomBytes } from 'node:crypto';
import { and, asc, count, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema, idParams } from '#contract/common';
import {
  endpointLogsQuerySchema,
  endpointLogsResponseSchema,
  WEBHOOK_EVENTS,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_URL_MESSAGE,
  type WebhookLog,
  webhookEndpointBodySchema,
  webhookEndpointPatchSchema,
  webhookEndpointSchema,
  webhookEventInfoSchema,
  webhookEventToggleSchema,
  webhookLogPageSchema,
  webhookLogsQuerySchema,
  webhookRetryBodySchema,
  webhookRetryResponseSchema,
  webhookRotateBodySchema,
  webhookRotateResponseSchema,
  webhookSecretSchema,
  webhookSettingsBodySchema,
  webhookSettingsSchema,
  webhookTestBodySchema,
  webhookTestResultSchema,
  webhookTokenSchema,
} from '#contract/webhooks';
import { verifyPassword } from '../auth/passwords';
import type { AppContext } from '../context';
import {
  users,
  webhookDeliveries,
  webhookEndpoints,
  webhookLogs,
  webhookMessages,
  webhookSettings,
} from '../db/schema';
import { iso } from '../domain/format';
import {
  checkWebhookUrl,
  endpointHealth,
  endpointLogs,
  eventToggles,
  logFilters,
  logsWithBodies,
  requeueDeliveries,
  requireEndpoint,
  setEventToggles,
  toEndpoint,
  WEBHOOK_EVENT_DESCRIPTIONS,
  webhookSettingsOf,
  withoutContent,
} from '../domain/webhooks';
import { badRequest, DETAILS } from '../errors';
import { need, principalOf } from '../http/access';
import { toPage } from '../http/paging';
import { newMessageId, newWebhookSecret } from '../integrations/webhooks/signer';
import { authErrors } from './shared';

const access = need('view_company_page');
/** Writes, secrets and tokens: Admins only. */
const adminAccess = need('view_company_page', { admin: true });
/**
 * Delivery logs: every user with view_company_page sees the attempts, but the payloads, the signature headers
 * and the receivers' answers only who manages webhooks (adminAccess's Admin role).
 */
const logView = (request: FastifyRequest) =>
  principalOf(request).role === 'Admin' ? (log: WebhookLog) => log : withoutContent;
const newToken = () => randomBytes(24).toString('base64url');
const passwordHeaders = z.object({
  'x-password': z.string().max(200).optional().describe("The admin's account password (reveals the secret)"),
});

export function webhookRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['webhooks'];
    const allowPrivate = ctx.config.webhooks.allowPrivate;

    async function endpointView(companyId: number, id: number) {
      const row = await requireEndpoint(ctx.db, companyId, id);
      const health = await endpointHealth(ctx.db, companyId);
      return toEndpoint(row, health.get(row.id));
    }

    app.get(
      '/webhook/events',
      {
        config: { access },
        schema: {
          tags,
          summary: 'The event catalogue',
          description: 'Every event type a delivery can carry, with what it means.',
          response: { 200: z.array(webhookEventInfoSchema), ...authErrors },
        },
      },
      async () => WEBHOOK_EVENTS.map((name) => ({ name, description: WEBHOOK_EVENT_DESCRIPTIONS[name] })),
    );

    app.get(
      '/events',
      {
        config: { access },
        schema: {
          tags,
          summary: 'Event toggles',
          description: 'Each event, whether the company sends it, and when it was last triggered.',
          response: { 200: z.array(webhookEventToggleSchema), ...authErrors },
        },
      },
      async (request) => eventToggles(ctx.db, principalOf(request).companyId),
    );

    app.get(
      '/webhook',
      {
        config: { access },
        schema: {
          tags,
          summary: 'Company webhook settings',
          response: { 200: webhookSettingsSchema, ...authErrors },
        },
      },
      async (request) => {
        const row = await webhookSettingsOf(ctx.db, ctx.secrets, principalOf(request).companyId, newToken);
        return { url: row.url, signature_enabled: row.signatureEnabled };
      },
    );

    app.put(
      '/webhook',
      {
        config: { access: adminAccess },
        schema: {
          tags,
          summary: 'Change company webhook settings',
          description:
            'Switches events on or off for the whole company (`events`), and keeps the legacy single URL. ' +
            'Signatures cannot be turned off: every delivery is signed (Standard Webhooks).',
          body: webhookSettingsBodySchema,
          response: { 200: webhookSettingsSchema, ...authErrors },
        },
      },
      async (request) => {
        const { companyId } = principalOf(request);
        if (request.body.signature_enabled === false) throw badRequest('Signatures can not be turned off');
        const url =
          request.body.url === undefined || request.body.url === null || request.body.url.trim() === ''
            ? request.body.url === undefined
              ? undefined
              : null
            : await checkWebhookUrl(request.body.url, allowPrivate);
        await webhookSettingsOf(ctx.db, ctx.secrets, companyId, newToken);
        const [row] = await ctx.db.transaction(async (tx) => {
          if (request.body.events) await setEventToggles(tx, companyId, request.body.events);
          const where = eq(webhookSettings.companyId, companyId);
          if (url === undefined) return tx.select().from(webhookSettings).where(where);
          return tx.update(webhookSettings).set({ url }).where(where).returning();
        });
        return { url: row?.url ?? null, signature_enabled: row?.signatureEnabled ?? true };
      },
    );

    app.get(
      '/webhook/token',
      {
        config: { access: adminAccess },
        schema: {
          tags,
          summary: 'The company webhook token',
          response: { 200: webhookTokenSchema, ...authErrors },
        },
      },
      async (request) => {
        const row = await webhookSettingsOf(ctx.db, ctx.secrets, principalOf(request).companyId, newToken);
        return { token: ctx.secrets.open(row.token) };
      },
    );

    app.patch(
      '/webhook/token',
      {
        config: { access: adminAccess },
        schema: {
          tags,
          summary: 'Regenerate the company webhook token',
          description: 'A new token replaces the old one at once.',
          response: { 200: webhookTokenSchema, ...authErrors },
        },
      },
      async (request) => {
        const { companyId } = principalOf(request);
        await webhookSettingsOf(ctx.db, ctx.secrets, companyId, newToken);
        const token = newToken();
        await ctx.db
          .update(webhookSettings)
          .set({ token: ctx.secrets.seal(token) })
          .where(eq(webhookSettings.companyId, companyId));
        return { token };
      },
    );

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
        const [total, rows] = await Promise.all([
          ctx.db
            .select({ value: count() })
            .from(webhookLogs)
            .where(and(...where)),
          logsWithBodies(ctx.db, where, request.query.limit, request.query.offset),
        ]);
        return toPage(request, request.query, total[0]?.value ?? 0, rows.map(logView(request)));
      },
    );

    app.get(
      '/webhook_endpoint',
      {
        config: { access },
        schema: {
          tags,
          summary: 'Webhook endpoints',
          description:
            'With their health: last attempt, success rate of the last 24 hours, deliveries waiting.',
          response: { 200: z.array(webhookEndpointSchema), ...authErrors },
        },
      },
      async (request) => {
        const { companyId } = principalOf(request);
        const [rows, health] = await Promise.all([
          ctx.db
            .select()
            .from(webhookEndpoints)
            .where(eq(webhookEndpoints.companyId, companyId))
            .orderBy(asc(webhookEndpoints.id)),
          endpointHealth(ctx.db, companyId),
        ]);
        return rows.map((row) => toEndpoint(row, health.get(row.id)));
      },
    );

    app.post(
      '/webhook_endpoint',
      {
        config: { access: adminAccess },
        schema: {
          tags,
          summary: 'Add a webhook endpoint',
          description:
            `An http(s) URL (${WEBHOOK_URL_MESSAGE} otherwise) that does not resolve to a loopback, private, ` +
            'link-local or metadata address; `enabled_events` empty means every event. A signing secret ' +
            '(`whsec_…`) is made for it.',
          body: webhookEndpointBodySchema,
          response: { 201: webhookEndpointSchema, ...authErrors },
        },
      },
      async (request, reply) => {
        const { companyId } = principalOf(request);
        const url = await checkWebhookUrl(request.body.url, allowPrivate);
        const [row] = await ctx.db
          .insert(webhookEndpoints)
          .values({
            companyId,
            url,
            description: request.body.description?.trim() ?? '',
            enabledEvents: [...new Set(request.body.enabled_events)],
            secret: ctx.secrets.seal(newWebhookSecret()),
          })
          .returning();
        if (!row) throw new Error('endpoint insert returned nothing');
        reply.code(201);
        return toEndpoint(row);
      },
    );

    app.get(
      '/webhook_endpoint/:id',
      {
        config: { access },
        schema: {
          tags,
          summary: 'One webhook endpoint',
          params: idParams,
          response: { 200: webhookEndpointSchema, ...authErrors },
        },
      },
      async (request) => endpointView(principalOf(request).companyId, request.params.id),
    );

    app.patch(
      '/webhook_endpoint/:id',
      {
        config: { access: adminAccess },
        schema: {
          tags,
          summary: 'Edit, enable or disable a webhook endpoint',
          description: 'Enabling clears the reason the server disabled it for and its failing streak.',
          params: idParams,
          body: webhookEndpointPatchSchema,
          response: { 200: webhookEndpointSchema, ...authErrors },
        },
      },
      async (request) => {
        const { companyId } = principalOf(request);
        const current = await requireEndpoint(ctx.db, companyId, request.params.id);
        const { body } = request;
        const changes: Partial<typeof webhookEndpoints.$inferInsert> = {};
        if (body.url !== undefined && body.url.trim() !== current.url) {
          changes.url = await checkWebhookUrl(body.url, allowPrivate);
        }
        if (body.description !== undefined) changes.description = body.description.trim();
        if (body.enabled_events !== undefined) changes.enabledEvents = [...new Set(body.enabled_events)];
        if (body.is_active !== undefined && body.is_active !== current.isActive) {
          changes.isActive = body.is_active;
          changes.disabledReason = null;
          if (body.is_active) changes.failingSince = null;
        }
        if (Object.keys(changes).length > 0) {
          await ctx.db.update(webhookEndpoints).set(changes).where(eq(webhookEndpoints.id, current.id));
        }
        return endpointView(companyId, current.id);
      },
    );

    app.delete(
      '/webhook_endpoint/:id',
      {
        config: { access: adminAccess },
        schema: {
          tags,
          summary: 'Delete a webhook endpoint',
          description: 'Its waiting deliveries and its delivery logs are deleted with it.',
          params: idParams,
          response: { 204: z.null(), ...authErrors },
        },
      },
      async (request, reply) => {
        const row = await requireEndpoint(ctx.db, principalOf(request).companyId, request.params.id);
        await ctx.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, row.id));
        reply.code(204);
        return null;
      },
    );

    app.post(
      '/webhook_endpoint/:id/test',
      {
        config: { access: adminAccess },
        schema: {
          tags,
          summary: 'Send a test event now',
          description:
            `Signs and sends one event (\`${WEBHOOK_TEST_EVENT}\` unless another is named) to this endpoint at ` +
            "once, and answers the receiver's status, body and time. Not retried; logged like any attempt.",
          params: idParams,
          body: webhookTestBodySchema,
          response: { 200: webhookTestResultSchema, ...authErrors, 409: errorSchema },
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

    app.get(
      '/webhook_endpoint/:id/secret',
      {
        config: { access: adminAccess },
        schema: {
          tags,
          summary: "Reveal an endpoint's signing secret",
          description: "Needs the admin's account password in the `X-Password` header (400 Wrong password).",
          params: idParams,
          headers: passwordHeaders,
          response: { 200: webhookSecretSchema, ...authErrors },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        const row = await requireEndpoint(ctx.db, principal.companyId, request.params.id);
        const password = request.headers['x-password'];
        if (!password) throw badRequest(DETAILS.wrongPassword);
        const [user] = await ctx.db
          .select({ hash: users.passwordHash })
          .from(users)
          .where(and(eq(users.id, principal.id), eq(users.companyId, principal.companyId)));
        if (!user || !(await verifyPassword(user.hash, password))) throw badRequest(DETAILS.wrongPassword);
        return { secret: ctx.secrets.open(row.secret) };
      },
    );

    app.patch(
      '/webhook_endpoint/:id/secret',
      {
        config: { access: adminAccess },
        schema: {
          tags,
          summary: "Rotate an endpoint's signing secret",
          description:
            'A new secret signs from now on; the old one signs too (two signatures in `webhook-signature`) ' +
            'for `grace_period_hours` (default 24, 0 ends it at once).',
          params: idParams,
          body: webhookRotateBodySchema,
          response: { 200: webhookRotateResponseSchema, ...authErrors },
        },
      },
      async (request) => {
        const row = await requireEndpoint(ctx.db, principalOf(request).companyId, request.params.id);
        const secret = newWebhookSecret();
        const hours = request.body.grace_period_hours;
        const expires = hours > 0 ? new Date(Date.now() + hours * 3_600_000) : null;
        await ctx.db
          .update(webhookEndpoints)
          .set({
            secret: ctx.secrets.seal(secret),
            previousSecret: expires ? row.secret : null,
            previousSecretExpiresAt: expires,
          })
          .where(eq(webhookEndpoints.id, row.id));
        return { secret, previous_secret_expires_at: iso(expires) };
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
