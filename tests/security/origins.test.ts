/**
 * CORS and socket.io (its polling transport too) accepted any loopback origin with credentials.
 * Now only the studio addresses (PUBLIC_URL, SECOND_REGION_URL, STUDIO_ORIGINS) are allowed, and loopback
 * origins only in development (NODE_ENV=development, `npm run dev`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../../server/config';
import { corsOriginCheck } from '../../server/http/cors';
import { startTestApp, type TestApp } from '../server/helpers';

let t: TestApp;
let port = 0;
beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
}, 180_000);
afterAll(async () => {
  await t.close();
});

const FOREIGN_LOOPBACK = 'http://localhost:3999';

/** A socket.io polling handshake with that Origin: status and CORS headers. */
function pollingHandshake(origin: string): Promise<{ status: number; allowOrigin: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path: '/socket.io/?EIO=4&transport=polling', headers: { origin } },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            allowOrigin: res.headers['access-control-allow-origin'] as string | undefined,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('origins', () => {
  it('CORS answers the studio addresses only, not any loopback origin', async () => {
    const preflight = (origin: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url: '/api/v2/profile',
        headers: {
          origin,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });
    expect((await preflight(t.config.publicUrl)).headers['access-control-allow-origin']).toBe(
      t.config.publicUrl,
    );
    for (const origin of [FOREIGN_LOOPBACK, 'http://127.0.0.1:1', 'http://[::1]:5173', 'null'])
      expect((await preflight(origin)).headers['access-control-allow-origin'], origin).toBeUndefined();
  });

  it('socket.io refuses a foreign origin on the polling transport and accepts the studio', async () => {
    const foreign = await pollingHandshake(FOREIGN_LOOPBACK);
    expect(foreign.status).toBe(403);
    expect(foreign.allowOrigin).toBeUndefined();
    const studio = await pollingHandshake(t.config.secondRegionUrl);
    expect(studio.status).toBe(200);
    expect(studio.allowOrigin).toBe(t.config.secondRegionUrl);
  });

  it('loopback origins in development only; STUDIO_ORIGINS adds an address', () => {
    const env = { DATA_DIR: mkdtempSync(join(tmpdir(), 'idv-sec-')), JWT_SECRET: 'x'.repeat(40) };
    onTestFinished(() => rmSync(env.DATA_DIR, { recursive: true, force: true }));
    const started = corsOriginCheck(loadConfig(env));
    expect(started(FOREIGN_LOOPBACK)).toBe(false);
    expect(started('http://127.0.0.1:8080')).toBe(true);
    const dev = corsOriginCheck(loadConfig({ ...env, NODE_ENV: 'development' }));
    expect(dev('http://localhost:5173')).toBe(true);
    expect(dev('https://evil.test')).toBe(false);
    const production = corsOriginCheck(
      loadConfig({
        ...env,
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://studio.example',
        STUDIO_ORIGINS: 'https://eu.studio.example/',
      }),
    );
    expect(production('https://eu.studio.example')).toBe(true);
    expect(production('http://127.0.0.1:8080')).toBe(false);
    expect(production('http://localhost:5173')).toBe(false);
  });
});
