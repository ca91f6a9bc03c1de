import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { DETAILS } from '../errors';

const NOT_STUDIO = ['/api/', '/socket.io', '/storage/'];

/**
 * Serves the built studio from STUDIO_DIST (when it exists) with an SPA fallback, and
 * /runtime-config.js. Unknown addresses that are not studio pages answer 404 `{ detail }`.
 */
export async function registerStudio(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const dist = ctx.config.studioDist;
  const hasStudio = existsSync(join(dist, 'index.html'));

  // Plain (not async) handlers that send: returning the thenable reply from an async function makes
  // fastify wait on the response once more for every request.
  app.get('/runtime-config.js', { schema: { hide: true } }, (_request, reply) => {
    const config = { loginHost: ctx.config.publicUrl, paymentServiceUrl: ctx.config.payment.serviceUrl };
    reply
      .type('application/javascript; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(`window.__STUDIO_CONFIG__ = ${JSON.stringify(config)};\n`);
  });

  if (hasStudio) {
    await app.register(fastifyStatic, {
      root: dist,
      // A route for each file of the build, listed once at start: a request for one is answered without
      // looking at the folder again (with a wildcard route the plugin read the folder's listing, about 1,400
      // names, on every request to check the path's spelling: a fifth of a test server's main-thread CPU).
      // Anything else falls through to the not-found handler below. A build made after the start is served
      // after a restart.
      wildcard: false,
      // The build's runtime-config.js is the dev server's; the route above answers with this server's.
      globIgnore: ['runtime-config.js'],
      index: ['index.html'],
      // The build's `.br` and `.gz` copies (build/precompress.ts), by the request's Accept-Encoding.
      preCompressed: true,
      // Vite's /assets/ files carry a content hash in their names: cache them for good. The rest
      // (index.html, favicon) is revalidated.
      cacheControl: false,
      setHeaders: (reply, path) => {
        const hashed = path.startsWith(join(dist, 'assets'));
        reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const isPage =
      request.method === 'GET' &&
      !NOT_STUDIO.some((p) => request.url.startsWith(p)) &&
      (request.headers.accept ?? '').includes('text/html');
    if (isPage && hasStudio) reply.header('cache-control', 'no-cache').sendFile('index.html', dist);
    else reply.code(404).send({ detail: DETAILS.notFound });
  });
}
