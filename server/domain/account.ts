import { Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import { isAcceptablePassword, PASSWORD_RULE_DETAIL } from '#contract/passwords';
import type { User } from '#contract/users';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { consumeTotp, newTotpSecret } from '../auth/totp';
import type { AppContext } from '../context';
import { users } from '../db/schema';
import { badRequest, DETAILS, notFound } from '../errors';
import { MAX_PHOTO_BYTES, parsePhoto } from '../integrations/images';
import { sendTemplated } from '../integrations/mailTemplates/send';
import { newKey } from '../storage/storage';
import { consumeCode, issueCode } from './oneTimeCodes';
import { getUser } from './users';

type Ctx = Pick<AppContext, 'db' | 'config' | 'secrets' | 'storage' | 'mail' | 'sessions'>;

/** The user's row after the account password was confirmed; 400 'Wrong password' otherwise. */
async function confirmPassword(ctx: Ctx, companyId: number, userId: number, password: string) {
  const [row] = await ctx.db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), eq(users.companyId, companyId)));
  if (!row) throw notFound();
  if (!(await verifyPassword(row.passwordHash, password))) throw badRequest(DETAILS.wrongPassword);
  return row;
}

async function answerUser(ctx: Ctx, companyId: number, userId: number): Promise<User> {
  const user = await getUser(ctx.db, ctx.storage, companyId, userId);
  if (!user) throw notFound();
  return user;
}

// ---------------------------------------------------------------- two-factor (otp_reset/verify)

/**
 * `disable: false`: a new secret, kept pending (encrypted) until `otpVerify` proves the app has it.
 * `disable: true`: two-factor off (secret and pending secret cleared).
 */
export async function otpReset(
  ctx: Ctx,
  companyId: number,
  userId: number,
  body: { password: string; disable: boolean },
): Promise<{ base32_secret: string | null }> {
  await confirmPassword(ctx, companyId, userId, body.password);
  if (body.disable) {
    await ctx.db.update(users).set({ mfaSecret: null, mfaPendingSecret: null }).where(eq(users.id, userId));
    return { base32_secret: null };
  }
  const secret = newTotpSecret();
  await ctx.db
    .update(users)
    .set({ mfaPendingSecret: ctx.secrets.seal(secret) })
    .where(eq(users.id, userId));
  return { base32_secret: secret };
}

/** Turns two-factor on when the secret is the pending one and the code is valid now. */
export async function otpVerify(
  ctx: Ctx,
  companyId: number,
  userId: number,
  body: { base32_secret: string; code: string; password: string },
): Promise<User> {
  const row = await confirmPassword(ctx, companyId, userId, body.password);
  const pending = row.mfaPendingSecret ? ctx.secrets.open(row.mfaPendingSecret) : null;
  if (!pending || pending !== body.base32_secret.trim()) throw badRequest(DETAILS.invalidCode);
  // The code that proves the app uses up its time step too: it cannot sign in afterwards.
  if (!(await consumeTotp(ctx.db, userId, pending, body.code.trim()))) throw badRequest(DETAILS.invalidCode);
  await ctx.db
    .update(users)
    .set({ mfaSecret: ctx.secrets.seal(pending), mfaPendingSecret: null, forceMfaReset: false })
    .where(eq(users.id, userId));
  return answerUser(ctx, companyId, userId);
}

// ---------------------------------------------------------------- auth photo (user/{id}/photo)

/** Stores a new auth photo (JPEG or PNG by its bytes, ≤ 5 MB) after the password is confirmed. */
export async function setAuthPhoto(
  ctx: Ctx,
  companyId: number,
  userId: number,
  body: { password: string; photo: string },
): Promise<User> {
  const row = await confirmPassword(ctx, companyId, userId, body.password);
  const photo = parsePhoto(body.photo);
  if (!photo) throw badRequest(DETAILS.invalidPhoto);
  const key = newKey('auth-photos', photo.kind === 'jpeg' ? 'jpg' : 'png');
  await ctx.storage.put(key, Readable.from([photo.bytes]), { maxBytes: MAX_PHOTO_BYTES });
  await ctx.db.update(users).set({ photoKey: key }).where(eq(users.id, userId));
  // The previous photo is this user's own upload (never a shared sample): remove it.
  if (row.photoKey?.startsWith('auth-photos/')) await ctx.storage.remove(row.photoKey).catch(() => undefined);
  return answerUser(ctx, companyId, userId);
}

// ---------------------------------------------------------------- e-mailed codes (no authentication)

const codeRules = (ctx: Ctx) => ctx.config.oneTimeCodes;

function usersWithEmail(ctx: Ctx, email: string) {
  return ctx.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(sql`lower(${users.email})`, email.toLowerCase()), eq(users.isActive, true)));
}

/** Mails a reset code when an active user has that e-mail; answers the same either way. */
export async function sendPasswordResetCode(ctx: Ctx, email: string): Promise<void> {
  const known = await usersWithEmail(ctx, email);
  if (known.length === 0) return;
  const code = await issueCode(ctx.db, ctx.config.jwtSecret, codeRules(ctx), email, 'reset_password');
  const minutes = Math.round(ctx.config.oneTimeCodes.ttlMs / 60_000);
  await sendTemplated(ctx, 'password_reset', { email, companyId: null }, { code, minutes });
}

/**
 * Sets the new password of every active user with that e-mail on this server (the same person in
 * each of its companies) and clears their forced reset. 400 'Invalid code' for a wrong, used or
 * expired code; the password rule is checked first, so a weak password does not use up the code.
 */
export async function submitPasswordReset(
  ctx: Ctx,
  body: { email: string; otp: string; new_password: string },
): Promise<void> {
  if (!isAcceptablePassword(body.new_password)) throw badRequest(PASSWORD_RULE_DETAIL);
  const ok = await consumeCode(
    ctx.db,
    ctx.config.jwtSecret,
    codeRules(ctx),
    body.email,
    'reset_password',
    body.otp,
  );
  if (!ok) throw badRequest(DETAILS.invalidCode);
  const passwordHash = await hashPassword(body.new_password, ctx.config.argon2);
  const changed = await ctx.db
    .update(users)
    .set({ passwordHash, forcePasswordReset: false })
    .where(and(eq(sql`lower(${users.email})`, body.email.toLowerCase()), eq(users.isActive, true)))
    .returning({ id: users.id });
  // A reset password ends every session of those users.
  await ctx.sessions.endAllOf(
    ctx.db,
    changed.map(({ id }) => id),
    null,
    'password_changed',
  );
}
