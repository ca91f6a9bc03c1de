import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { loginBodySchema, loginResponseSchema, regionsResponseSchema } from '../../src/contract/auth';
import { errorSchema } from '../../src/contract/common';
import { createAttemptLimiter } from '../auth/attemptLimiter';
import type { AppContext } from '../context';
import { login } from '../domain/login';
import { DETAILS, HttpError } from '../errors';
import { PUBLIC } from '../http/access';

/** The login host (`/api/v1`): no company server, no token. */
export function loginRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const limiter = createAttemptLimiter(ctx.config.loginRateLimit.timeWindowMs);
  return async (app) => {
    app.post(
      '/login/',
      {
        config: { access: PUBLIC },
        schema: {
          tags: ['auth'],
          description:
            'With accounts in several regions and no `server`, answers `{ regions }` only; log in again with `server`.',
          body: loginBodySchema,
          response: { 200: loginResponseSchema, 400: errorSchema, 429: errorSchema },
        },
      },
      async (request, reply) => {
        const { perAccount, perAddress } = ctx.config.loginRateLimit;
        const verdict = limiter.hit([
          { key: `account:${request.body.username.toLowerCase()}`, max: perAccount },
          { key: `address:${request.ip}`, max: perAddress },
        ]);
        if (!verdict.allowed) {
          reply.header('retry-after', verdict.retryAfterSeconds);
          throw new HttpError(429, DETAILS.tooManyAttempts);
        }
        return login(ctx, request.body);
      },
    );

    app.get(
      '/regions',
      {
        config: { access: PUBLIC },
        schema: { tags: ['auth'], response: { 200: regionsResponseSchema } },
      },
      async () => ctx.regions,
    );
  };
}
