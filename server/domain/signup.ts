/**
 * Self-service account creation (issue 16; SPEC §1, §7 stp/register, email_otp, stp/company).
 *
 * 1. `register`: e-mail and password (§5 create-account rule). A pending sign-up row keeps the password hash;
 *    a 6-digit code is mailed. The answer is the same whether or not the address already has an account.
 * 2. `verifyEmail` (POST /user/email_otp/submit): a right code proves the address. For a pending sign-up the
 *    answer carries a short-lived sign-up token; when the address already has an account, only now (to its
 *    proven owner) the answer says `already_registered` and no token is given.
 * 3. `createCompany` (POST /stp/company, bearer: the sign-up token): the company (with the package's services
 *    in its config) and its first Admin are created in one transaction, with their audit rows; the answer is
 *    the new admin's sign-in. The token is single use: once the company exists it answers 409 and mints no
 *    session (a lost answer means signing in with the password).
 */
import { and, eq, sql } from 'drizzle-orm';
import {
  BASE_SERVICES,
  type CompanyCreated,
  type EmailVerified,
  isSignupPassword,
  SIGNUP_PASSWORD_DETAIL,
} from '../../src/contract/signup';
import { hashPassword } from '../auth/passwords';
import type { SignupClaims } from '../auth/tokens';
import type { AppContext } from '../context';
import { companies, packages, signups, users } from '../db/schema';
import { badRequest, conflict, DETAILS, forbidden, HttpError } from '../errors';
import { recordAudit } from './audit';
import type { LoginClient } from './login';
import { consumeCode, issueCode } from './oneTimeCodes';

type Ctx = Pick<AppContext, 'db' | 'config' | 'mail' | 'tokens' | 'regions' | 'principals' | 'sessions'>;

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

async function signupOf(ctx: Ctx, email: string) {
  const [row] = await ctx.db
    .select()
    .from(signups)
    .where(eq(sql`lower(${signups.email})`, lower(email)));
  return row ?? null;
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
  await ctx.mail.send({
    to: email,
    subject: 'Your verification code',
    body:
      `Your e-mail verification code is ${code}. It is valid for ${minutes} minutes and can be used once.\n` +
      'If you did not ask to create an account, ignore this e-mail.',
    code,
  });
}

/**
 * Keeps (or renews) the pending sign-up and mails a code. An address whose sign-up already made a company is
 * left as it is; the answer does not differ.
 */
export async function register(ctx: Ctx, body: { email: string; password: string }): Promise<void> {
  if (!isSignupPassword(body.password)) throw badRequest(SIGNUP_PASSWORD_DETAIL);
  const email = body.email.trim();
  const passwordHash = await hashPassword(body.password, ctx.config.argon2);
  const existing = await signupOf(ctx, email);
  if (!existing) {
    await ctx.db
      .insert(signups)
      .values({ email, passwordHash })
      .onConflictDoUpdate({ target: signups.email, set: { passwordHash, emailVerifiedAt: null } });
  } else if (existing.companyId === null) {
    await ctx.db
      .update(signups)
      .set({ passwordHash, emailVerifiedAt: null, createdAt: new Date() })
      .where(eq(signups.id, existing.id));
  }
  await mailVerificationCode(ctx, email);
}

/** Checks the code; for a pending sign-up answers its token, for a known address `already_registered`. */
export async function verifyEmail(ctx: Ctx, body: { email: string; otp: string }): Promise<EmailVerified> {
  const ok = await consumeCode(
    ctx.db,
    ctx.config.jwtSecret,
    ctx.config.oneTimeCodes,
    body.email,
    'email_verification',
    body.otp,
  );
  if (!ok) throw badRequest(DETAILS.invalidCode);
  const signup = await signupOf(ctx, body.email);
  if ((signup && signup.companyId !== null) || (await hasAccount(ctx, body.email))) {
    return { verified: true, already_registered: true };
  }
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

  // The sign-up token is single use: once its company exists it mints nothing more (issue 26; sign in instead).
  if (signup.companyId !== null) throw conflict(SIGNUP_DETAILS.alreadyRegistered);
  if (await hasAccount(ctx, signup.email)) throw conflict(SIGNUP_DETAILS.alreadyRegistered);

  const [pkg] = await ctx.db.select().from(packages).where(eq(packages.id, body.package));
  if (!pkg) throw badRequest(SIGNUP_DETAILS.unknownPackage);
  if (pkg.isCustom) throw badRequest(SIGNUP_DETAILS.customPackage);
  // The package's own services (the plan a paid checkout also applies), else the base service.
  const services = [...(pkg.services ?? BASE_SERVICES)];
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
        amlProvider: services.includes('aml') ? 'Local AML lists' : null,
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
