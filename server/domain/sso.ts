/**
 * OpenID Connect single sign-on per company (docs/operators/sso.md, docs/decisions/0212-oidc-single-sign-on.md).
 * The authorization code flow with PKCE, state and nonce through `openid-client`: the state, nonce and verifier
 * are kept server-side and used once; the ID token is validated by the library (issuer, audience, expiry,
 * signature by the provider's published keys, fetched again when a new key appears, nonce). Each refusal has its
 * own detail (SSO_DETAILS) and is audited in the company's log.
 */
import { createHash, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import type { Region } from '#contract/auth';
import { ACCOUNT_DISABLED_DETAIL } from '#contract/sessionEnd';
import {
  SSO_DETAILS,
  type SsoCallbackBody,
  type SsoCallbackResponse,
  type SsoConfig,
  type SsoConfigBody,
  type SsoMapping,
  type SsoStartResponse,
  type SsoTestReport,
  ssoConfigBodySchema,
} from '#contract/sso';
import type { SecretBox } from '../auth/secrets';
import type { AppContext } from '../context';
import type { DbOrTx } from '../db/client';
import {
  companies,
  ssoConnections,
  ssoDomains,
  ssoIdentities,
  ssoSessions,
  ssoStates,
  users,
} from '../db/schema';
import { badRequest, conflict, HttpError, notFound } from '../errors';
import { changedFields, recordAudit } from './audit';
import { enforceIpAllowList } from './ipAllowList';
import type { Principal } from './principal';
import {
  applyMappedAccess,
  asRole,
  createProvisionedUser,
  mappedAccess,
  unusablePassword,
  userByEmail,
} from './provisioning';

type Ctx = Pick<AppContext, 'db' | 'secrets' | 'config' | 'regions' | 'sessions' | 'calls' | 'ipAllowList'>;
type Connection = typeof ssoConnections.$inferSelect;

/** How long a started sign-in may take at the provider. */
export const SSO_STATE_TTL_MS = 10 * 60_000;
/** How long the provider's metadata and keys are kept before discovery runs again. */
const DISCOVERY_TTL_MS = 5 * 60_000;
/** Seconds a request to the provider may take. */
const PROVIDER_TIMEOUT_S = 10;

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** Where the provider sends the browser back: the studio's sign-in page, which posts the answer to the callback route. */
export const redirectUriOf = (config: Pick<AppContext['config'], 'publicUrl'>) =>
  `${config.publicUrl.replace(/\/+$/, '')}/login`;

/** Plain HTTP only to a provider on this machine (development and tests); anywhere else it must be HTTPS. */
function isLoopback(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || (isIP(host) !== 0 && (host.startsWith('127.') || host === '::1'));
}

function checkIssuerUrl(issuer: string): URL {
  const url = new URL(issuer);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url)))
    throw badRequest('The issuer must be an https:// address');
  return url;
}

/** The provider's configuration (metadata, keys cache, client authentication), kept a few minutes per company. */
const discovered = new Map<string, { at: number; config: oidc.Configuration }>();

async function discover(
  issuer: string,
  clientId: string,
  secret: string | undefined,
): Promise<oidc.Configuration> {
  const url = checkIssuerUrl(issuer);
  // The ID token's signature is checked too (the library's non-repudiation checks), not only TLS to the token
  // endpoint: its keys come from the provider's jwks_uri, fetched again when a token names a new key.
  return oidc.discovery(url, clientId, undefined, secret ? oidc.ClientSecretBasic(secret) : oidc.None(), {
    execute: [
      ...(url.protocol === 'http:' ? [oidc.allowInsecureRequests] : []),
      oidc.enableNonRepudiationChecks,
    ],
    timeout: PROVIDER_TIMEOUT_S,
  });
}

async function providerOf(secrets: SecretBox, conn: Connection): Promise<oidc.Configuration> {
  const secret = conn.clientSecret ? secrets.open(conn.clientSecret) : undefined;
  const key = `${conn.companyId}|${conn.issuer}|${conn.clientId}|${sha256(secret ?? '')}`;
  const kept = discovered.get(key);
  if (kept && Date.now() - kept.at < DISCOVERY_TTL_MS) return kept.config;
  let config: oidc.Configuration;
  try {
    config = await discover(conn.issuer, conn.clientId, secret);
  } catch {
    throw badRequest(SSO_DETAILS.providerUnreachable);
  }
  for (const [k] of discovered) if (k.startsWith(`${conn.companyId}|`)) discovered.delete(k);
  discovered.set(key, { at: Date.now(), config });
  return config;
}

