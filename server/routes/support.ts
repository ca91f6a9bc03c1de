import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema } from '#contract/common';
import { contactUsBodySchema, contactUsResponseSchema } from '#contract/profileWrites';
import { take } from '../auth/attemptLimiter';
import type { AppContext } from '../context';
import { SUPPORT_ADDRESS, storeSupportMessage } from '../domain/profileWrites';
import { HttpError } from '../errors';
import { authenticate, PUBLIC } from '../http/access';

export const TOO_MANY_MESSAGES = 'Too many messages, try again later';

/**
 * The help desk (with and without a token): stores the message and mails it to the
 * support outbox. With a bearer token the sender is recorded (a token that does not verify is 401);
 * without one, messages are limited per client address.
 */
export function supportRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const limiter = ctx.limiters('support:address', 5, 60);
  return async (app) => {
    app.post(
      '/support/contact-us',
      {
        config: { access: PUBLIC },
        schema: {
          summary: 'Write to the help desk',
          tags: ['support'],
          description:
            'No token needed; with one, the user is recorded. Without a token: 5 messages a minute per address.',
          security: [],
          body: contactUsBodySchema,
          response: { 201: contactUsResponseSchema, 400: errorSchema, 401: errorSchema, 429: errorSchema },
        },
      },
      async (request, reply) => {
        const principal = request.headers.authorization ? await authenticate(ctx, request) : null;
        if (!principal) {
          const wait = await take(limiter, request.ip);
          if (wait > 0) {
            reply.header('retry-after', wait);
            throw new HttpError(429, TOO_MANY_MESSAGES);
          }
        }
        const { email, message, page } = request.body;
        const id = await storeSupportMessage(ctx.db, request.body, principal?.id ?? null);
        await ctx.mail.send({
          to: SUPPORT_ADDRESS,
          subject: `Help desk message #${id}${page ? ` from ${page}` : ''}`,
          body: [
            `From: ${email}`,
            principal
              ? `User: ${principal.email} (id ${principal.id}, company ${principal.companyId})`
              : 'User: not signed in',
            `Page: ${page ?? '-'}`,
            '',
            message,
          ].join('\n'),
        });
        return reply.code(201).send({ id });
      },
    );
  };
}
