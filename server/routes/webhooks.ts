import { randomBytes } from 'node:crypto';
import { asc, count, desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '../../src/contract/common';
import {
  endpointLogsQuerySchema,
  endpointLogsResponseSchema,
  WEBHOOK_EVENTS,
  webhookEndpointSchema,
  webhookEventInfoSchema,
  webhookEventToggleSchema,
  webhookLogPageSchema,
  webhookLogsQuerySchema,
  webhookSecretSchema,
  webhookSettingsSchema,
  webhookTokenSchema,
} from '../../src/contract/webhooks';
import type { AppContext } from '../context';
import { webhookEndpoints, webhookLogs } from '../db/schema';
import {
  endpointLogs,
  eventToggles,
  requireEndpoint,
  toEndpoint,
  toWebhookLog,
  WEBHOOK_EVENT_DESCRIPTIONS,
  webhookSettingsOf,
} from '../domain/webhooks';
import { need, principalOf } from '../http/access';
import { toPage } from '../http/paging';
import { authErrors } from './shared';

const access = need('view_company_page');
/** Secrets and tokens: Admins only. */
const secretAccess = need('view_company_page', { admin: true });
const newToken = () => randomBytes(24).toString('base64url');

export function webhookRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['webhooks'];

    app.get(
      '/webhook/events',
      {
        config: { access },
        schema: { tags, response: { 200: z.array(webhookEventInfoSchema), ...authErrors } },
      },
      async () => WEBHOOK_EVENTS.map((name) => ({ name, description: WEBHOOK_EVENT_DESCRIPTIONS[name] })),
    );

    app.get(
      '/events',
      {
        config: { access },
        schema: { tags, response: { 200: z.array(webhookEventToggleSchema), ...authErrors } },
      },
      async (request) => eventToggles(ctx.db, principalOf(request).companyId),
    );

    app.get(
      '/webhook',
      { config: { access }, schema: { tags, response: { 200: webhookSettingsSchema, ...authErrors } } },
      async (request) => {
        const row = await webhookSettingsOf(ctx.db, ctx.secrets, principalOf(request).companyId, newToken);
        return { url: row.url, signature_enabled: row.signatureEnabled };
      },
    );

    app.get(
      '/webhook/token',
      {
        config: { access: secretAccess },
        schema: { tags, response: { 200: webhookTokenSchema, ...authErrors } },
      },
      async (request) => {
        const row = await webhookSettingsOf(ctx.db, ctx.secrets, principalOf(request).companyId, newToken);
        return { token: ctx.secrets.open(row.token) };
      },
    );

    app.get(
      '/webhook/logs',
      {
        config: { access },
        schema: {
          tags,
          description: 'All deliveries of the company, newest first; page size default 10.',
          querystring: webhookLogsQuerySchema,
          response: { 200: webhookLogPageSchema, ...authErrors },
        },
      },
      async (request) => {
        const where = eq(webhookLogs.companyId, principalOf(request).companyId);
        const [total, rows] = await Promise.all([
          ctx.db.select({ value: count() }).from(webhookLogs).where(where),
          ctx.db
            .select()
            .from(webhookLogs)
            .where(where)
            .orderBy(desc(webhookLogs.id))
            .limit(request.query.limit)
            .offset(request.query.offset),
        ]);
        return toPage(request, request.query, total[0]?.value ?? 0, rows.map(toWebhookLog));
      },
    );

    app.get(
      '/webhook_endpoint',
      {
        config: { access },
        schema: { tags, response: { 200: z.array(webhookEndpointSchema), ...authErrors } },
      },
      async (request) => {
        const rows = await ctx.db
          .select()
          .from(webhookEndpoints)
          .where(eq(webhookEndpoints.companyId, principalOf(request).companyId))
          .orderBy(asc(webhookEndpoints.id));
        return rows.map(toEndpoint);
      },
    );

    app.get(
      '/webhook_endpoint/:id',
      {
        config: { access },
        schema: { tags, params: idParams, response: { 200: webhookEndpointSchema, ...authErrors } },
      },
      async (request) =>
        toEndpoint(await requireEndpoint(ctx.db, principalOf(request).companyId, request.params.id)),
    );

    app.get(
      '/webhook_endpoint/:id/secret',
      {
        config: { access: secretAccess },
        schema: { tags, params: idParams, response: { 200: webhookSecretSchema, ...authErrors } },
      },
      async (request) => {
        const row = await requireEndpoint(ctx.db, principalOf(request).companyId, request.params.id);
        return { secret: ctx.secrets.open(row.secret) };
      },
    );

    app.get(
      '/webhook_endpoint/:id/logs',
      {
        config: { access },
        schema: {
          tags,
          description:
            'Newest first, `limit` default 10; `after_id` continues below that entry; `search` matches event or url.',
          params: idParams,
          querystring: endpointLogsQuerySchema,
          response: { 200: endpointLogsResponseSchema, ...authErrors },
        },
      },
      async (request) => {
        const row = await requireEndpoint(ctx.db, principalOf(request).companyId, request.params.id);
        return endpointLogs(ctx.db, row.id, request.query);
      },
    );
  };
}