async function connectionOf(db: DbOrTx, companyId: number): Promise<Connection | null> {
  const [row] = await db.select().from(ssoConnections).where(eq(ssoConnections.companyId, companyId));
  return row ?? null;
}

async function domainsOf(db: DbOrTx, companyId: number): Promise<string[]> {
  const rows = await db
    .select({ domain: ssoDomains.domain })
    .from(ssoDomains)
    .where(eq(ssoDomains.companyId, companyId))
    .orderBy(ssoDomains.domain);
  return rows.map((r) => r.domain);
}

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

// --- The Admin's configuration ------------------------------------------------------------------------------

export async function getSsoConfig(ctx: Pick<Ctx, 'db' | 'config'>, companyId: number): Promise<SsoConfig> {
  const conn = await connectionOf(ctx.db, companyId);
  return {
    enabled: conn?.enabled ?? false,
    issuer: conn?.issuer ?? '',
    client_id: conn?.clientId ?? '',
    client_secret_set: Boolean(conn?.clientSecret),
    domains: await domainsOf(ctx.db, companyId),
    groups_claim: conn?.groupsClaim ?? 'groups',
    default_role: asRole(conn?.defaultRole ?? 'Restricted User'),
    mappings: (conn?.mappings ?? []).map((m) => ({ ...m, role: m.role === null ? null : asRole(m.role) })),
    sso_only: conn?.ssoOnly ?? false,
    break_glass_user_ids: conn?.breakGlassUserIds ?? [],
    redirect_uri: redirectUriOf(ctx.config),
    scim_token_set: Boolean(conn?.scimTokenHash),
    scim_base_url: `${ctx.config.publicUrl.replace(/\/+$/, '')}/scim/v2`,
  };
}

/**
 * PUT /company/sso: the whole configuration at once, audited (`sso_configured`, the secret never logged). A
 * domain belongs to one company; SSO only needs an enabled Admin named as break-glass account, so a
 * misconfigured provider never locks the company out.
 */
