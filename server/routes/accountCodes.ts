import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  resetPasswordSubmitBodySchema,
  resetPasswordSubmitResponseSchema,
  sendCodeBodySchema,
  sendCodeResponseSchema,
} from '#contract/auth';
import { errorSchema } from '#contract/common';
import {
  emailVerifiedSchema,
  emailVerifyBodySchema,
  registerBodySchema,
  registerResponseSchema,
} from '#contract/signup';
import { type CodeGuard, createCodeGuard, limitEach } from '../auth/attemptLimiter';
import type { AppContext } from '../context';
import { sendPasswordResetCode, submitPasswordReset } from '../domain/account';
import { mailVerificationCode, register, verifyEmail } from '../domain/signup';
import { DETAILS, HttpError } from '../errors';
import { PUBLIC } from '../http/access';

const SENT = 'If the address is known, a code has been sent.';
/** Code submits from one client address per window (spraying many addresses' codes). */
const SUBMITS_PER_ADDRESS = 60;

/**
 * E-mailed one-time codes on the company server, no authentication (docs/product/api.md): password reset and e-mail
 * verification. Sends are limited per e-mail (and per client address); submits count wrong tries
 * per code.
 */
export function accountCodeRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const { sendsPerEmail, timeWindowMs } = ctx.config.oneTimeCodes;
  const window = Math.max(1, Math.round(timeWindowMs / 1000));
  const sendsByEmail = ctx.limiters('code:sends-email', sendsPerEmail, window);
  const sendsByAddress = ctx.limiters('code:sends-address', sendsPerEmail * 6, window);
  const submitsByAddress = ctx.limiters('code:submits-address', SUBMITS_PER_ADDRESS, window);
  const wrongCodes: CodeGuard = createCodeGuard(ctx.limiters);

  async function limitSends(
    purpose: string,
    email: string,
    ip: string,
    reply: { header(k: string, v: number): unknown },
  ) {
    const wait = await limitEach([
      [sendsByEmail, `${purpose}:${email.toLowerCase()}`],
      [sendsByAddress, `${purpose}:${ip}`],
    ]);
    if (wait > 0) {
      reply.header('retry-after', wait);
      throw new HttpError(429, DETAILS.tooManyCodeRequests);
    }
  }

  /**
   * A code submit: limited per client address (spraying), and to 10 wrong codes an hour per e-mail and purpose
   * (new codes add no tries). `check` runs the domain function; its `Invalid code` counts.
   */
  async function submitCode<T>(
    purpose: string,
    email: string,
    ip: string,
    reply: { header(k: string, v: number): unknown },
    check: () => Promise<T>,
  ): Promise<T> {
    const wait = await limitEach([[submitsByAddress, ip]]);
    const attempt = wait > 0 ? null : await wrongCodes.begin(purpose, email);
    if (!attempt?.allowed) {
      reply.header('retry-after', attempt?.retryAfterSeconds ?? wait);
      throw new HttpError(429, DETAILS.tooManyAttempts);
    }
    try {
      const result = await check();
      await attempt.settle('success');
      return result;
    } catch (error) {
      const wrong = error instanceof HttpError && error.detail === DETAILS.invalidCode;
      await attempt.settle(wrong ? 'failure' : 'neutral');
      throw error;
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
            'e-mail. Always 200, so it never tells whether the address is known; the answer goes out before ' +
            'the address is looked up, so known and unknown addresses take the same time.',
          security: [],
          body: sendCodeBodySchema,
          response: { 200: sendCodeResponseSchema, ...errors },
        },
        // The work after the answer: the same answer, at the same time, for a known and an unknown address.
        onResponse: async (request, reply) => {
          if (reply.statusCode === 200) ctx.mail.defer(() => sendPasswordResetCode(ctx, request.body.email));
        },
      },
      async (request, reply) => {
        await limitSends('reset', request.body.email, request.ip, reply);
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
            'Checks the code, applies the password rule, sets the new password and clears a forced ' +
            'password reset. 400 `Invalid code` for a wrong, used or expired code.',
          security: [],
          body: resetPasswordSubmitBodySchema,
          response: { 200: resetPasswordSubmitResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        await submitCode('reset', request.body.email, request.ip, reply, () =>
          submitPasswordReset(ctx, request.body),
        );
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
          description:
            'Mails a new e-mail verification code (create-account flow; the code of POST /stp/register sent ' +
            'again). Valid 10 minutes, single use, 5 wrong tries; only the newest code counts. Always 200.',
          security: [],
          body: sendCodeBodySchema,
          response: { 200: sendCodeResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        await limitSends('verify', request.body.email, request.ip, reply);
        await mailVerificationCode(ctx, request.body.email);
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
          description:
            'Checks the e-mail verification code: `{ verified: true }`, or 400 `Invalid code` (wrong, used or ' +
            'expired). With `signup`, the handle POST /stp/register answered, the answer carries ' +
            '`signup_token` for that registration (its password), the bearer token of POST /stp/company (60 ' +
            'minutes, single use); when the address already has an account it says `already_registered: ' +
            'true` instead, so only the proven owner of the address learns it.',
          security: [],
          body: emailVerifyBodySchema,
          response: { 200: emailVerifiedSchema, ...errors },
        },
      },
      async (request, reply) => {
        return submitCode('verify', request.body.email, request.ip, reply, () =>
          verifyEmail(ctx, request.body),
        );
      },
    );

    app.post(
      '/stp/register',
      {
        config: { access: PUBLIC },
        schema: {
          summary: 'Start a self-service sign-up',
          tags: ['signup'],
          description:
            'Keeps the e-mail and the password (8 or more characters with an upper-case letter, a lower-case ' +
            'letter and a symbol) as a pending registration of its own and mails a 6-digit verification ' +
            'code (valid 10 minutes, single use). Answers `signup`, the handle of this registration, which ' +
            'POST /user/email_otp/submit needs with the code: another registration of the address never ' +
            'changes this one. Answers alike whether or not the address already has an account; nothing is ' +
            'created before the code is submitted. Limited per address and per client address (429).',
          security: [],
          body: registerBodySchema,
          response: { 200: registerResponseSchema, ...errors },
        },
      },
      async (request, reply) => {
        await limitSends('verify', request.body.email, request.ip, reply);
        const signup = await register(ctx, request.body);
        return { detail: 'A code has been sent.', signup };
      },
    );
  };
}
