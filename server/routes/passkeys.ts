import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loginErrorSchema, loginResponseSchema } from '#contract/auth';
import { errorSchema, idParams } from '#contract/common';
import {
  passkeyDeleteBodySchema,
  passkeyLoginBodySchema,
  passkeyOptionsSchema,
  passkeyPolicyBodySchema,
  passkeyPolicySchema,
  passkeyRegisterBodySchema,
  passkeySchema,
} from '#contract/passkeys';
import { PASSKEY_TOO_FAST } from '#contract/rateLimits';
import type { AppContext } from '../context';
import { loginWithPasskey } from '../domain/passkeyLogin';
import {
  listPasskeys,
  loginOptions,
  passkeyPolicy,
  registerPasskey,
  registrationOptions,
  removePasskey,
  setPasskeyPolicy,
} from '../domain/passkeys';
import { need, PUBLIC, principalOf, SIGNED_IN, SIGNED_IN_OR_MFA_SETUP } from '../http/access';
import { limitsText, rateLimit, rateLimited } from '../http/rateLimits';
import { authErrors } from './shared';

const ORIGIN =
  "The relying party is the calling page's origin (`Origin` header), which must be a studio address with a " +
  'host name (not an IP address); otherwise 400 "Passkeys are not available on this address".';

/** The login host's passkey sign-in (`/api/v1`, no token). */
export function passkeyLoginRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  // Both need no token: each options answer stores a challenge, each sign-in checks a signature.
  const { passkeyOptions, passkeySignIns } = ctx.config.rateLimits;
  const optionsLimited = rateLimit(ctx.limiters, 'passkey-options', PASSKEY_TOO_FAST, passkeyOptions);
  const signInsLimited = rateLimit(ctx.limiters, 'passkey-signins', PASSKEY_TOO_FAST, passkeySignIns);
  return async (app) => {
    const tags = ['auth'];
    app.post(
      '/login/passkey/options',
      {
        config: { access: PUBLIC },
        onRequest: optionsLimited,
        schema: {
          summary: 'Start a passkey sign-in',
          description:
            'A challenge (5 minutes, used once) and the options for `navigator.credentials.get()`: no ' +
            `credential list (discoverable passkeys), user verification required. ${ORIGIN} ` +
            limitsText(PASSKEY_TOO_FAST, passkeyOptions),
          tags,
          security: [],
          response: { 200: passkeyOptionsSchema, 400: errorSchema, ...rateLimited },
        },
      },
      async (request) => loginOptions(ctx.db, ctx.config, request.headers.origin),
    );

    app.post(
      '/login/passkey',
      {
        config: { access: PUBLIC },
        onRequest: signInsLimited,
        bodyLimit: 8 * 1024 * 1024,
        schema: {
          summary: 'Sign in with a passkey, without a password',
          description:
            'The assertion answering a challenge of `/login/passkey/options`. The passkey names its user; then ' +
            'the same checks as the password sign-in (IP allow-list, Password Reset Required, Two Factor Reset ' +
            'Required, Face Photo Required with `photo`). 400 "Passkey Not Accepted" for an unknown, used or ' +
            'expired challenge, an unknown passkey, a bad signature, origin or counter, or no user verification. ' +
            limitsText(PASSKEY_TOO_FAST, passkeySignIns),
          tags,
          security: [],
          body: passkeyLoginBodySchema,
          response: { 200: loginResponseSchema, 400: loginErrorSchema, 403: errorSchema, ...rateLimited },
        },
      },
      async (request) =>
        loginWithPasskey(ctx, request.body, { ip: request.ip, userAgent: request.headers['user-agent'] }),
    );
  };
}

/** The signed-in user's own passkeys and the company's requirement (`/api/v2`). */
export function passkeyRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['passkeys'];
    const own = (request: Parameters<typeof principalOf>[0]) => {
      const me = principalOf(request);
      return { userId: me.id, companyId: me.companyId };
    };

    app.get(
      '/passkeys',
      {
        config: { access: SIGNED_IN },
        schema: {
          summary: 'My passkeys',
          tags,
          response: { 200: z.array(passkeySchema), ...authErrors },
        },
      },
      async (request) => listPasskeys(ctx.db, principalOf(request).id),
    );

    app.post(
      '/passkeys/options',
      {
        config: { access: SIGNED_IN_OR_MFA_SETUP },
        schema: {
          summary: 'Start registering a passkey',
          description:
            'A challenge (5 minutes, used once) and the options for `navigator.credentials.create()`: a ' +
            `discoverable credential with user verification, the user's passkeys excluded. ${ORIGIN} Also ` +
            'accepts the restricted token of "Passkey Registration Required".',
          tags,
          response: { 200: passkeyOptionsSchema, ...authErrors },
        },
      },
      async (request) =>
        registrationOptions(ctx.db, ctx.config, principalOf(request).id, request.headers.origin),
    );

    app.post(
      '/passkeys',
      {
        config: { access: SIGNED_IN_OR_MFA_SETUP },
        schema: {
          summary: 'Register a passkey',
          description:
            'The attestation answering the user\'s own challenge, a name and the account password. 400 "Wrong ' +
            'password", or "Passkey Not Accepted" (challenge unknown, used, expired or of another user; ' +
            'attestation, origin or RP ID wrong; no user verification; passkey already registered). Audited.',
          tags,
          body: passkeyRegisterBodySchema,
          response: { 201: passkeySchema, ...authErrors },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await registerPasskey(ctx.db, own(request), request.body)),
    );

    app.delete(
      '/passkeys/:id',
      {
        config: { access: SIGNED_IN },
        schema: {
          summary: 'Remove one of my passkeys',
          description:
            'The account password confirms it (400 "Wrong password"); 404 for another user\'s. Audited.',
          tags,
          params: idParams,
          body: passkeyDeleteBodySchema,
          response: { 204: z.null(), ...authErrors },
        },
      },
      async (request, reply) => {
        await removePasskey(ctx.db, own(request), request.params.id, request.body.password);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/company/passkeys',
      {
        config: { access: need('view_company_page') },
        schema: {
          summary: "The company's passkey requirement",
          tags,
          response: { 200: passkeyPolicySchema, ...authErrors },
        },
      },
      async (request) => passkeyPolicy(ctx.db, principalOf(request).companyId),
    );

    app.put(
      '/company/passkeys',
      {
        config: { access: need('view_company_page', { admin: true }) },
        schema: {
          summary: 'Require passkeys for the company (Admins)',
          description:
            'With `require_passkeys: true` every user of the company signs in with a passkey (as the second ' +
            'factor or alone); a user without one registers one right after the password (400 "Passkey ' +
            'Registration Required" at sign-in). The password confirms the change; turning it on needs a ' +
            'passkey of the Admin\'s own (400 "Register a passkey for yourself first"). Audited.',
          tags,
          body: passkeyPolicyBodySchema,
          response: { 200: passkeyPolicySchema, ...authErrors },
        },
      },
      async (request) => setPasskeyPolicy(ctx.db, own(request), request.body),
    );
  };
}
