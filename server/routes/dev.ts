import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { devOutboxQuerySchema, devOutboxResponseSchema } from '../../src/contract/auth';
import type { AppContext } from '../context';
import { users } from '../db/schema';
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

    // Cuts the transport of a user's sockets, as a network drop would (the client reconnects by itself).
    // End-to-end tests use it to show recovery mid-call.
    app.post(
      '/sockets/drop',
      {
        config: { access: PUBLIC },
        schema: { hide: true, querystring: z.strictObject({ email: z.string() }) },
      },
      async (request) => {
        const [user] = await ctx.db
          .select({ id: users.id })
          .from(users)
          .where(eq(sql`lower(${users.email})`, request.query.email.toLowerCase()));
        let dropped = 0;
        for (const socket of request.server.hub.io.sockets.sockets.values()) {
          if (socket.data.kind === 'staff' && socket.data.userId === user?.id) {
            socket.conn.close();
            dropped += 1;
          }
        }
        return { dropped };
      },
    );
  };
}
