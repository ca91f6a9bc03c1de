import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { ensureSecretFile } from '../../server/secretFile';

const dir = mkdtempSync(join(tmpdir(), 'idv-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadConfig', () => {
  it('has safe defaults', () => {
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir: dir,
      databaseUrl: undefined,
      pgliteDir: join(dir, 'pg'),
      publicUrl: 'http://127.0.0.1:8080',
      secondRegionUrl: 'http://localhost:8080',
      logLevel: 'info',
    });
  });

  it('writes nothing while loading; the start generates the JWT secret once and keeps it in the data folder', () => {
    const fresh = join(dir, 'fresh');
    expect(loadConfig({ DATA_DIR: fresh }).jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(existsSync(fresh)).toBe(false);
    ensureSecretFile({ DATA_DIR: fresh });
    const first = loadConfig({ DATA_DIR: fresh }).jwtSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(fresh, 'secret'), 'utf8')).toBe(first);
    expect(statSync(join(fresh, 'secret')).mode & 0o777).toBe(0o600);
    // A restart keeps it.
    ensureSecretFile({ DATA_DIR: fresh });
    expect(loadConfig({ DATA_DIR: fresh }).jwtSecret).toBe(first);
    expect(loadConfig({ DATA_DIR: fresh, JWT_SECRET: 'from-env' }).jwtSecret).toBe('from-env');
    // With JWT_SECRET set there is nothing to keep.
    ensureSecretFile({ DATA_DIR: join(dir, 'given'), JWT_SECRET: 'from-env' });
    expect(existsSync(join(dir, 'given'))).toBe(false);
  });

  it('follows the environment and refuses nonsense', () => {
    const config = loadConfig({
      DATA_DIR: dir,
      PORT: '9000',
      PUBLIC_URL: 'https://eu.example.com/',
      SECOND_REGION_URL: 'https://tr.example.com',
      DATABASE_URL: 'postgres://u@h/db',
    });
    expect(config.publicUrl).toBe('https://eu.example.com');
    expect(config.secondRegionUrl).toBe('https://tr.example.com');
    expect(config.databaseUrl).toBe('postgres://u@h/db');
    expect(() => loadConfig({ DATA_DIR: dir, PORT: 'eighty' })).toThrow('PORT');
    expect(() => loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'loud' })).toThrow('LOG_LEVEL');
    expect(() => loadConfig({ DATA_DIR: dir, LOGIN_LIMIT_PER_ACCOUNT: '0' })).toThrow(
      'LOGIN_LIMIT_PER_ACCOUNT',
    );
  });
});
