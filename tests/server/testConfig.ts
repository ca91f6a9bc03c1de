import { join } from 'node:path';
import { loadConfig, type ServerConfig } from '../../server/config';

/** The configuration of every test app (before a test's own overrides): cheap password hashing, no mail. */
export function testConfig(dataDir: string): ServerConfig {
  return {
    ...loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: 'test-secret-that-is-long-enough-0123456789',
      LOG_LEVEL: 'silent',
      // Every test client comes from one address; the limits themselves are tested in evidence.test.ts.
      CALLS_PER_ADDRESS_PER_HOUR: '100000',
      CALLS_PER_LINK_PER_HOUR: '100000',
      UPLOADS_PER_MINUTE: '100000',
      UPLOADS_AT_ONCE: '100',
      // Route limits are tested in tests/security/rateLimits.test.ts with low overrides.
      PASSKEY_OPTIONS_PER_ADDRESS_PER_MINUTE: '100000',
      PASSKEY_OPTIONS_PER_5_MINUTES: '100000',
      PASSKEY_SIGNINS_PER_ADDRESS_PER_MINUTE: '100000',
      EVIDENCE_PACKAGES_PER_USER_PER_MINUTE: '100000',
      EVIDENCE_PACKAGES_PER_COMPANY_PER_MINUTE: '100000',
      REPORTS_PER_USER_PER_MINUTE: '100000',
      REPORTS_PER_COMPANY_PER_MINUTE: '100000',
      OUTSIDE_CALLS_PER_USER_PER_MINUTE: '100000',
      OUTSIDE_CALLS_PER_COMPANY_PER_MINUTE: '100000',
    }),
    pgliteDir: 'memory',
    argon2: { memoryCost: 1024, timeCost: 1 },
    studioDist: join(dataDir, 'no-studio'),
    mailConsole: false,
  };
}

/** The seeded template's files (tests/server/template.setup.ts), inside its folder. */
export const TEMPLATE_FILES = { database: 'pgdata.tar', storage: 'storage' } as const;

/**
 * Overrides that change what the seed writes or where the database lives: an app with one of these is
 * built from scratch, not from the template.
 */
export const SEED_KEYS = [
  'databaseUrl',
  'pgliteDir',
  'dataDir',
  'jwtSecret',
  'seedOnEmpty',
  'argon2',
  'publicUrl',
] as const;
