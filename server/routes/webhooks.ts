import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../context';
import { webhookDeliveryRoutes } from './webhooks/deliveries';
import { webhookEndpointRoutes } from './webhooks/endpoints';
import { webhookSettingsRoutes } from './webhooks/settings';

/** The webhook API, one file per concern under ./webhooks/: company settings, endpoints, the deliveries console. */
export function webhookRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(webhookSettingsRoutes(ctx));
    await app.register(webhookEndpointRoutes(ctx));
    await app.register(webhookDeliveryRoutes(ctx));
  };
}
