import { createHmac, randomInt } from 'node:crypto';
import { and, count, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { oneTimeCodes } from '../db/schema';

/**
 * What a one-time code is for. A call's second-channel code is keyed by `call:<id>` instead of an
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

/** One try of a code: right or wrong, and the wrong tries the code has left after it. */
export interface CodeTry {
  accepted: boolean;
  triesLeft: number;
}

/**
 * One try of a code against the newest unused, unexpired code of that e-mail and purpose: null when there is
 * none or its tries are spent; else whether it was right (the code is used up) and the tries left (a wrong code
 * counts one). The check and the claim are one conditional UPDATE: the row lock makes concurrent tries queue
 * behind each other and re-check `attempts` and `used_at`, so however many arrive at once, at most
 * `maxAttempts` wrong ones are ever checked, a right one counts only while tries are left, and after the
 * code is used or spent no try is checked at all (docs/decisions/0196-tries-claimed-atomically.md).
 */
export async function tryCode(
  db: DbOrTx,
  serverSecret: string,
  rules: CodeRules,
  email: string,
  purpose: CodePurpose,
  code: string,
  now = new Date(),
): Promise<CodeTry | null> {
  const live = and(
    eq(sql`lower(${oneTimeCodes.email})`, email.toLowerCase()),
    eq(oneTimeCodes.purpose, purpose),
    isNull(oneTimeCodes.usedAt),
    gt(oneTimeCodes.expiresAt, now),
  );
  // Only the newest live code counts: an older one left by two sends at once never adds tries.
  const newest = db
    .select({ id: oneTimeCodes.id })
    .from(oneTimeCodes)
    .where(live)
    .orderBy(desc(oneTimeCodes.id))
    .limit(1);
  // Compared in the statement, so that the comparison and the claim cannot be split. Both sides are keyed
  // hashes: how long an unequal comparison takes tells nothing about the code without the server secret.
  const right = sql`${oneTimeCodes.codeHash} = ${hashCode(serverSecret, email, purpose, code.trim())}`;
  const [row] = await db
    .update(oneTimeCodes)
    .set({
      attempts: sql`${oneTimeCodes.attempts} + case when ${right} then 0 else 1 end`,
      usedAt: sql`case when ${right} then ${sql.param(now, oneTimeCodes.usedAt)} else ${oneTimeCodes.usedAt} end`,
    })
    .where(and(inArray(oneTimeCodes.id, newest), live, lt(oneTimeCodes.attempts, rules.maxAttempts)))
    .returning({ usedAt: oneTimeCodes.usedAt, attempts: oneTimeCodes.attempts });
  if (!row) return null;
  return { accepted: row.usedAt !== null, triesLeft: Math.max(0, rules.maxAttempts - row.attempts) };
}

/** Uses up the code when it is right (tryCode); false for a wrong, used, expired or spent code. */
export async function consumeCode(
  db: DbOrTx,
  serverSecret: string,
  rules: CodeRules,
  email: string,
  purpose: CodePurpose,
  code: string,
  now = new Date(),
): Promise<boolean> {
  const tried = await tryCode(db, serverSecret, rules, email, purpose, code, now);
  return tried?.accepted === true;
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
