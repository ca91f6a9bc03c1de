import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { environmentSchema } from './environment';

/** Shorter than this, a kept secret is taken as damaged and replaced. */
const LEAST_SECRET_LENGTH = 32;

const secretFileOf = (dataDir: string) => join(dataDir, 'secret');

/** The JWT secret kept in the data folder, if there is one (reading only). */
export function keptSecret(dataDir: string): string | undefined {
  try {
    const kept = readFileSync(secretFileOf(dataDir), 'utf8').trim();
    return kept.length >= LEAST_SECRET_LENGTH ? kept : undefined;
  } catch {
    return undefined;
  }
}

/** A new random server secret. */
export function newSecret(): string {
  return randomBytes(48).toString('base64url');
}

/**
 * Without JWT_SECRET, the secret is generated once and kept in `DATA_DIR/secret` (mode 600), so tokens, signed
 * links and sealed secrets survive a restart. A step of starting the server (and of the scripts that seed or
 * derive secrets before it runs), so that loading the configuration itself writes nothing.
 */
export function ensureSecretFile(env: NodeJS.ProcessEnv = process.env): void {
  const { DATA_DIR, JWT_SECRET } = environmentSchema.pick({ DATA_DIR: true, JWT_SECRET: true }).parse(env);
  if (JWT_SECRET !== undefined || keptSecret(DATA_DIR) !== undefined) return;
  mkdirSync(DATA_DIR, { recursive: true });
  writeFileSync(secretFileOf(DATA_DIR), newSecret(), { mode: 0o600 });
}
