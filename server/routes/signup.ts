import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorSchema } from '#contract/common';
import { companyBodySchema, companyCreatedSchema } from '#contract/signup';
import type { AppContext } from '../context';
import { createCompany } from '../domain/signup';
import { DETAILS, unauthorized } from '../errors';
import { PUBLIC } from '../http/access';

/**
 * POST /stp/company (docs/product/api.md): the company of a verified sign-up and its first Admin. Not a staff route:
 * the bearer is the sign-up token that POST /user/email_otp/submit gives once the e-mail is proven, checked
 * here (the access hook knows only staff and customer tokens).
 */
export function signupRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/stp/company',
      {
        config: { access: PUBLIC },
        schema: {
          summary: 'Create the company of a verified sign-up',
          tags: ['signup'],
          description:
            'Bearer: the `signup_token` of POST /user/email_otp/submit (not an access token). Creates the ' +
            'company (payment status unpaid and no services until the checkout of POST /payment/buy_package ' +
            'is paid, which adds the package’s services) and its first Admin with the proven registration’s ' +
            'e-mail and password, audited, and answers the admin’s sign-in like a login. The token is single ' +
            'use: once the company exists it answers 401. 409 when the address already has an account; 400 ' +
            'for a custom-priced or unknown package.',
          security: [{ bearer: [] }],
          body: companyBodySchema,
          response: {
            200: companyCreatedSchema,
            400: errorSchema,
            401: errorSchema,
            403: errorSchema,
            409: errorSchema,
          },
        },
      },
      async (request) => {
        const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
        const claims = match?.[1] ? await ctx.tokens.verifySignup(match[1]) : null;
        if (!claims) throw unauthorized(match ? DETAILS.invalidToken : DETAILS.notAuthenticated);
        return createCompany(ctx, claims, request.body, {
          ip: request.ip,
          userAgent: request.headers['user-agent'],
        });
      },
    );
  };
}
