/**
 * Passkeys for staff (docs/decisions/0115-passkeys-for-staff.md): WebAuthn with
 * @simplewebauthn/server.
 * - The relying party is the studio page's own host: the request's `Origin` must be one of the studio's
 *   addresses (PUBLIC_URL, SECOND_REGION_URL), and its host name is the RP ID. Browsers refuse WebAuthn on
 *   IP addresses, so an origin such as http://127.0.0.1:8080 gets 400 "Passkeys are not available on this
 *   address" (the demo's passkeys live on http://localhost:PORT).
 * - Challenges are kept in `webauthn_challenges` for 5 minutes and used once (deleted as they are read).
 * - Counters are checked by the library (a lower or equal non-zero counter is refused) and written back only
 *   when unchanged meanwhile, so two uses of one assertion cannot both pass.
 * - Every passkey write goes through `recordAudit`; sessions start only through `SessionService.start`.
 */
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { and, count, eq, lt } from 'drizzle-orm';
import type { LoginBody, Region } from '#contract/auth';
import {
  type AuthenticationResponse,
  PASSKEY_DETAILS,
  type Passkey,
  type PasskeyOptions,
  type PasskeyRegisterBody,
} from '#contract/passkeys';
import { verifyPassword } from '../auth/passwords';
import type { TokenService } from '../auth/tokens';
import type { ServerConfig } from '../config';
import type { DbOrTx } from '../db/client';
import { companies, passkeys, users, webauthnChallenges } from '../db/schema';
import { badRequest, DETAILS, notFound } from '../errors';
import { recordAudit } from './audit';

const CHALLENGE_TTL_MS = 5 * 60_000;
/** What the browser may take for its ceremony. */
const CEREMONY_TIMEOUT_MS = 120_000;
const RP_NAME = 'Verification Studio';

const notAccepted = () => badRequest(PASSKEY_DETAILS.notAccepted);

/** The studio's own origins: only their pages may use passkeys. */
export function studioOrigins(config: Pick<ServerConfig, 'publicUrl' | 'secondRegionUrl'>): Set<string> {
  const origins = new Set<string>();
  for (const url of [config.publicUrl, config.secondRegionUrl]) {
    try {
      origins.add(new URL(url).origin);
    } catch {
      // a malformed address is refused by the config itself
    }
  }
  return origins;
}

/** The relying party of the page that asks: its origin (a studio address) and its host name (the RP ID). */
export function relyingPartyOf(
  config: Pick<ServerConfig, 'publicUrl' | 'secondRegionUrl'>,
  origin: string | undefined,
): { origin: string; rpId: string } {
  if (!origin || !studioOrigins(config).has(origin)) throw badRequest(PASSKEY_DETAILS.unavailable);
  const host = new URL(origin).hostname;
  if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) throw badRequest(PASSKEY_DETAILS.unavailable);
  return { origin, rpId: host };
}

async function storeChallenge(
  db: DbOrTx,
  values: {
    purpose: 'register' | 'login';
    challenge: string;
    userId: number | null;
    origin: string;
    rpId: string;
  },
): Promise<string> {
  const id = randomUUID();
  const now = Date.now();
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, new Date(now)));
  await db.insert(webauthnChallenges).values({ id, ...values, expiresAt: new Date(now + CHALLENGE_TTL_MS) });
  return id;
}

/** Takes a challenge out of the store: null when unknown, already used, expired or of another purpose. */
async function consumeChallenge(db: DbOrTx, id: string, purpose: 'register' | 'login') {
  const [row] = await db
    .delete(webauthnChallenges)
    .where(and(eq(webauthnChallenges.id, id), eq(webauthnChallenges.purpose, purpose)))
    .returning();
  if (!row || row.expiresAt.getTime() <= Date.now()) return null;
  return row;
}

const toPasskey = (row: typeof passkeys.$inferSelect): Passkey => ({
  id: row.id,
  name: row.name,
  rp_id: row.rpId,
  device_type: row.deviceType === 'multiDevice' ? 'multiDevice' : 'singleDevice',
  backed_up: row.backedUp,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
});

export async function listPasskeys(db: DbOrTx, userId: number): Promise<Passkey[]> {
  const rows = await db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(passkeys.id);
  return rows.map(toPasskey);
}

async function passkeyCount(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return row?.n ?? 0;
}

async function confirmPassword(db: DbOrTx, userId: number, password: string) {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  if (!row) throw notFound();
  if (!(await verifyPassword(row.passwordHash, password))) throw badRequest(DETAILS.wrongPassword);
  return row;
}

// ---------------------------------------------------------------- registration (a signed-in user)

