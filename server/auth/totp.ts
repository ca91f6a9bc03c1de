import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { generateSecret, generateSync, generateURI, verifySync } from 'otplib';
import type { DbOrTx } from '../db/client';
import { users } from '../db/schema';

/** Real RFC 6238 TOTP (6 digits, 30 s) through otplib; one period of clock drift is accepted either way. */
export function newTotpSecret(): string {
  return generateSecret();
}

export function totpUri(secret: string, email: string): string {
  return generateURI({ issuer: 'IDV Studio', label: email, secret });
}

export function totpCode(secret: string, epochSeconds?: number): string {
  return generateSync({ secret, ...(epochSeconds === undefined ? {} : { epoch: epochSeconds }) });
}

/** The RFC 6238 time step the code belongs to (now, or one step either side), or null when it is wrong. */
export function totpStep(secret: string, code: string): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  try {
    const result = verifySync({ secret, token: code, epochTolerance: 30 });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  } catch {
    return null;
  }
}

export function verifyTotp(secret: string, code: string): boolean {
  return totpStep(secret, code) !== null;
}

/**
 * Checks a user's code and uses up its time step (RFC 6238 section 5.2: a code is accepted once): true only when the
 * code is right and its step is later than the last one this user used. One conditional update, so two
 * requests racing with the same code cannot both pass. A replayed code is refused like a wrong one.
 */
export async function consumeTotp(
  db: DbOrTx,
  userId: number,
  secret: string,
  code: string,
): Promise<boolean> {
  const step = totpStep(secret, code);
  if (step === null) return false;
  const used = await db
    .update(users)
    .set({ mfaLastStep: step })
    .where(and(eq(users.id, userId), or(isNull(users.mfaLastStep), lt(users.mfaLastStep, step))))
    .returning({ id: users.id });
  return used.length === 1;
}
