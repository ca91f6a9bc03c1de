import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorSchema } from '#contract/common';
import {
  scimTokenSchema,
  ssoCallbackBodySchema,
  ssoCallbackResponseSchema,
  ssoConfigBodySchema,
  ssoConfigSchema,
  ssoLogoutResponseSchema,
  ssoStartBodySchema,
  ssoStartResponseSchema,
  ssoTestReportSchema,
} from '#contract/sso';
import { take, tooManyRequests } from '../auth/attemptLimiter';
import type { AppContext } from '../context';
import {
  finishSso,
  getSsoConfig,
  rotateScimToken,
  setSsoConfig,
  ssoLogoutUrl,
  startSso,
  testSsoConnection,
} from '../domain/sso';
import { need, PUBLIC, principalOf, SIGNED_IN } from '../http/access';
import { authErrors } from './shared';

/** Started sign-ins per address in a minute: each keeps a row until it expires. */
const STARTS_PER_ADDRESS_PER_MINUTE = 30;

/** Single sign-on: the Admin's settings, and the public start and callback of a sign-in (server/domain/sso.ts). */
export function ssoRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const starts = ctx.limiters('sso:starts', STARTS_PER_ADDRESS_PER_MINUTE, 60);
  return async (app) => {
    const tags = ['auth'];
    const adminAccess = need('view_company_page', { admin: true });

    app.get(
      '/company/sso',
      {
        config: { access: adminAccess },
        schema: {
          summary: "The company's single sign-on",
          description:
            'Admins only. The client secret is never sent back (`client_secret_set` says one is stored); ' +
            '`redirect_uri` is the address to register with the identity provider.',
          tags,
          response: { 200: ssoConfigSchema, ...authErrors },
        },
      },
      async (request) => getSsoConfig(ctx, principalOf(request).companyId),
    );

    app.put(
      '/company/sso',
      {
        config: { access: adminAccess },
        schema: {
          summary: "Set the company's single sign-on",
          description:
            'Admins only. The issuer (its discovery document), client id and secret (sealed; omitted, the stored ' +
            'one stays), the e-mail domains it covers (409 when another company has one), the claim naming the ' +
            "user's groups and how groups map to roles and studio groups, SSO only and the break-glass Admins " +
            'who keep their password (SSO only needs at least one). Audited (`sso_configured`).',
          tags,
          body: ssoConfigBodySchema,
          response: { 200: ssoConfigSchema, ...authErrors, 409: errorSchema },
        },
      },
      async (request) => setSsoConfig(ctx, principalOf(request), request.body),
    );

    app.post(
      '/company/sso/test',
      {
        config: { access: adminAccess },
        schema: {
          summary: 'Test the connection to the identity provider',
          description:
            'Runs discovery for the stored issuer, or for `issuer` when given, and reports what it found (the ' +
            'endpoints, signing keys, PKCE methods) or why not.',
          body: z.strictObject({ issuer: z.string().max(500).optional() }).optional(),
          tags,
          response: { 200: ssoTestReportSchema, ...authErrors },
        },
      },
      async (request) => testSsoConnection(ctx, principalOf(request).companyId, request.body?.issuer),
    );

    app.post(
      '/company/scim/token',
      {
        config: { access: adminAccess },
        schema: {
          summary: 'Renew the SCIM token',
          description:
            'Admins only. A new bearer token for `/scim/v2`, shown this once (only its hash is kept); the old ' +
            'one stops working at once. Audited (`scim_token_rotated`).',
          tags,
          response: { 200: scimTokenSchema, ...authErrors },
        },
      },
      async (request) => ({ token: await rotateScimToken(ctx.db, principalOf(request)) }),
    );

    app.post(
      '/sso/start',
      {
        config: { access: PUBLIC },
        schema: {
          summary: 'Start a single sign-on',
          description:
            "For an address of a company's single sign-on domain, the identity provider's authorization URL " +
            '(authorization code flow, PKCE S256, state and nonce kept by the server for 10 minutes); ' +
            '`{ sso: false }` for any other address, which signs in with its password.',
          tags,
          body: ssoStartBodySchema,
          response: { 200: ssoStartResponseSchema, 400: errorSchema, 429: errorSchema },
        },
      },
      async (request, reply) => {
        const wait = await take(starts, request.ip);
        if (wait > 0) throw tooManyRequests(reply, 'Too many sign-in requests, try again later', wait);
        return startSso(ctx, request.body.email, request.body.return_to, request.body.check_only);
      },
    );

    app.post(
      '/sso/callback',
      {
        config: { access: PUBLIC },
        schema: {
          summary: 'Finish a single sign-on',
          description:
            'The query the identity provider sent the browser back with (`code`, `state`, `iss`, or `error`). The ' +
            'state is used once; the ID token is validated (issuer, audience, expiry, signature, nonce). A first ' +
            'sign-in creates the user with the mapped role; later ones apply the mapped role and groups. Every ' +
            'refusal is a 400 with its detail and is audited (`sso_sign_in_refused`).',
          tags,
          body: ssoCallbackBodySchema,
          response: { 200: ssoCallbackResponseSchema, 400: errorSchema, 403: errorSchema },
        },
      },
      async (request) =>
        finishSso(ctx, request.body, { ip: request.ip, userAgent: request.headers['user-agent'] }),
    );

    app.post(
      '/sso/logout',
      {
        config: { access: SIGNED_IN },
        schema: {
          summary: 'Log out of a single sign-on session',
          description:
            "Ends the caller's session like /session/logout and answers the identity provider's logout address " +
            '(RP-initiated logout) when the session was started by single sign-on and the provider offers one.',
          tags,
          response: { 200: ssoLogoutResponseSchema, ...authErrors },
        },
      },
      async (request) => {
        const me = principalOf(request);
        const url = await ssoLogoutUrl(ctx, request.sessionId);
        if (request.sessionId) await ctx.sessions.end(ctx.db, me.id, request.sessionId, 'logged_out');
        return { logout_url: url };
      },
    );
  };
}
