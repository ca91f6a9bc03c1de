import { eq, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { devOutboxQuerySchema, devOutboxResponseSchema } from '#contract/auth';
import { parseClientAddress } from '#contract/ipRanges';
import { isLoopbackHost } from '../config';
import type { AppContext } from '../context';
import { users } from '../db/schema';
import { notFound } from '../errors';
import { PUBLIC } from '../http/access';
import { recentMail } from '../integrations/mail';
import { recentSms } from '../integrations/sms';

const isLoopbackAddress = (address: string | undefined) =>
  parseClientAddress(address ?? '')?.range() === 'loopback';

/**
 * Whether a request comes from this machine: the connection's address is loopback (`request.ip`: the
 * `X-Forwarded-For` client only behind a TRUST_PROXY proxy; a forwarding header from any other peer means a
 * proxy we do not know forwards someone else), the Host is a loopback name (not a rebound DNS name), and a
 * browser's Origin, when sent, is a studio origin (a page elsewhere cannot drive these routes).
 */
export function isLocalCaller(ctx: AppContext, request: FastifyRequest): boolean {
  const peer = request.socket.remoteAddress;
  const trusted = ctx.proxyTrust !== false && peer !== undefined && ctx.proxyTrust(peer, 0);
  const forwarded =
    request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  if (forwarded && !trusted) return false;
  if (!isLoopbackAddress(request.ip)) return false;
  const host = (request.headers.host ?? '').replace(/:\d+$/, '');
  if (!isLoopbackHost(host)) return false;
  const origin = request.headers.origin;
  return origin === undefined || ctx.config.studioOrigins.includes(origin);
}

/**
 * Development-only routes (`/api/dev`), registered only when `devEndpoints` is on (config.ts: a server that
 * listens on loopback alone outside production, or DEV_ENDPOINTS=1), and answered only for callers on this
 * machine (`isLocalCaller`); anyone else gets 404, as if they did not exist. Hidden from the OpenAPI document.
 */
export function devRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', async (request) => {
      if (!isLocalCaller(ctx, request)) throw notFound();
    });
    app.get(
      '/outbox',
      {
        config: { access: PUBLIC },
        schema: { hide: true, querystring: devOutboxQuerySchema, response: { 200: devOutboxResponseSchema } },
      },
      async (request) => recentMail(ctx.db, request.query.to, request.query.limit),
    );

    // The local SMS stand-in's messages to one number (the second-channel code), codes shown while they live.
    app.get(
      '/sms',
      {
        config: { access: PUBLIC },
        schema: { hide: true, querystring: z.strictObject({ to: z.string().min(1).max(64) }) },
      },
      async (request) => recentSms(ctx.db, request.query.to),
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
