/**
 * `/api/dev/outbox` (every e-mailed code) and `/api/dev/sockets/drop` answered anyone who reached
 * the server. Now they exist only on a server that listens on loopback alone (or DEV_ENDPOINTS=1, never in
 * production) and answer only callers on this machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../../server/config';
import { startTestApp, type TestApp } from '../server/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ trustProxy: ['10.0.0.1'] });
}, 180_000);
afterAll(async () => {
  await t.close();
});

const outbox = (options: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
  t.app.inject({ method: 'GET', url: '/api/dev/outbox?to=agent%40acme.test', ...options });

describe('dev endpoints', () => {
  it('are off on a server listening beyond loopback, and DEV_ENDPOINTS=1 refuses production', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'idv-sec-'));
    onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
    const env = { DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40) };
    expect(loadConfig(env).devEndpoints).toBe(true);
    expect(loadConfig({ ...env, HOST: '::1' }).devEndpoints).toBe(true);
    expect(loadConfig({ ...env, HOST: '0.0.0.0' }).devEndpoints).toBe(false);
    expect(loadConfig({ ...env, HOST: '192.0.2.10' }).devEndpoints).toBe(false);
    expect(loadConfig({ ...env, HOST: '0.0.0.0', DEV_ENDPOINTS: '1' }).devEndpoints).toBe(true);
    expect(loadConfig({ ...env, NODE_ENV: 'production' }).devEndpoints).toBe(false);
    expect(() => loadConfig({ ...env, NODE_ENV: 'production', DEV_ENDPOINTS: '1' })).toThrow(
      /DEV_ENDPOINTS=1 cannot be used with NODE_ENV=production/,
    );
  });

  it('answer a caller on this machine (the README demo, the e2e tests)', async () => {
    const local = await outbox({ headers: { host: '127.0.0.1:8080' } });
    expect(local.statusCode).toBe(200);
    expect(local.json()).toEqual(expect.any(Array));
    // Through a trusted proxy, the client it names counts.
    const proxied = await outbox({
      remoteAddress: '10.0.0.1',
      headers: { host: 'localhost:8080', 'x-forwarded-for': '127.0.0.1' },
    });
    expect(proxied.statusCode).toBe(200);
  });

  it('do not exist for anyone else: another address, an unknown proxy, a rebound host name, a foreign page', async () => {
    const refused = [
      await outbox({ remoteAddress: '203.0.113.7', headers: { host: '127.0.0.1:8080' } }),
      // A proxy on this machine that TRUST_PROXY does not name forwards someone else.
      await outbox({ headers: { host: '127.0.0.1:8080', 'x-forwarded-for': '203.0.113.7' } }),
      // A trusted proxy forwarding an outside client.
      await outbox({
        remoteAddress: '10.0.0.1',
        headers: { host: '127.0.0.1', 'x-forwarded-for': '203.0.113.7' },
      }),
      // DNS rebinding: a page of evil.test whose name now points at 127.0.0.1.
      await outbox({ headers: { host: 'evil.test:8080' } }),
      // A page elsewhere in the developer's own browser.
      await outbox({ headers: { host: '127.0.0.1:8080', origin: 'https://evil.test' } }),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual([404, 404, 404, 404, 404]);
    expect(refused.map((r) => r.body).join()).not.toContain('code');
    const drop = await t.app.inject({
      method: 'POST',
      url: '/api/dev/sockets/drop?email=agent%40acme.test',
      remoteAddress: '203.0.113.7',
    });
    expect(drop.statusCode).toBe(404);
  });
});
