import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';

const base = { JWT_SECRET: 'test-secret-that-is-long-enough-0123456789', DATA_DIR: '/tmp/idv-config-test' };

describe('sign-in settings from the environment', () => {
  it('turns dev endpoints and console mail off in production, on elsewhere', () => {
    expect(loadConfig(base)).toMatchObject({ devEndpoints: true, mailConsole: true, smtpUrl: undefined });
    expect(loadConfig({ ...base, NODE_ENV: 'production' })).toMatchObject({
      devEndpoints: false,
      mailConsole: false,
    });
    // Never in production, even asked for.
    expect(() => loadConfig({ ...base, NODE_ENV: 'production', DEV_ENDPOINTS: 'true' })).toThrow(
      /DEV_ENDPOINTS/,
    );
    expect(loadConfig({ ...base, HOST: '0.0.0.0' }).devEndpoints).toBe(false);
    expect(loadConfig({ ...base, HOST: '0.0.0.0', DEV_ENDPOINTS: 'true' }).devEndpoints).toBe(true);
    expect(loadConfig({ ...base, DEV_ENDPOINTS: 'off' }).devEndpoints).toBe(false);
    expect(() => loadConfig({ ...base, DEV_ENDPOINTS: 'maybe' })).toThrow(/DEV_ENDPOINTS/);
  });

  it('reads the face matcher, SMTP and code limits', () => {
    expect(loadConfig(base).faceMatch).toEqual({ engine: 'human', minSimilarity: 0.7 });
    expect(loadConfig({ ...base, FACE_MATCH: 'off', FACE_MATCH_MIN_SIMILARITY: '0.8' }).faceMatch).toEqual({
      engine: 'off',
      minSimilarity: 0.8,
    });
    expect(() => loadConfig({ ...base, FACE_MATCH: 'cloud' })).toThrow(/FACE_MATCH/);
    expect(() => loadConfig({ ...base, FACE_MATCH_MIN_SIMILARITY: '1.5' })).toThrow(
      /FACE_MATCH_MIN_SIMILARITY/,
    );
    expect(loadConfig({ ...base, SMTP_URL: 'smtp://mail.test:25' }).smtpUrl).toBe('smtp://mail.test:25');
    expect(loadConfig({ ...base, CODE_SEND_LIMIT_PER_EMAIL: '3' }).oneTimeCodes).toMatchObject({
      sendsPerEmail: 3,
      ttlMs: 600_000,
      maxAttempts: 5,
    });
    expect(loadConfig(base).mfaSetupTokenTtlSeconds).toBe(600);
  });
});
