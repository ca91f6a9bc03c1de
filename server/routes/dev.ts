import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { devOutboxQuerySchema, devOutboxResponseSchema } from '../../src/contract/auth';
import type { AppContext } from '../context';
import { PUBLIC } from '../http/access';
import { recentMail } from '../integrations/mail';

/**
 * Development-only routes (`/api/dev`), registered only when `devEndpoints` is on (env DEV_ENDPOINTS;
 * default on unless NODE_ENV=production). Hidden from the OpenAPI document.
 */
export function devRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/outbox',
      {
        config: { access: PUBLIC },
        schema: { hide: true, querystring: devOutboxQuerySchema, response: { 200: devOutboxResponseSchema } },
      },
      async (request) => recentMail(ctx.db, request.query.to, request.query.limit),
    );
  };
}
