import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  emailOtpSubmitBodySchema,
  emailOtpSubmitResponseSchema,
  resetPasswordSubmitBodySchema,
  resetPasswordSubmitResponseSchema,
  sendCodeBodySchema,
  sendCodeResponseSchema,
} from '../../src/contract/auth';
import { errorSchema } from '../../src/contract/common';
import { createAttemptLimiter } from '../auth/attemptLimiter';
import type { AppContext } from '../context';
import {
  sendEmailVerificationCode,
  sendPasswordResetCode,
  submitEmailVerification,
  submitPasswordReset,
} from '../domain/account';
import { DETAILS, HttpError } from '../errors';
import { PUBLIC } from '../http/access';

const SENT = 'If the address is known, a code has been sent.';

/**
 * E-mailed one-time codes on the company server, no authentication (§7): password reset and e-mail
 * verification. Sends are limited per e-mail (and per client address); submits count wrong tries
 * per code.
 */
export function accountCodeRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { sendsPerEmail, timeWindowMs } = ctx.config.oneTimeCodes;
  const limiter = createAttemptLimiter(timeWindowMs);
  const submitLimiter = createAttemptLimiter(timeWindowMs);

  function limitSends(
    purpose: string,
    email: string,
    ip: string,
    reply: { header(k: string, v: number): unknown },
  ) {
    const verdict = limiter.hit([
      { key: `${purpose}:email:${email.toLowerCase()}`, max: sendsPerEmail },
      { key: `${purpose}:address:${ip}`, max: sendsPerEmail * 6 },
    ]);
    if (!verdict.allowed) {
      reply.header('retry-after', verdict.retryAfterSeconds);
      throw new HttpError(429, DETAILS.tooManyCodeRequests);
    }
  }

  /** Submits per client address: wrong tries are already limited per code; this slows spraying. */
  function limitSubmits(ip: string, reply: { header(k: string, v: number): unknown }) {
    const verdict = submitLimiter.hit([{ key: `address:${ip}`, max: ctx.config.loginRateLimit.perAddress }]);
    if (!verdict.allowed) {
      reply.header('retry-after', verdict.retryAfterSeconds);
      throw new HttpError(429, DETAILS.tooManyAttempts);
    }
  }

  const errors = { 400: errorSchema, 429: errorSchema };

  return async (app) => {
    app.post(
      '/user/reset_password/send',
      {
        config: { access: PUBLIC },
        schema: {
          summary: 'Send a password reset code',
          tags: ['auth'],
          description:
            'Mails a 6-digit code (valid 10 minutes, single use, 5 wrong tries) when an active user has this ' +
            'e-mail. Always 200, so it never tells whether the address is known.',
          security: [],
          body: sendCodeBodySchema,
          response: { 200: sendCodeResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        limitSends('reset', request.body.email, request.ip, reply);
        await sendPasswordResetCode(ctx, request.body.email);
        return { detail: SENT };
      },
    );

    app.post(
      '/user/reset_password/submit',
      {
        config: { access: PUBLIC },
        schema: {
          summary: 'Set a new password with the code',
          tags: ['auth'],
          description:
            'Checks the code, applies the §5 password rule, sets the new password and clears a forced ' +
            'password reset. 400 `Invalid code` for a wrong, used or expired code.',
          security: [],
          body: resetPasswordSubmitBodySchema,
          response: { 200: resetPasswordSubmitResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        limitSubmits(request.ip, reply);
        await submitPasswordReset(ctx, request.body);
        return { detail: 'Password successfully changed' };
      },
    );

    app.post(
      '/user/email_otp/send',
      {
        config: { access: PUBLIC },
        schema: {
          summary: 'Send an e-mail verification code',
          tags: ['auth'],
          description: 'Mails an e-mail verification code (create-account flow). Always 200.',
          security: [],
          body: sendCodeBodySchema,
          response: { 200: sendCodeResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        limitSends('verify', request.body.email, request.ip, reply);
        await sendEmailVerificationCode(ctx, request.body.email);
        return { detail: 'A code has been sent.' };
      },
    );

    app.post(
      '/user/email_otp/submit',
      {
        config: { access: PUBLIC },
        schema: {
          summary: 'Check an e-mail verification code',
          tags: ['auth'],
          description: 'Checks the e-mail verification code: `{ verified: true }`, or 400 `Invalid code`.',
          security: [],
          body: emailOtpSubmitBodySchema,
          response: { 200: emailOtpSubmitResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        limitSubmits(request.ip, reply);
        return submitEmailVerification(ctx, request.body);
      },
    );
  };
}
