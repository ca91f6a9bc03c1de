/** Webhook endpoints: add, list, edit, delete, and their signing secrets (reveal, rotate). */
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParams } from '#contract/common';
import { HOUR_MS } from '#contract/time';
import {
  WEBHOOK_URL_MESSAGE,
  webhookEndpointBodySchema,
  webhookEndpointPatchSchema,
  webhookEndpointSchema,
  webhookRotateBodySchema,
  webhookRotateResponseSchema,
  webhookSecretSchema,
} from '#contract/webhooks';
import { verifyPassword } from '../../auth/passwords';
import type { AppContext } from '../../context';
import { users, webhookEndpoints } from '../../db/schema';
import { iso } from '../../domain/format';
import { checkWebhookUrl, endpointHealth, requireEndpoint, toEndpoint } from '../../domain/webhooks';
import { badRequest, DETAILS } from '../../errors';
import { principalOf } from '../../http/access';
import { newWebhookSecret } from '../../integrations/webhooks/signer';
import { authErrors } from '../shared';
import { access, adminAccess, tags } from './access';

const passwordHeaders = z.object({
  'x-password': z.string().max(200).optional().describe("The admin's account password (reveals the secret)"),
});

export function webhookEndpointRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const allowPrivate = ctx.config.webhooks.allowPrivate;

    async function endpointView(companyId: number, id: number) {
      const row = await requireEndpoint(ctx.db, companyId, id);
      const health = await endpointHealth(ctx.db, companyId);
      return toEndpoint(row, health.get(row.id));
    }

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
        const expires = hours > 0 ? new Date(Date.now() + hours * HOUR_MS) : null;
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
  };
}
