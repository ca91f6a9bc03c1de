import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  loginBodySchema,
  loginErrorSchema,
  loginResponseSchema,
  regionsResponseSchema,
} from '#contract/auth';
import { errorSchema } from '#contract/common';
import { type AttemptOutcome, createLoginGuard } from '../auth/attemptLimiter';
import type { AppContext } from '../context';
import { login } from '../domain/login';
import { DETAILS, HttpError } from '../errors';
import { PUBLIC } from '../http/access';

/** Answers that mean a wrong guess (password, code, face): they count towards the sign-in limits. */
const FAILURES: ReadonlySet<string> = new Set([
  DETAILS.invalidCredentials,
  DETAILS.invalidOtp,
  DETAILS.faceNotMatched,
]);

function outcomeOf(error: unknown): AttemptOutcome {
  return error instanceof HttpError && error.statusCode === 400 && FAILURES.has(error.detail)
    ? 'failure'
    : 'neutral';
}

/** The login host (`/api/v1`): no company server, no token. */
export function loginRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const guard = createLoginGuard(ctx.limiters, ctx.config.loginRateLimit);
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
            '400 details: Invalid Credentials, Your account is disabled. Contact your administrator. (the right password of a disabled account), Password Reset Required, Two Factor Reset Required (with a restricted ' +
            '`access` token for otp_reset/otp_verify, 10 minutes, plus `server` and `user_id`), OTP Required, ' +
            "Invalid OTP, Face Photo Required, Face Not Matched, Face Login Unavailable. 403 when the company's IP " +
            "allow-list does not hold the caller's address (after the credentials are checked).",
          body: loginBodySchema,
          response: { 200: loginResponseSchema, 400: loginErrorSchema, 403: errorSchema, 429: errorSchema },
        },
      },
      async (request, reply) => {
        // Limits per account and address, per address, and per account (server/auth/attemptLimiter.ts).
        const attempt = await guard.begin(request.body.username.trim().toLowerCase(), request.ip);
        if (!attempt.allowed) {
          reply.header('retry-after', attempt.retryAfterSeconds);
          throw new HttpError(429, DETAILS.tooManyAttempts);
        }
        try {
          const answer = await login(ctx, request.body, {
            ip: request.ip,
            userAgent: request.headers['user-agent'],
          });
          await attempt.settle('access' in answer ? 'success' : 'neutral');
          return answer;
        } catch (error) {
          await attempt.settle(outcomeOf(error));
          throw error;
        }
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
