import { hash, verify } from '@node-rs/argon2';

export interface PasswordCost {
  memoryCost: number;
  timeCost: number;
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
