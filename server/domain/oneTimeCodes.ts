import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { and, count, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { oneTimeCodes } from '../db/schema';

/**
 * What a one-time code is for. A call's second-channel code (issue 29) is keyed by `call:<id>` instead of an
 * e-mail address: it belongs to the call, whichever address or number it went to.
 */
export type CodePurpose = 'reset_password' | 'email_verification' | 'call_code';

export interface CodeRules {
  /** How long a code is valid. */
  ttlMs: number;
  /** Wrong tries allowed before the code is dead. */
  maxAttempts: number;
}

/**
 * The stored form of a code: HMAC-SHA256 under a key derived from the server secret, bound to the
 * e-mail and purpose. A plain hash of 6 digits could be reversed by trying all million codes.
 */
function hashCode(serverSecret: string, email: string, purpose: CodePurpose, code: string): string {
  return createHmac('sha256', `one-time-code:${serverSecret}`)
    .update(`${purpose}\n${email.toLowerCase()}\n${code}`)
    .digest('base64url');
}

/**
 * A new 6-digit code for that e-mail and purpose. Codes sent before it stop working (only the newest
 * counts). Answers the plain code, which only the e-mail carries.
 */
export async function issueCode(
  db: DbOrTx,
  serverSecret: string,
  rules: CodeRules,
  email: string,
  purpose: CodePurpose,
  now = new Date(),
): Promise<string> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  await db
    .update(oneTimeCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(sql`lower(${oneTimeCodes.email})`, email.toLowerCase()),
        eq(oneTimeCodes.purpose, purpose),
        isNull(oneTimeCodes.usedAt),
      ),
    );
  await db.insert(oneTimeCodes).values({
    email,
    purpose,
    codeHash: hashCode(serverSecret, email, purpose, code),
    expiresAt: new Date(now.getTime() + rules.ttlMs),
    createdAt: now,
  });
  return code;
}

/**
 * Uses up the code when it is right: the newest unused, unexpired code of that e-mail and purpose with
 * tries left. A wrong code counts a try. Single use even under concurrent submits (the update only
 * succeeds on a row not used yet).
 */
export async function consumeCode(
  db: DbOrTx,
  serverSecret: string,
  rules: CodeRules,
  email: string,
  purpose: CodePurpose,
  code: string,
  now = new Date(),
): Promise<boolean> {
  const [row] = await db
    .select({ id: oneTimeCodes.id, codeHash: oneTimeCodes.codeHash })
    .from(oneTimeCodes)
    .where(
      and(
        eq(sql`lower(${oneTimeCodes.email})`, email.toLowerCase()),
        eq(oneTimeCodes.purpose, purpose),
        isNull(oneTimeCodes.usedAt),
        gt(oneTimeCodes.expiresAt, now),
        lt(oneTimeCodes.attempts, rules.maxAttempts),
      ),
    )
    .orderBy(desc(oneTimeCodes.id))
    .limit(1);
  if (!row) return false;
  const expected = Buffer.from(row.codeHash);
  const given = Buffer.from(hashCode(serverSecret, email, purpose, code.trim()));
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    await db
      .update(oneTimeCodes)
      .set({ attempts: sql`${oneTimeCodes.attempts} + 1` })
      .where(eq(oneTimeCodes.id, row.id));
    return false;
  }
  const used = await db
    .update(oneTimeCodes)
    .set({ usedAt: now })
    .where(and(eq(oneTimeCodes.id, row.id), isNull(oneTimeCodes.usedAt)))
    .returning({ id: oneTimeCodes.id });
  return used.length === 1;
}

/**
 * How many codes were issued for that key and purpose, and the wrong tries the newest one has left (0 when it
 * is used, expired or spent).
 */
export async function codeState(
  db: DbOrTx,
  rules: CodeRules,
  email: string,
  purpose: CodePurpose,
  now = new Date(),
): Promise<{ issued: number; triesLeft: number; issuedAt: Date | null }> {
  const key = and(
    eq(sql`lower(${oneTimeCodes.email})`, email.toLowerCase()),
    eq(oneTimeCodes.purpose, purpose),
  );
  const [issued] = await db.select({ n: count() }).from(oneTimeCodes).where(key);
  const [newest] = await db
    .select({
      attempts: oneTimeCodes.attempts,
      usedAt: oneTimeCodes.usedAt,
      expiresAt: oneTimeCodes.expiresAt,
      createdAt: oneTimeCodes.createdAt,
    })
    .from(oneTimeCodes)
    .where(key)
    .orderBy(desc(oneTimeCodes.id))
    .limit(1);
  const live = newest && !newest.usedAt && newest.expiresAt > now;
  return {
    issued: issued?.n ?? 0,
    triesLeft: live ? Math.max(0, rules.maxAttempts - newest.attempts) : 0,
    issuedAt: newest?.createdAt ?? null,
  };
}
