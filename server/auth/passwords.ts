import { hash, verify } from '@node-rs/argon2';

export interface PasswordCost {
  memoryCost: number;
  timeCost: number;
}

/** Password rule of SPEC §5: at least 6 characters with a digit, a lowercase and an uppercase letter. */
export function isAcceptablePassword(password: string): boolean {
  return password.length >= 6 && /\d/.test(password) && /[a-z]/.test(password) && /[A-Z]/.test(password);
}

/** argon2id (the library's default algorithm). */
export function hashPassword(password: string, cost: PasswordCost): Promise<string> {
  return hash(password, { memoryCost: cost.memoryCost, timeCost: cost.timeCost, parallelism: 1 });
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
