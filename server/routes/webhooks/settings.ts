/** The company's webhook settings: the event catalogue and toggles, the legacy single URL, the token. */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  WEBHOOK_EVENTS,
  webhookEventInfoSchema,
  webhookEventToggleSchema,
  webhookSettingsBodySchema,
  webhookSettingsSchema,
  webhookTokenSchema,
} from '#contract/webhooks';
import type { AppContext } from '../../context';
import { webhookSettings } from '../../db/schema';
import {
  checkWebhookUrl,
  eventToggles,
  setEventToggles,
  WEBHOOK_EVENT_DESCRIPTIONS,
  webhookSettingsOf,
} from '../../domain/webhooks';
import { badRequest } from '../../errors';
import { principalOf } from '../../http/access';
import { authErrors } from '../shared';
import { access, adminAccess, tags } from './access';

const newToken = () => randomBytes(24).toString('base64url');

export function webhookSettingsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const allowPrivate = ctx.config.webhooks.allowPrivate;

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
  };
}
