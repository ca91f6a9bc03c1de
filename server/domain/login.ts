import { eq, sql } from 'drizzle-orm';
import type { LoginBody, LoginResponse, Region } from '#contract/auth';
import { ACCOUNT_DISABLED_DETAIL } from '#contract/sessionEnd';
import { verifyPassword } from '../auth/passwords';
import type { SecretBox } from '../auth/secrets';
import type { TokenService } from '../auth/tokens';
import { consumeTotp } from '../auth/totp';
import type { DbOrTx } from '../db/client';
import { companies, users } from '../db/schema';
import { badRequest, DETAILS } from '../errors';
import type { FaceMatcher } from '../integrations/faceMatch';
import { parsePhoto } from '../integrations/images';
import type { CallDesk } from '../realtime/callDesk';
import type { Storage } from '../storage/storage';
import { enforceIpAllowList, type IpAllowListCache } from './ipAllowList';
import { passkeySecondFactor, requirePasskeyRegistration } from './passkeys';
import type { SessionService } from './sessions';
import { refuseLocalSignIn } from './sso';

interface Candidate {
  id: number;
  companyId: number;
  email: string;
  passwordHash: string;
  isActive: boolean;
  isApiUser: boolean;
  mfaSecret: string | null;
  forcePasswordReset: boolean;
  forceMfaReset: boolean;
  photoKey: string | null;
  region: Region;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** A valid argon2id hash of a random password: checked when no account matches, so timing tells nothing. */
const DUMMY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$T1az6UJ9IrEFHBmj+EUBOQ$7WbkQ1CD1uROFJoXTNmdwIdeY1N1L1NEbjPmOSvwx8Q';

async function candidatesFor(db: DbOrTx, regions: Region[], username: string): Promise<Candidate[]> {
  const rows = await db
    .select({
      id: users.id,
      companyId: users.companyId,
      email: users.email,
      passwordHash: users.passwordHash,
      isActive: users.isActive,
      isApiUser: users.isApiUser,
      mfaSecret: users.mfaSecret,
      forcePasswordReset: users.forcePasswordReset,
      forceMfaReset: users.forceMfaReset,
      photoKey: users.photoKey,
      regionName: companies.region,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(eq(sql`lower(${users.email})`, username.toLowerCase()))
    .orderBy(users.id);
  const fallback = regions[0] as Region;
  return rows.map(({ regionName, ...row }) => ({
    ...row,
    region: regions.find((r) => r.name === regionName) ?? fallback,
  }));
}

function uniqueRegions(candidates: Candidate[]): Region[] {
  const seen = new Map<string, Region>();
  for (const c of candidates) seen.set(c.region.name, c.region);
  return [...seen.values()];
}

/**
 * The login of the login host (docs/product/api.md, docs/product/states.md): password first, then the region choice, the forced resets
 * (docs/product/errors.md), the one-time code and the face photo. Throws 400 `{ detail }` errors; "Two Factor Reset
 * Required" also carries a restricted `access` token, the user's `server` and `user_id`.
 */
async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * The face photo step: a user with an auth photo must send a photo that the face matcher finds to be
 * the same person. Never accepted without a comparison.
 */
export async function checkFacePhoto(
  deps: { storage: Storage; faceMatcher: FaceMatcher },
  photoKey: string,
  photo: string | null | undefined,
): Promise<void> {
  if (!photo) throw badRequest(DETAILS.facePhotoRequired);
  const probe = parsePhoto(photo);
  if (!probe) throw badRequest(DETAILS.faceNotMatched);
  let reference: Buffer;
  try {
    reference = await readAll(deps.storage.open(photoKey));
  } catch {
    throw badRequest(DETAILS.faceLoginUnavailable);
  }
  const result = await deps.faceMatcher
    .compare(reference, probe.bytes)
    .catch(() => ({ outcome: 'unavailable' as const }));
  if (result.outcome === 'unavailable') throw badRequest(DETAILS.faceLoginUnavailable);
  if (result.outcome !== 'match') throw badRequest(DETAILS.faceNotMatched);
}

export interface LoginDeps {
  db: DbOrTx;
  calls: Pick<CallDesk, 'sessionStarted'>;
  tokens: TokenService;
  secrets: SecretBox;
  regions: Region[];
  storage: Storage;
  faceMatcher: FaceMatcher;
  /** The companies' IP allow-lists, checked once the account is known. */
  ipAllowList?: IpAllowListCache;
  sessions: Pick<SessionService, 'start'>;
}

/**
 * Where a sign-in comes from: its address is checked against the IP allow-list of the chosen account's company,
 * and kept with its user agent in the server-side session (the /settings session list).
 */
export interface LoginClient {
  ip?: string;
  userAgent?: string;
}

export async function login(
  deps: LoginDeps,
  body: LoginBody,
  client: LoginClient = {},
): Promise<LoginResponse> {
  const candidates = await candidatesFor(deps.db, deps.regions, body.username);
  if (candidates.length === 0) {
    await verifyPassword(DUMMY_HASH, body.password);
    throw badRequest(DETAILS.invalidCredentials);
  }
  const matching: Candidate[] = [];
  let disabled = false;
  for (const candidate of candidates) {
    if (!(await verifyPassword(candidate.passwordHash, body.password))) continue;
    if (candidate.isActive) matching.push(candidate);
    else disabled = true;
  }
  // Only the right password learns that the account is disabled; a guess stays Invalid Credentials.
  if (matching.length === 0)
    throw badRequest(disabled ? ACCOUNT_DISABLED_DETAIL : DETAILS.invalidCredentials);

  const regions = uniqueRegions(matching);
  let chosen = matching;
  if (body.server) {
    const server = trimSlash(body.server);
    chosen = matching.filter((c) => trimSlash(c.region.server) === server);
    if (chosen.length === 0) throw badRequest(DETAILS.invalidCredentials);
  } else if (regions.length > 1) {
    return { regions };
  }
  const user = chosen[0] as Candidate;
  if (deps.ipAllowList && client.ip !== undefined)
    await enforceIpAllowList({ ipAllowList: deps.ipAllowList }, user.companyId, client.ip);
  // A company on "SSO only" signs in through its provider; its break-glass accounts keep their password.
  await refuseLocalSignIn(deps.db, user);

  if (user.forcePasswordReset) throw badRequest(DETAILS.passwordResetRequired);
  if (user.forceMfaReset) {
    // A token that may only set up two-factor for this user (otp_reset, otp_verify), 10 minutes.
    const access = await deps.tokens.signMfaSetup({ user_id: user.id, company_id: user.companyId });
    throw badRequest(DETAILS.twoFactorResetRequired, {
      access,
      server: user.region.server,
      user_id: user.id,
    });
  }
  // Passkeys (server/domain/passkeys.ts): the passkey as the second factor, instead of TOTP.
  const passkeyUsed = await passkeySecondFactor(deps, user, body);
  if (user.mfaSecret && !passkeyUsed) {
    if (!body.otp) throw badRequest(DETAILS.otpRequired);
    // Each time step signs in once: a replayed code gets the answer of a wrong one.
    if (!(await consumeTotp(deps.db, user.id, deps.secrets.open(user.mfaSecret), body.otp)))
      throw badRequest(DETAILS.invalidOtp);
  }
  await requirePasskeyRegistration(deps, user);
  if (user.photoKey) await checkFacePhoto(deps, user.photoKey, body.photo);

  await deps.db.update(users).set({ lastLogin: new Date() }).where(eq(users.id, user.id));
  // Availability changes through the call desk only (persisted and broadcast): an agent live elsewhere keeps
  // it, any other new session starts Offline (docs/product/states.md).
  await deps.calls.sessionStarted(user.companyId, user.id);
  const { access } = await deps.sessions.start(deps.db, {
    userId: user.id,
    companyId: user.companyId,
    email: user.email,
    isApiUser: user.isApiUser,
    ip: client.ip,
    userAgent: client.userAgent,
  });
  return { access, company_id: user.companyId, server: user.region.server, regions };
}