/** Options for `navigator.credentials.create()`: a discoverable credential with user verification. */
export async function registrationOptions(
  db: DbOrTx,
  config: Pick<ServerConfig, 'publicUrl' | 'secondRegionUrl'>,
  userId: number,
  origin: string | undefined,
): Promise<PasskeyOptions> {
  const rp = relyingPartyOf(config, origin);
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw notFound();
  const existing = await db
    .select({ id: passkeys.credentialId, transports: passkeys.transports })
    .from(passkeys)
    .where(and(eq(passkeys.userId, userId), eq(passkeys.rpId, rp.rpId)));
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.rpId,
    userName: user.email,
    userDisplayName: `${user.firstName} ${user.lastName}`.trim() || user.email,
    // The user handle names the user and nothing else: the id, as text.
    userID: new TextEncoder().encode(String(user.id)),
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing,
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
  });
  const challenge_id = await storeChallenge(db, {
    purpose: 'register',
    challenge: options.challenge,
    userId,
    ...rp,
  });
  return { challenge_id, options: options as unknown as Record<string, unknown> };
}

/** Verifies the attestation against the user's own challenge and stores the passkey (audited). */
export async function registerPasskey(
  db: DbOrTx,
  actor: { userId: number; companyId: number },
  body: PasskeyRegisterBody,
): Promise<Passkey> {
  await confirmPassword(db, actor.userId, body.password);
  return db.transaction(async (tx) => {
    const challenge = await consumeChallenge(tx, body.challenge_id, 'register');
    if (!challenge || challenge.userId !== actor.userId) throw notAccepted();
    const verification = await verifyRegistrationResponse({
      response: body.response as Parameters<typeof verifyRegistrationResponse>[0]['response'],
      expectedChallenge: challenge.challenge,
      expectedOrigin: challenge.origin,
      expectedRPID: challenge.rpId,
      requireUserVerification: true,
    }).catch(() => null);
    if (!verification?.verified) throw notAccepted();
    const info = verification.registrationInfo;
    const [taken] = await tx
      .select({ id: passkeys.id })
      .from(passkeys)
      .where(eq(passkeys.credentialId, info.credential.id));
    if (taken) throw notAccepted();
    const [row] = await tx
      .insert(passkeys)
      .values({
        userId: actor.userId,
        companyId: actor.companyId,
        credentialId: info.credential.id,
        publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
        counter: info.credential.counter,
        transports: info.credential.transports ?? [],
        rpId: challenge.rpId,
        name: body.name,
        deviceType: info.credentialDeviceType,
        backedUp: info.credentialBackedUp,
      })
      .returning();
    if (!row) throw notAccepted();
    await recordAudit(tx, {
      companyId: actor.companyId,
      actorId: actor.userId,
      object: 'passkey',
      objectId: row.id,
      action: 'passkey_registered',
      after: { user_id: actor.userId, name: row.name, rp_id: row.rpId, device_type: row.deviceType },
    });
    return toPasskey(row);
  });
}

/** Removes one of the user's passkeys once the account password is confirmed (audited). */
export async function removePasskey(
  db: DbOrTx,
  actor: { userId: number; companyId: number },
  id: number,
  password: string,
): Promise<void> {
  await confirmPassword(db, actor.userId, password);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(passkeys)
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, actor.userId)))
      .returning();
    if (!row) throw notFound();
    await recordAudit(tx, {
      companyId: actor.companyId,
      actorId: actor.userId,
      object: 'passkey',
      objectId: row.id,
      action: 'passkey_removed',
      before: { user_id: actor.userId, name: row.name, rp_id: row.rpId },
    });
  });
}

// ---------------------------------------------------------------- the company's requirement

export async function passkeyPolicy(db: DbOrTx, companyId: number): Promise<{ require_passkeys: boolean }> {
  const [row] = await db
    .select({ require: companies.requirePasskeys })
    .from(companies)
    .where(eq(companies.id, companyId));
  if (!row) throw notFound();
  return { require_passkeys: row.require };
}

/**
 * An Admin turns the requirement on or off (password confirmed, audited). Turning it on needs a passkey of
 * the Admin's own, so the Admin is never the first one locked out.
 */
export async function setPasskeyPolicy(
  db: DbOrTx,
  actor: { userId: number; companyId: number },
  body: { require_passkeys: boolean; password: string },
): Promise<{ require_passkeys: boolean }> {
  await confirmPassword(db, actor.userId, body.password);
  if (body.require_passkeys && (await passkeyCount(db, actor.userId)) === 0)
    throw badRequest(PASSKEY_DETAILS.adminHasNone);
  return db.transaction(async (tx) => {
    const before = await passkeyPolicy(tx, actor.companyId);
    await tx
      .update(companies)
      .set({ requirePasskeys: body.require_passkeys })
      .where(eq(companies.id, actor.companyId));
    if (before.require_passkeys !== body.require_passkeys) {
      await recordAudit(tx, {
        companyId: actor.companyId,
        actorId: actor.userId,
        object: 'company',
        objectId: actor.companyId,
        action: 'passkey_policy_changed',
        before,
        after: { require_passkeys: body.require_passkeys },
      });
    }
    return { require_passkeys: body.require_passkeys };
  });
}

