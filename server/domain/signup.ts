/**
 * Self-service account creation (stp/register, email_otp, stp/company).
 *
 * 1. `register`: e-mail and password (docs/product/validation.md#passwords). Each registration is its own pending row with
 *    its own password hash, and answers a random handle that only its registrant holds; a 6-digit code is
 *    mailed. A second registration for the address never touches the first one's password. The answer looks
 *    the same whether or not the address already has an account.
 * 2. `verifyEmail` (POST /user/email_otp/submit): a right code proves the address; the handle says which
 *    registration (so which password) the prover made. Only that pair gives the sign-up token; when the
 *    address already has an account, only now (to its proven owner) the answer says `already_registered`.
 * 3. `createCompany` (POST /stp/company, bearer: the sign-up token): the company and its first Admin (with the
 *    proven registration's password) are created in one transaction, with their audit rows; the answer is the
 *    new admin's sign-in. The token is single use: once the company exists it is refused (401), so it never
 *    mints a second session; the other pending registrations of the address are deleted.
 *    Unpaid companies get no services until the checkout is paid (docs/decisions/0107-unpaid-companies.md).
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { isAcceptablePassword, PASSWORD_RULE_DETAIL } from '#contract/passwords';
import type { CompanyCreated, EmailVerified } from '#contract/signup';
import { DAY_MS } from '#contract/time';
import { hashPassword } from '../auth/passwords';
import type { SignupClaims } from '../auth/tokens';
import type { AppContext } from '../context';
import { companies, packages, signups, users } from '../db/schema';
import { badRequest, conflict, DETAILS, forbidden, HttpError, unauthorized } from '../errors';
import { sendTemplated } from '../integrations/mailTemplates/send';
import { recordAudit } from './audit';
import type { LoginClient } from './login';
import { consumeCode, issueCode } from './oneTimeCodes';

type Ctx = Pick<AppContext, 'db' | 'config' | 'mail' | 'tokens' | 'regions' | 'sessions'>;

/** Lifetime of the sign-up token: long enough to choose a package and fill in the company profile. */
export const SIGNUP_TOKEN_TTL_SECONDS = 60 * 60;

export const SIGNUP_DETAILS = {
  alreadyRegistered: 'This e-mail address already has an account. Sign in or reset your password.',
  notVerified: 'The e-mail address is not verified yet',
  customPackage: 'This package has a custom price: ask us for an offer',
  unknownPackage: 'Unknown package',
} as const;

const lower = (email: string) => email.trim().toLowerCase();

async function hasAccount(ctx: Ctx, email: string): Promise<boolean> {
  const rows = await ctx.db
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, lower(email)))
    .limit(1);
  return rows.length > 0;
}

/** How long an unproven registration is kept (the codes live 10 minutes, the sign-up token 60). */
const PENDING_KEEP_MS = DAY_MS;

const handleHashOf = (handle: string) => createHash('sha256').update(handle).digest('base64url');

/** The address's pending registration made with this handle, if any. */
async function registrationOf(ctx: Ctx, email: string, handle: string) {
  const [row] = await ctx.db
    .select()
    .from(signups)
    .where(
      and(
        eq(sql`lower(${signups.email})`, lower(email)),
        eq(signups.handleHash, handleHashOf(handle)),
        isNull(signups.companyId),
      ),
    );
  return row ?? null;
}

/** True when one of the address's registrations already made a company. */
async function finishedSignup(ctx: Ctx, email: string): Promise<boolean> {
  const rows = await ctx.db
    .select({ id: signups.id })
    .from(signups)
    .where(and(eq(sql`lower(${signups.email})`, lower(email)), sql`${signups.companyId} is not null`))
    .limit(1);
  return rows.length > 0;
}

/** Mails the e-mail verification code of the create-account flow. */
export async function mailVerificationCode(ctx: Ctx, email: string): Promise<void> {
  const code = await issueCode(
    ctx.db,
    ctx.config.jwtSecret,
    ctx.config.oneTimeCodes,
    email,
    'email_verification',
  );
  const minutes = Math.round(ctx.config.oneTimeCodes.ttlMs / 60_000);
  await sendTemplated(ctx, 'signup_code', { email, companyId: null }, { code, minutes });
}

/**
 * A new pending registration of its own (the address's other registrations are left as they are) and a mailed
 * code; answers the registration's handle, which POST /user/email_otp/submit needs with the code.
 */
export async function register(ctx: Ctx, body: { email: string; password: string }): Promise<string> {
  if (!isAcceptablePassword(body.password)) throw badRequest(PASSWORD_RULE_DETAIL);
  const email = body.email.trim();
  const passwordHash = await hashPassword(body.password, ctx.config.argon2);
  const handle = randomBytes(24).toString('base64url');
  await ctx.db
    .delete(signups)
    .where(
      and(
        eq(sql`lower(${signups.email})`, lower(email)),
        isNull(signups.companyId),
        lt(signups.createdAt, new Date(Date.now() - PENDING_KEEP_MS)),
      ),
    );
  await ctx.db.insert(signups).values({ email, passwordHash, handleHash: handleHashOf(handle) });
  await mailVerificationCode(ctx, email);
  return handle;
}

/**
 * Checks the code. For the prover's own pending registration (named by its handle) answers its sign-up token;
 * for an address that already has an account `already_registered`; without a registration of this handle,
 * only `verified` (register again from this browser).
 */
