import { eq, sql } from 'drizzle-orm';
import type { LoginBody, LoginResponse, Region } from '../../src/contract/auth';
import { verifyPassword } from '../auth/passwords';
import type { SecretBox } from '../auth/secrets';
import type { TokenService } from '../auth/tokens';
import { verifyTotp } from '../auth/totp';
import type { DbOrTx } from '../db/client';
import { companies, users } from '../db/schema';
import { badRequest, DETAILS } from '../errors';

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
 * The login of the login host (§7, §4): password first, then the region choice, the forced resets
 * (§8) and the one-time code. Throws 400 `{ detail }` errors.
 */
export async function login(
  deps: { db: DbOrTx; tokens: TokenService; secrets: SecretBox; regions: Region[] },
  body: LoginBody,
): Promise<LoginResponse> {
  const candidates = await candidatesFor(deps.db, deps.regions, body.username);
  if (candidates.length === 0) {
    await verifyPassword(DUMMY_HASH, body.password);
    throw badRequest(DETAILS.invalidCredentials);
  }
  const matching: Candidate[] = [];
  for (const candidate of candidates) {
    if ((await verifyPassword(candidate.passwordHash, body.password)) && candidate.isActive)
      matching.push(candidate);
  }
  if (matching.length === 0) throw badRequest(DETAILS.invalidCredentials);

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

  if (user.forcePasswordReset) throw badRequest(DETAILS.passwordResetRequired);
  if (user.forceMfaReset) throw badRequest(DETAILS.twoFactorResetRequired);
  if (user.mfaSecret) {
    if (!body.otp) throw badRequest(DETAILS.otpRequired);
    if (!verifyTotp(deps.secrets.open(user.mfaSecret), body.otp)) throw badRequest(DETAILS.invalidOtp);
  }

  // A new session starts Offline (§4 agent availability).
  await deps.db
    .update(users)
    .set({ lastLogin: new Date(), agentStatus: 'Offline' })
    .where(eq(users.id, user.id));
  const access = await deps.tokens.signAccess({
    user_id: user.id,
    company_id: user.companyId,
    email: user.email,
    is_api_user: user.isApiUser,
  });
  return { access, company_id: user.companyId, server: user.region.server, regions };
}
