import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  /** Unset: embedded PGlite in `${dataDir}/pg`. Set: a real PostgreSQL. */
  databaseUrl: string | undefined;
  /** `memory` keeps PGlite in memory (tests, benchmarks). */
  pgliteDir: string | 'memory';
  publicUrl: string;
  secondRegionUrl: string;
  jwtSecret: string;
  studioDist: string;
  logLevel: LogLevel;
  /** argon2 cost; tests lower it. */
  argon2: { memoryCost: number; timeCost: number };
  /** Login attempts per account and per client address within the window. */
  loginRateLimit: { perAccount: number; perAddress: number; timeWindowMs: number };
  accessTokenTtlSeconds: number;
  socketTokenTtlSeconds: number;
  /** How long an authenticated user's permissions are reused between requests. */
  principalCacheMs: number;
  /** How long an exact profile-list count is reused (write paths invalidate it sooner). */
  listCountCacheMs: number;
  /** Seed the demo data when the database has no company yet. */
  seedOnEmpty: boolean;
}

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function readPort(value: string | undefined): number {
  const port = Number(value ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be 0..65535, got ${value}`);
  return port;
}

function readCount(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1)
    throw new Error(`${name} must be a whole number above 0, got ${value}`);
  return count;
}

/** The JWT secret from env, else one generated once and kept in `${dataDir}/secret` (mode 600). */
function loadSecret(dataDir: string, fromEnv: string | undefined): string {
  if (fromEnv) return fromEnv;
  const file = join(dataDir, 'secret');
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept.length >= 32) return kept;
  } catch {
    // no secret yet
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = readPort(env.PORT);
  const dataDir = resolve(env.DATA_DIR ?? '.data');
  const logLevel = (env.LOG_LEVEL ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    pgliteDir: join(dataDir, 'pg'),
    publicUrl: (env.PUBLIC_URL ?? `http://127.0.0.1:${port}`).replace(/\/$/, ''),
    secondRegionUrl: (env.SECOND_REGION_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    jwtSecret: loadSecret(dataDir, env.JWT_SECRET),
    studioDist: resolve(env.STUDIO_DIST ?? 'dist'),
    logLevel,
    argon2: { memoryCost: 19_456, timeCost: 2 },
    loginRateLimit: {
      perAccount: readCount(env.LOGIN_LIMIT_PER_ACCOUNT, 10, 'LOGIN_LIMIT_PER_ACCOUNT'),
      perAddress: readCount(env.LOGIN_LIMIT_PER_ADDRESS, 60, 'LOGIN_LIMIT_PER_ADDRESS'),
      timeWindowMs: 60_000,
    },
    accessTokenTtlSeconds: 12 * 3600,
    socketTokenTtlSeconds: 5 * 60,
    principalCacheMs: 5_000,
    listCountCacheMs: 2_000,
    seedOnEmpty: true,
  };
}
