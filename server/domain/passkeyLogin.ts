/**
 * Sign-in with a passkey alone: the passkey names its user; server/domain/passkeys.ts
 * holds the ceremonies, server/domain/login.ts the password sign-in whose checks this one repeats.
 */
import { eq } from 'drizzle-orm';
import type { LoginResponse, Region } from '#contract/auth';
import type { PasskeyLoginBody } from '#contract/passkeys';
import { companies, users } from '../db/schema';
import { badRequest, DETAILS } from '../errors';
import { enforceIpAllowList } from './ipAllowList';
import { checkFacePhoto, type LoginClient, type LoginDeps } from './login';
import { verifyAssertion } from './passkeys';
import { refuseLocalSignIn } from './sso';

/**
 * Sign-in without a password: the passkey (discoverable, user-verified) names its user. The same checks as
 * the password sign-in follow: active staff user, the IP allow-list, the forced steps and the face photo;
 * then the session starts through the one session path.
 */
export async function loginWithPasskey(
  deps: LoginDeps,
  body: PasskeyLoginBody,
  client: LoginClient = {},
): Promise<LoginResponse> {
  const credential = await verifyAssertion(deps.db, body.challenge_id, body.response);
  const [found] = await deps.db
    .select({ user: users, regionName: companies.region })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.id, credential.userId));
  if (!found) throw badRequest(DETAILS.invalidCredentials);
  const { user: row, regionName } = found;
  if (!row.isActive || row.isApiUser) throw badRequest(DETAILS.invalidCredentials);
  await refuseLocalSignIn(deps.db, row);
  const region = deps.regions.find((r) => r.name === regionName) ?? (deps.regions[0] as Region);
  if (deps.ipAllowList && client.ip !== undefined)
    await enforceIpAllowList({ ipAllowList: deps.ipAllowList }, row.companyId, client.ip);
  if (row.forcePasswordReset) throw badRequest(DETAILS.passwordResetRequired);
  if (row.forceMfaReset) {
    const access = await deps.tokens.signMfaSetup({ user_id: row.id, company_id: row.companyId });
    throw badRequest(DETAILS.twoFactorResetRequired, { access, server: region.server, user_id: row.id });
  }
  if (row.photoKey) await checkFacePhoto(deps, row.photoKey, body.photo);

  await deps.db.update(users).set({ lastLogin: new Date() }).where(eq(users.id, row.id));
  await deps.calls.sessionStarted(row.companyId, row.id);
  const { access } = await deps.sessions.start(deps.db, {
    userId: row.id,
    companyId: row.companyId,
    email: row.email,
    isApiUser: false,
    ip: client.ip,
    userAgent: client.userAgent,
  });
  return { access, company_id: row.companyId, server: region.server, regions: [region] };
}
