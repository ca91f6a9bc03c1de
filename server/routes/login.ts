import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  loginBodySchema,
  loginErrorSchema,
  loginResponseSchema,
  regionsResponseSchema,
} from '../../src/contract/auth';
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
        // A face photo of 5 MB is about 6.7 MB of base64.
        bodyLimit: 8 * 1024 * 1024,
        schema: {
          summary: 'Sign in',
          tags: ['auth'],
          description:
            'With accounts in several regions and no `server`, answers `{ regions }` only; log in again with `server`. ' +
            '400 details: Invalid Credentials, Password Reset Required, Two Factor Reset Required (with a restricted ' +
            '`access` token for otp_reset/otp_verify, 10 minutes, plus `server` and `user_id`), OTP Required, ' +
            "Invalid OTP, Face Photo Required, Face Not Matched, Face Login Unavailable. 403 when the company's IP " +
            "allow-list does not hold the caller's address (after the credentials are checked).",
          body: loginBodySchema,
          response: { 200: loginResponseSchema, 400: loginErrorSchema, 403: errorSchema, 429: errorSchema },
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
        return login(ctx, request.body, { ip: request.ip, userAgent: request.headers['user-agent'] });
      },
    );

    app.get(
      '/regions',
      {
        config: { access: PUBLIC },
        schema: {
          summary: 'Regions and their servers',
          tags: ['auth'],
          response: { 200: regionsResponseSchema },
        },
      },
      async () => ctx.regions,
    );
  };
}
