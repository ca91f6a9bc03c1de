import { extname } from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context';
import { forbidden, notFound } from '../errors';
import { PUBLIC } from '../http/access';

const CONTENT_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.webm': 'video/webm',
  '.pdf': 'application/pdf',
};

/** Stored files, reachable only through a signed address made by Storage.signedUrl. */
export function storageRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/storage/*',
      {
        config: { access: PUBLIC },
        schema: {
          hide: true,
          querystring: z.object({ expires: z.coerce.number().int(), signature: z.string().min(1).max(100) }),
        },
      },
      async (request, reply) => {
        const key = (request.params as { '*': string })['*'];
        if (!ctx.storage.verifySignature(key, request.query.expires, request.query.signature)) {
          throw forbidden('Invalid or expired file address');
        }
        if (ctx.storage.directUrl) {
          if ((await ctx.storage.size(key)) === null) throw notFound();
          return reply.redirect(await ctx.storage.directUrl(key), 302);
        }
        const size = await ctx.storage.size(key);
        if (size === null) throw notFound();
        return reply
          .header('content-type', CONTENT_TYPES[extname(key).toLowerCase()] ?? 'application/octet-stream')
          .header('content-length', size)
          .header('cache-control', 'private, max-age=3600')
          .send(ctx.storage.open(key));
      },
    );
  };
}