export async function verifyEmail(
  ctx: Ctx,
  body: { email: string; otp: string; signup?: string | undefined },
): Promise<EmailVerified> {
  const ok = await consumeCode(
    ctx.db,
    ctx.config.jwtSecret,
    ctx.config.oneTimeCodes,
    body.email,
    'email_verification',
    body.otp,
  );
  if (!ok) throw badRequest(DETAILS.invalidCode);
  if ((await finishedSignup(ctx, body.email)) || (await hasAccount(ctx, body.email))) {
    return { verified: true, already_registered: true };
  }
  const signup = body.signup ? await registrationOf(ctx, body.email, body.signup) : null;
  if (!signup) return { verified: true };
  await ctx.db.update(signups).set({ emailVerifiedAt: new Date() }).where(eq(signups.id, signup.id));
  const signup_token = await ctx.tokens.signSignup(
    { signup_id: signup.id, email: signup.email },
    SIGNUP_TOKEN_TTL_SECONDS,
  );
  return { verified: true, signup_token };
}

/** The sign-in the new admin gets (as a login answers it), with its server-side session. */
async function signInOf(
  ctx: Ctx,
  user: { id: number; email: string; companyId: number },
  services: string[],
  client: LoginClient,
): Promise<CompanyCreated> {
  const region = ctx.regions[0];
  if (!region) throw new HttpError(500, DETAILS.serverError);
  const { access } = await ctx.sessions.start(ctx.db, {
    userId: user.id,
    companyId: user.companyId,
    email: user.email,
    isApiUser: false,
    ip: client.ip,
    userAgent: client.userAgent,
  });
  return {
    access,
    company_id: user.companyId,
    server: region.server,
    regions: [region],
    user_id: user.id,
    services,
  };
}

export interface CompanyInput {
  company_name: string;
  package: number;
  first_name: string;
  last_name: string;
  phone: string;
  industry: string;
  country: string;
}

export async function createCompany(
  ctx: Ctx,
  claims: SignupClaims,
  body: CompanyInput,
  client: LoginClient = {},
): Promise<CompanyCreated> {
  const [signup] = await ctx.db.select().from(signups).where(eq(signups.id, claims.signup_id));
  if (!signup || lower(signup.email) !== lower(claims.email)) throw forbidden(DETAILS.invalidToken);
  if (!signup.emailVerifiedAt) throw forbidden(SIGNUP_DETAILS.notVerified);

  // Single use: once its company exists the token is dead (it never signs anyone in again).
  if (signup.companyId !== null) throw unauthorized(DETAILS.invalidToken);
  if (await hasAccount(ctx, signup.email)) throw conflict(SIGNUP_DETAILS.alreadyRegistered);

  const [pkg] = await ctx.db.select().from(packages).where(eq(packages.id, body.package));
  if (!pkg) throw badRequest(SIGNUP_DETAILS.unknownPackage);
  if (pkg.isCustom) throw badRequest(SIGNUP_DETAILS.customPackage);
  // Services only once paid: the company starts with none; the paid checkout of the package adds
  // its services (and the AML provider with AML), as any later purchase does.
  const services: string[] = [];
  const region = ctx.regions[0];
  if (!region) throw new HttpError(500, DETAILS.serverError);

  const created = await ctx.db.transaction(async (tx) => {
    // Claims the sign-up first: of two concurrent calls only one goes on.
    const claimed = await tx
      .update(signups)
      .set({ companyId: null })
      .where(and(eq(signups.id, signup.id), sql`${signups.companyId} is null`))
      .returning({ id: signups.id });
    if (claimed.length !== 1) throw conflict(SIGNUP_DETAILS.alreadyRegistered);
    const [company] = await tx
      .insert(companies)
      .values({
        name: body.company_name,
        region: region.name,
        amlProvider: null,
        activeServices: services,
        industry: body.industry,
        country: body.country,
        packageId: pkg.id,
        paymentStatus: 'unpaid',
      })
      .returning();
    if (!company) throw new HttpError(500, DETAILS.serverError);
    const [admin] = await tx
      .insert(users)
      .values({
        companyId: company.id,
        email: signup.email,
        firstName: body.first_name,
        lastName: body.last_name,
        phone: body.phone,
        passwordHash: signup.passwordHash,
        role: 'Admin',
        isStaff: true,
      })
      .returning({ id: users.id, email: users.email, companyId: users.companyId });
    if (!admin) throw new HttpError(500, DETAILS.serverError);
    await tx.update(signups).set({ companyId: company.id }).where(eq(signups.id, signup.id));
    // The address's other registrations (another password, never proven) can no longer become anything.
    await tx
      .delete(signups)
      .where(and(eq(sql`lower(${signups.email})`, lower(signup.email)), isNull(signups.companyId)));
    const audit = { companyId: company.id, actorId: admin.id };
    await recordAudit(tx, {
      ...audit,
      object: 'signup',
      objectId: signup.id,
      action: 'registered',
      after: { email: signup.email, registered_at: signup.createdAt },
    });
    await recordAudit(tx, {
      ...audit,
      object: 'signup',
      objectId: signup.id,
      action: 'email_verified',
      after: { email: signup.email, verified_at: signup.emailVerifiedAt },
    });
    await recordAudit(tx, {
      ...audit,
      object: 'company',
      objectId: company.id,
      action: 'company_created',
      after: {
        name: company.name,
        package: pkg.name,
        services,
        industry: body.industry,
        country: body.country,
        region: region.name,
      },
    });
    await recordAudit(tx, {
      ...audit,
      object: 'user',
      objectId: admin.id,
      action: 'user_created',
      after: {
        email: admin.email,
        first_name: body.first_name,
        last_name: body.last_name,
        phone: body.phone,
        role: 'Admin',
      },
    });
    return admin;
  });
  return signInOf(ctx, created, services, client);
}