export async function setSsoConfig(
  ctx: Pick<Ctx, 'db' | 'secrets' | 'config'>,
  me: Principal,
  input: SsoConfigBody,
): Promise<SsoConfig> {
  const body = ssoConfigBodySchema.parse(input);
  checkIssuerUrl(body.issuer);
  const domains = [...new Set(body.domains)];
  const breakGlass = [...new Set(body.break_glass_user_ids)];
  await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(13045, 0)`);
    const before = await connectionOf(tx, me.companyId);
    if (!body.client_secret && !before?.clientSecret) throw badRequest(SSO_DETAILS.secretRequired);
    if (breakGlass.length > 0) {
      const admins = await tx
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            eq(users.companyId, me.companyId),
            eq(users.role, 'Admin'),
            eq(users.isActive, true),
            sql`${users.id} in ${breakGlass}`,
          ),
        );
      if (admins.length !== breakGlass.length) throw badRequest(SSO_DETAILS.breakGlassUnknown);
    }
    if (body.sso_only && breakGlass.length === 0) throw badRequest(SSO_DETAILS.breakGlassRequired);
    const taken = await tx
      .select({ domain: ssoDomains.domain })
      .from(ssoDomains)
      .where(and(sql`${ssoDomains.domain} in ${domains}`, sql`${ssoDomains.companyId} <> ${me.companyId}`));
    if (taken.length > 0) throw conflict(SSO_DETAILS.duplicateDomain);
    const values = {
      enabled: body.enabled,
      issuer: body.issuer.replace(/\/+$/, ''),
      clientId: body.client_id,
      ...(body.client_secret ? { clientSecret: ctx.secrets.seal(body.client_secret) } : {}),
      groupsClaim: body.groups_claim,
      defaultRole: body.default_role,
      mappings: body.mappings,
      ssoOnly: body.sso_only,
      breakGlassUserIds: breakGlass,
      updatedAt: new Date(),
    };
    await tx
      .insert(ssoConnections)
      .values({ companyId: me.companyId, ...values })
      .onConflictDoUpdate({ target: ssoConnections.companyId, set: values });
    const beforeDomains = await domainsOf(tx, me.companyId);
    await tx.delete(ssoDomains).where(eq(ssoDomains.companyId, me.companyId));
    await tx.insert(ssoDomains).values(domains.map((domain) => ({ domain, companyId: me.companyId })));
    const view = (c: Partial<Connection> | null, d: string[]) => ({
      enabled: c?.enabled ?? false,
      issuer: c?.issuer ?? null,
      client_id: c?.clientId ?? null,
      domains: d,
      groups_claim: c?.groupsClaim ?? null,
      default_role: c?.defaultRole ?? null,
      mappings: c?.mappings ?? [],
      sso_only: c?.ssoOnly ?? false,
      break_glass_user_ids: c?.breakGlassUserIds ?? [],
    });
    const diff = changedFields(view(before, beforeDomains), view(values, [...domains].sort()));
    await recordAudit(tx, {
      companyId: me.companyId,
      actorId: me.id,
      object: 'company',
      objectId: me.companyId,
      action: 'sso_configured',
      before: diff.before,
      after: { ...diff.after, ...(body.client_secret ? { client_secret: 'changed' } : {}) },
    });
  });
  return getSsoConfig(ctx, me.companyId);
}

/** POST /company/sso/test: discovery of the stored provider (or of `issuer`), reported field by field. */
export async function testSsoConnection(
  ctx: Pick<Ctx, 'db' | 'secrets'>,
  companyId: number,
  issuer?: string,
): Promise<SsoTestReport> {
  const conn = await connectionOf(ctx.db, companyId);
  const target = issuer ?? conn?.issuer;
  const empty = {
    issuer: null,
    authorization_endpoint: null,
    token_endpoint: null,
    jwks_uri: null,
    end_session_endpoint: null,
    keys: 0,
    code_challenge_methods: [],
  };
  if (!target) return { ok: false, ...empty, problem: 'No issuer is configured' };
  let config: oidc.Configuration;
  try {
    checkIssuerUrl(target);
    config = await discover(target, conn?.clientId ?? 'test', undefined);
  } catch (error) {
    const message =
      error instanceof HttpError ? error.detail : error instanceof Error ? error.message : String(error);
    return { ok: false, ...empty, problem: `Discovery failed: ${message}` };
  }
  const meta = config.serverMetadata();
  let keys = 0;
  let problem: string | null = null;
  if (meta.jwks_uri) {
    try {
      const response = await fetch(meta.jwks_uri, { signal: AbortSignal.timeout(PROVIDER_TIMEOUT_S * 1000) });
      const body = (await response.json()) as { keys?: { use?: string }[] };
      keys = (body.keys ?? []).filter((k) => k.use === undefined || k.use === 'sig').length;
    } catch (error) {
      problem = `The signing keys could not be read: ${error instanceof Error ? error.message : String(error)}`;
    }
  } else problem = 'The provider publishes no signing keys (jwks_uri)';
  const methods = meta.code_challenge_methods_supported ?? [];
  if (!problem && methods.length > 0 && !methods.includes('S256'))
    problem = 'The provider does not support PKCE with S256';
  if (!problem && keys === 0) problem = 'The provider publishes no signing keys';
  return {
    ok: problem === null,
    issuer: meta.issuer,
    authorization_endpoint: meta.authorization_endpoint ?? null,
    token_endpoint: meta.token_endpoint ?? null,
    jwks_uri: meta.jwks_uri ?? null,
    end_session_endpoint: meta.end_session_endpoint ?? null,
    keys,
    code_challenge_methods: methods,
    problem,
  };
}

// --- Signing in ---------------------------------------------------------------------------------------------

/** The enabled provider of an e-mail address's domain, if any. */
async function connectionForEmail(db: DbOrTx, email: string): Promise<Connection | null> {
  const [row] = await db
    .select({ conn: ssoConnections })
    .from(ssoDomains)
    .innerJoin(ssoConnections, eq(ssoConnections.companyId, ssoDomains.companyId))
    .where(and(eq(ssoDomains.domain, domainOf(email)), eq(ssoConnections.enabled, true)));
  return row?.conn ?? null;
}

/**
 * POST /sso/start: for an address of an SSO domain, the provider's authorization URL (PKCE S256, state, nonce,
 * the address as login hint); `{ sso: false }` for any other address, which signs in with its password.
 */
export async function startSso(
  ctx: Pick<Ctx, 'db' | 'secrets' | 'config'>,
  email: string,
  returnTo?: string,
  checkOnly = false,
): Promise<SsoStartResponse> {
  const conn = email.includes('@') ? await connectionForEmail(ctx.db, email) : null;
  if (!conn || checkOnly) return { sso: conn !== null };
  const config = await providerOf(ctx.secrets, conn);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const now = Date.now();
  // Sign-ins never finished are deleted a day after they expired.
  await ctx.db.delete(ssoStates).where(lt(ssoStates.expiresAt, new Date(now - 86_400_000)));
  await ctx.db.insert(ssoStates).values({
    stateHash: sha256(state),
    companyId: conn.companyId,
    codeVerifier: ctx.secrets.seal(verifier),
    nonce,
    email: email.toLowerCase(),
    returnTo: returnTo ?? null,
    expiresAt: new Date(now + SSO_STATE_TTL_MS),
  });
  const supported = config.serverMetadata().scopes_supported ?? [];
  const scope = [
    'openid',
    'email',
    'profile',
    ...(supported.includes(conn.groupsClaim) ? [conn.groupsClaim] : []),
  ];
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUriOf(ctx.config),
    scope: scope.join(' '),
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    login_hint: email,
  });
  return { sso: true, authorization_url: url.href };
}

/** Why an ID token or the exchange failed, as one of SSO_DETAILS and a short code for the audit log. */
function refusalOf(error: unknown): { detail: string; reason: string } {
  if (error instanceof oidc.AuthorizationResponseError || error instanceof oidc.ResponseBodyError)
    return { detail: SSO_DETAILS.providerRefused, reason: error.error };
  const code = (error as { code?: string }).code;
  const inner = (error as { cause?: { cause?: { claim?: string }; message?: string } }).cause;
  const claim = inner?.cause?.claim;
  if (code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED') {
    if (claim === 'iss') return { detail: SSO_DETAILS.wrongIssuer, reason: 'issuer' };
    if (claim === 'aud' || claim === 'azp') return { detail: SSO_DETAILS.wrongAudience, reason: 'audience' };
    if (claim === 'nonce') return { detail: SSO_DETAILS.nonceMismatch, reason: 'nonce' };
  }
  if (code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED')
    return { detail: SSO_DETAILS.tokenExpired, reason: 'expired' };
  if (code === 'OAUTH_KEY_SELECTION_FAILED' || /signature/i.test(inner?.message ?? ''))
    return { detail: SSO_DETAILS.badSignature, reason: 'signature' };
  if (code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED' || /state/i.test(inner?.message ?? ''))
    return { detail: SSO_DETAILS.stateInvalid, reason: 'state' };
  if (code === 'OAUTH_TIMEOUT' || error instanceof TypeError)
    return { detail: SSO_DETAILS.providerUnreachable, reason: 'unreachable' };
  return { detail: SSO_DETAILS.tokenInvalid, reason: code ?? 'invalid' };
}

/** Records a refused sign-in in the company's audit log and answers 400 with its detail. */
async function refuse(
  db: DbOrTx,
  companyId: number,
  who: { userId?: number | null; email: string },
  refusal: { detail: string; reason: string },
): Promise<never> {
  await recordAudit(db, {
    companyId,
    actorId: who.userId ?? null,
    object: 'user',
    objectId: who.userId ?? who.email,
    action: 'sso_sign_in_refused',
    after: { email: who.email, reason: refusal.reason },
  });
  throw badRequest(refusal.detail);
}

const groupsFrom = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((g): g is string => typeof g === 'string')
    : typeof value === 'string'
      ? [value]
      : [];

/**
 * POST /sso/callback: the provider's answer. The state is taken once (a second use, an expired or unknown one is
 * refused), the code exchanged with the verifier, the ID token validated, then the user found by their provider
 * subject or e-mail (or created just in time), given the mapped role and groups, and signed in.
 */
export async function finishSso(
  ctx: Ctx,
  body: SsoCallbackBody,
  client: { ip?: string; userAgent?: string } = {},
): Promise<SsoCallbackResponse> {
  const stateHash = sha256(body.state);
  const [taken] = await ctx.db
    .update(ssoStates)
    .set({ usedAt: new Date() })
    .where(
      and(eq(ssoStates.stateHash, stateHash), isNull(ssoStates.usedAt), gt(ssoStates.expiresAt, new Date())),
    )
    .returning();
  if (!taken) {
    const [known] = await ctx.db.select().from(ssoStates).where(eq(ssoStates.stateHash, stateHash));
    if (known)
      await refuse(
        ctx.db,
        known.companyId,
        { email: known.email },
        { detail: SSO_DETAILS.stateInvalid, reason: known.usedAt ? 'replayed' : 'expired' },
      );
    throw badRequest(SSO_DETAILS.stateInvalid);
  }
  const who = { email: taken.email };
  const conn = await connectionOf(ctx.db, taken.companyId);
  if (!conn?.enabled) throw badRequest(SSO_DETAILS.notConfigured);
  if (body.error)
    await refuse(ctx.db, conn.companyId, who, {
      detail: SSO_DETAILS.providerRefused,
      reason: body.error.slice(0, 100),
    });
  if (!body.code)
    await refuse(ctx.db, conn.companyId, who, { detail: SSO_DETAILS.tokenInvalid, reason: 'no_code' });

  const config = await providerOf(ctx.secrets, conn);
  const current = new URL(redirectUriOf(ctx.config));
  for (const key of ['code', 'state', 'iss'] as const) {
    const value = body[key];
    if (value !== undefined) current.searchParams.set(key, value);
  }
  let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
  try {
    tokens = await oidc.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: ctx.secrets.open(taken.codeVerifier),
      expectedState: body.state,
      expectedNonce: taken.nonce,
      idTokenExpected: true,
    });
  } catch (error) {
    return refuse(ctx.db, conn.companyId, who, refusalOf(error));
  }
  const idToken = tokens.id_token as string;
  let claims: Record<string, unknown> = { ...(tokens.claims() as Record<string, unknown>) };
  const subject = String(claims.sub);
  // Providers that keep the ID token small (Okta's org server, Keycloak) give the e-mail and groups at userinfo.
  if (
    (typeof claims.email !== 'string' || claims[conn.groupsClaim] === undefined) &&
    config.serverMetadata().userinfo_endpoint
  ) {
    try {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, subject);
      claims = {
        ...info,
        ...claims,
        ...(claims[conn.groupsClaim] === undefined ? { [conn.groupsClaim]: info[conn.groupsClaim] } : {}),
        email: claims.email ?? info.email,
        email_verified: claims.email_verified ?? info.email_verified,
      };
    } catch {
      // The ID token alone decides then.
    }
  }
  const email = typeof claims.email === 'string' ? claims.email.trim() : '';
  if (!email || claims.email_verified === false)
    await refuse(ctx.db, conn.companyId, who, { detail: SSO_DETAILS.emailMissing, reason: 'email_missing' });
  const domains = await domainsOf(ctx.db, conn.companyId);
  if (!domains.includes(domainOf(email)))
    await refuse(
      ctx.db,
      conn.companyId,
      { email },
      { detail: SSO_DETAILS.emailOutsideDomains, reason: 'domain' },
    );

  const mapping = mappedAccess(
    conn.mappings as SsoMapping[],
    asRole(conn.defaultRole),
    groupsFrom(claims[conn.groupsClaim]),
  );
  const issuer = config.serverMetadata().issuer;
  const breakGlass = new Set(conn.breakGlassUserIds);
  const userId = await ctx.db.transaction(async (tx) => {
    const [linked] = await tx
      .select({ userId: ssoIdentities.userId })
      .from(ssoIdentities)
      .where(
        and(
          eq(ssoIdentities.companyId, conn.companyId),
          eq(ssoIdentities.issuer, issuer),
          eq(ssoIdentities.subject, subject),
        ),
      );
    let id = linked?.userId ?? (await userByEmail(tx, conn.companyId, email))?.id ?? null;
    if (id === null) {
      const name = (key: string) =>
        typeof claims[key] === 'string' ? (claims[key] as string).slice(0, 150) : '';
      id = await createProvisionedUser(
        tx,
        conn.companyId,
        {
          email,
          firstName: name('given_name'),
          lastName: name('family_name'),
          role: mapping.role,
          groupIds: mapping.groupIds,
        },
        await unusablePassword(ctx.config.argon2),
        'sso',
      );
    } else if (!breakGlass.has(id)) {
      // The provider's groups decide the role at each sign-in; a break-glass account keeps the one it was given.
      await applyMappedAccess(tx, conn.companyId, id, mapping, 'sso');
    }
    if (!linked)
      await tx
        .insert(ssoIdentities)
        .values({ userId: id, companyId: conn.companyId, issuer, subject })
        .onConflictDoNothing();
    return id;
  });
  const [user] = await ctx.db
    .select({
      id: users.id,
      email: users.email,
      isActive: users.isActive,
      isApiUser: users.isApiUser,
      region: companies.region,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.id, userId));
  if (!user) throw notFound();
  if (!user.isActive || user.isApiUser)
    await refuse(
      ctx.db,
      conn.companyId,
      { userId, email },
      { detail: ACCOUNT_DISABLED_DETAIL, reason: 'disabled' },
    );
  if (client.ip !== undefined) await enforceIpAllowList(ctx, conn.companyId, client.ip);

  await ctx.db.update(users).set({ lastLogin: new Date() }).where(eq(users.id, userId));
  await ctx.calls.sessionStarted(conn.companyId, userId);
  const { access, sessionId } = await ctx.sessions.start(ctx.db, {
    userId,
    companyId: conn.companyId,
    email: user.email,
    isApiUser: false,
    ip: client.ip,
    userAgent: client.userAgent,
  });
  await ctx.db
    .insert(ssoSessions)
    .values({ sessionId, companyId: conn.companyId, idToken: ctx.secrets.seal(idToken) });
  await recordAudit(ctx.db, {
    companyId: conn.companyId,
    actorId: userId,
    object: 'user',
    objectId: userId,
    action: 'sso_signed_in',
    after: { email: user.email, role: mapping.role, issuer },
  });
  const region = ctx.regions.find((r) => r.name === user.region) ?? (ctx.regions[0] as Region);
  return {
    access,
    company_id: conn.companyId,
    server: region.server,
    regions: [region],
    return_to: taken.returnTo,
  };
}

/**
 * The one rule of "SSO only": a company that signs in with single sign-on only refuses every other sign-in
 * (password, passkey) but for its break-glass accounts. Audited.
 */
export async function refuseLocalSignIn(
  db: DbOrTx,
  user: { id: number; companyId: number; email: string },
): Promise<void> {
  const conn = await connectionOf(db, user.companyId);
  if (!conn?.enabled || !conn.ssoOnly || conn.breakGlassUserIds.includes(user.id)) return;
  await refuse(
    db,
    user.companyId,
    { userId: user.id, email: user.email },
    { detail: SSO_DETAILS.passwordOff, reason: 'sso_only' },
  );
}

/**
 * The provider's end-session address for a studio session started by SSO (RP-initiated logout), or null when the
 * session was not or the provider offers none. The caller ends the studio session itself.
 */
export async function ssoLogoutUrl(
  ctx: Pick<Ctx, 'db' | 'secrets' | 'config'>,
  sessionId: string | null,
): Promise<string | null> {
  if (!sessionId) return null;
  const [row] = await ctx.db.select().from(ssoSessions).where(eq(ssoSessions.sessionId, sessionId));
  if (!row) return null;
  const conn = await connectionOf(ctx.db, row.companyId);
  if (!conn) return null;
  let config: oidc.Configuration;
  try {
    config = await providerOf(ctx.secrets, conn);
  } catch {
    return null;
  }
  if (!config.serverMetadata().end_session_endpoint) return null;
  return oidc
    .buildEndSessionUrl(config, {
      id_token_hint: ctx.secrets.open(row.idToken),
      post_logout_redirect_uri: `${ctx.config.publicUrl.replace(/\/+$/, '')}/login`,
    })
    .toString();
}

// --- SCIM token ---------------------------------------------------------------------------------------------

/** A new SCIM token for the company, shown this once; the old one stops working at once. Audited. */
export async function rotateScimToken(db: DbOrTx, me: Principal): Promise<string> {
  const token = `scim_${randomBytes(32).toString('base64url')}`;
  const updated = await db
    .update(ssoConnections)
    .set({ scimTokenHash: sha256(token) })
    .where(eq(ssoConnections.companyId, me.companyId))
    .returning({ id: ssoConnections.companyId });
  if (updated.length === 0)
    await db
      .insert(ssoConnections)
      .values({ companyId: me.companyId, issuer: '', clientId: '', scimTokenHash: sha256(token) });
  await recordAudit(db, {
    companyId: me.companyId,
    actorId: me.id,
    object: 'company',
    objectId: me.companyId,
    action: 'scim_token_rotated',
  });
  return token;
}

/** The company of a SCIM bearer token, or null. */
export async function companyOfScimToken(db: DbOrTx, token: string): Promise<number | null> {
  const [row] = await db
    .select({ companyId: ssoConnections.companyId })
    .from(ssoConnections)
    .where(eq(ssoConnections.scimTokenHash, sha256(token)));
  return row?.companyId ?? null;
}
