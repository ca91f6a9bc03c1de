import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Permission } from '#contract/common';
import { SESSION_END_DETAILS } from '#contract/sessionEnd';
import type { CustomerClaims } from '../auth/tokens';
import type { AppContext } from '../context';
import { enforceIpAllowList } from '../domain/ipAllowList';
import type { Principal } from '../domain/principal';
import { DETAILS, forbidden, unauthorized } from '../errors';

/**
 * What a route requires, declared in its `config.access`:
 * - `{ public: true }`: no token;
 * - `{ permission }`: a valid token and that page permission (`null`: any signed-in user);
 * - `admin: true` also requires the Admin role;
 * - `{ customer: true }`: the token of a customer's join link (POST /profile/url), nothing else.
 */
export type Access =
  | { public: true }
  | { customer: true }
  | {
      permission: Permission | null;
      admin?: boolean;
      /** Also accepts the restricted token of a forced two-factor setup (its own user only). */
      mfaSetup?: boolean;
    };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    principal: Principal | null;
    /** The customer of a join link, on `{ customer: true }` routes. */
    customer: CustomerClaims | null;
    /** True when the caller used the restricted two-factor setup token. */
    mfaSetupToken: boolean;
    /** The server-side session of the caller's access token; null for other tokens. */
    sessionId: string | null;
  }
}

export const PUBLIC: Access = { public: true };
export const SIGNED_IN: Access = { permission: null };
export const CUSTOMER: Access = { customer: true };
/** A signed-in user, or the restricted token of a forced two-factor setup (otp_reset, otp_verify). */
export const SIGNED_IN_OR_MFA_SETUP: Access = { permission: null, mfaSetup: true };
export const need = (permission: Permission, options: { admin?: boolean } = {}): Access => ({
  permission,
  ...options,
});

/**
 * What a call captured as evidence: its step results (with what the customer typed, such as serial numbers and
 * codes) and its screenshots. The calls' permission, not the profiles' one a Restricted User holds
 * (docs/decisions/0198-rate-limits-and-evidence-roles.md).
 */
export const CALL_EVIDENCE: Access = need('view_calls_page');
/**
 * A call's signed evidence package: everything of the call in one download, for an archive or a regulator.
 * Its own permission, which Admins hold and an Admin grants others (an archive's API user) through a group.
 */
export const EVIDENCE_PACKAGE: Access = need('download_evidence');

/** The caller of a route that is not public (the hook guarantees it is there). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized(DETAILS.notAuthenticated);
  return request.principal;
}

/** The request's bearer token; for a customer route, the join-link token its calls are bound to. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/** The customer of a `{ customer: true }` route (the hook guarantees it is there). */
export function customerOf(request: FastifyRequest): CustomerClaims {
  if (!request.customer) throw unauthorized(DETAILS.notAuthenticated);
  return request.customer;
}

/** Authenticates the bearer token and checks the route's declared access. */
export async function authenticate(
  ctx: AppContext,
  request: FastifyRequest,
  options: { mfaSetup?: boolean } = {},
): Promise<Principal> {
  const token = bearerToken(request);
  if (!token) throw unauthorized(DETAILS.notAuthenticated);
  const access = await ctx.tokens.verifyAccess(token);
  // An access token is good only while its server-side session is (logout, password change end it).
  if (access && !(await ctx.sessions.check(ctx.db, access, request.ip))) {
    // Why it ended: the studio's sign-in page says so.
    const reason = await ctx.sessions.endReason(ctx.db, access);
    throw unauthorized(reason ? SESSION_END_DETAILS[reason] : DETAILS.invalidToken);
  }
  if (access) request.sessionId = access.session_id;
  let claims: { user_id: number; company_id: number; issued_at?: number } | null = access;
  if (!claims && options.mfaSetup) {
    claims = await ctx.tokens.verifyMfaSetup(token);
    if (claims) request.mfaSetupToken = true;
  }
  if (!claims)
    throw unauthorized(
      (await ctx.tokens.accessExpired(token)) ? SESSION_END_DETAILS.expired : DETAILS.invalidToken,
    );
  // A role, group or state change applies to the next request, in every process (docs/decisions/0179-principals-kept-until-they-change.md).
  const state = await ctx.principals.read(ctx.db, claims.user_id);
  const principal = state?.principal;
  if (!principal || principal.companyId !== claims.company_id) throw unauthorized(DETAILS.invalidToken);
  // A token without a session (the forced two-factor setup's) dies for good when its user is disabled.
  if (claims.issued_at !== undefined && state.disabledAt && claims.issued_at <= state.disabledAt.getTime())
    throw unauthorized(DETAILS.invalidToken);
  await enforceIpAllowList(ctx, principal.companyId, request.ip);
  return principal;
}

export function checkAccess(
  principal: Principal,
  access: Exclude<Access, { public: true } | { customer: true }>,
): void {
  if (access.admin && principal.role !== 'Admin') throw forbidden();
  if (access.permission && !principal.permissions.includes(access.permission)) throw forbidden();
}

/**
 * Installs the access hook. Every route must declare its access: a route without one fails at
 * start-up, so no route is open by accident.
 */
export function installAccessControl(app: FastifyInstance, ctx: AppContext, guardedPrefixes: string[]): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('customer', null);
  app.decorateRequest('mfaSetupToken', false);
  app.decorateRequest('sessionId', null);
  app.addHook('onRoute', (route) => {
    const guarded = guardedPrefixes.some((p) => route.url.startsWith(p));
    if (guarded && !route.config?.access) {
      throw new Error(`Route ${route.method} ${route.url} declares no access`);
    }
    // In the OpenAPI document a public route needs no token, unless it names its own scheme.
    if (route.config?.access && 'public' in route.config.access && route.schema && !route.schema.security)
      route.schema = { ...route.schema, security: [] };
  });
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    if (!access || 'public' in access) return;
    if ('customer' in access) {
      const token = bearerToken(request);
      request.customer = token ? await ctx.tokens.verifyCustomer(token) : null;
      if (!request.customer) throw unauthorized(DETAILS.invalidToken);
      return;
    }
    const principal = await authenticate(ctx, request, { mfaSetup: access.mfaSetup === true });
    checkAccess(principal, access);
    request.principal = principal;
  });
}