// ---------------------------------------------------------------- signing in

/**
 * Options for `navigator.credentials.get()`: no credential list (the passkeys are discoverable, so the
 * browser offers the user's own), user verification required. The same options serve the second factor and
 * the sign-in without a password.
 */
export async function loginOptions(
  db: DbOrTx,
  config: Pick<ServerConfig, 'publicUrl' | 'secondRegionUrl'>,
  origin: string | undefined,
): Promise<PasskeyOptions> {
  const rp = relyingPartyOf(config, origin);
  const options = await generateAuthenticationOptions({
    rpID: rp.rpId,
    userVerification: 'required',
    timeout: CEREMONY_TIMEOUT_MS,
  });
  const challenge_id = await storeChallenge(db, {
    purpose: 'login',
    challenge: options.challenge,
    userId: null,
    ...rp,
  });
  return { challenge_id, options: options as unknown as Record<string, unknown> };
}

/**
 * Checks an assertion: its challenge (once, unexpired), its credential (of `userId` when given), the
 * signature, origin, RP ID, user verification and counter. Returns the passkey's row.
 */
export async function verifyAssertion(
  db: DbOrTx,
  challengeId: string,
  response: AuthenticationResponse,
  userId?: number,
) {
  const challenge = await consumeChallenge(db, challengeId, 'login');
  if (!challenge) throw notAccepted();
  const [credential] = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.credentialId, response.id), eq(passkeys.rpId, challenge.rpId)));
  if (!credential || (userId !== undefined && credential.userId !== userId)) throw notAccepted();
  const verification = await verifyAuthenticationResponse({
    response: response as Parameters<typeof verifyAuthenticationResponse>[0]['response'],
    expectedChallenge: challenge.challenge,
    expectedOrigin: challenge.origin,
    expectedRPID: challenge.rpId,
    credential: {
      id: credential.credentialId,
      publicKey: new Uint8Array(Buffer.from(credential.publicKey, 'base64url')),
      counter: credential.counter,
    },
    requireUserVerification: true,
  }).catch(() => null);
  if (!verification?.verified) throw notAccepted();
  // Written only if nobody used the passkey meanwhile (two requests with one counter value: one wins).
  const updated = await db
    .update(passkeys)
    .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: new Date() })
    .where(and(eq(passkeys.id, credential.id), eq(passkeys.counter, credential.counter)))
    .returning({ id: passkeys.id });
  if (updated.length === 0) throw notAccepted();
  return credential;
}

interface LoginUser {
  id: number;
  companyId: number;
  mfaSecret: string | null;
  region: Region;
}

/**
 * The passkey as the second factor of the password sign-in (called by `login` before the TOTP check):
 * true when `body.passkey` verified for this user. A user with passkeys who sends neither gets 400
 * "Passkey Required" (`otp: true` when a TOTP code is accepted instead: the user has two-factor and the
 * company does not require passkeys). A TOTP code is never enough in a company that requires passkeys.
 */
export async function passkeySecondFactor(
  deps: { db: DbOrTx },
  user: LoginUser,
  body: LoginBody,
): Promise<boolean> {
  if (body.passkey) {
    await verifyAssertion(deps.db, body.passkey.challenge_id, body.passkey.response, user.id);
    return true;
  }
  if ((await passkeyCount(deps.db, user.id)) === 0) return false;
  const { require_passkeys } = await passkeyPolicy(deps.db, user.companyId);
  const otpAccepted = !require_passkeys && user.mfaSecret !== null;
  if (!otpAccepted || !body.otp) throw badRequest(PASSKEY_DETAILS.required, { otp: otpAccepted });
  return false;
}

/**
 * After the password and any TOTP code: a user of a company that requires passkeys and who has none gets
 * 400 "Passkey Registration Required" with the restricted token of the forced two-factor setup (10
 * minutes; it may register a passkey and nothing else that matters), the user's `server` and `user_id`.
 */
export async function requirePasskeyRegistration(
  deps: { db: DbOrTx; tokens: Pick<TokenService, 'signMfaSetup'> },
  user: LoginUser,
): Promise<void> {
  const { require_passkeys } = await passkeyPolicy(deps.db, user.companyId);
  if (!require_passkeys || (await passkeyCount(deps.db, user.id)) > 0) return;
  const access = await deps.tokens.signMfaSetup({ user_id: user.id, company_id: user.companyId });
  throw badRequest(PASSKEY_DETAILS.registrationRequired, {
    access,
    server: user.region.server,
    user_id: user.id,
  });
}
