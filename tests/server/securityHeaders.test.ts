import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

let t: TestApp;
let admin: string;
const dist = join(tmpdir(), `idv-dist-headers-${process.pid}`);
beforeAll(async () => {
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>studio</title>');
  writeFileSync(join(dist, 'customer.html'), '<!doctype html><title>join</title>');
  writeFileSync(join(dist, 'assets', 'app.js'), 'console.log(1)');
  t = await startTestApp({ studioDist: dist });
  admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
}, 180_000);
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

/** The headers every response carries, whatever it is. */
function expectCommonHeaders(response: LightMyRequestResponse, what: string) {
  expect(response.headers['x-content-type-options'], what).toBe('nosniff');
  expect(response.headers['x-frame-options'], what).toBe('DENY');
  expect(response.headers['referrer-policy'], what).toBe('no-referrer');
  const csp = String(response.headers['content-security-policy']);
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).not.toContain('unsafe-eval');
  expect(String(response.headers['permissions-policy']), what).toContain('geolocation=()');
}

const directive = (csp: string, name: string) =>
  csp
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith(`${name} `)) ?? '';

describe('security headers', () => {
  it('the studio and the join page: a strict CSP, camera and microphone for this origin', async () => {
    for (const url of ['/', '/calls', '/settings', '/customer.html?token=x', '/swagger-documentation']) {
      const page = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(page.statusCode, url).toBe(200);
      expectCommonHeaders(page, url);
      const csp = String(page.headers['content-security-policy']);
      // Scripts from this origin only: no inline script, no eval.
      expect(directive(csp, 'script-src'), url).toBe("script-src 'self'");
      expect(directive(csp, 'script-src-attr'), url).toBe("script-src-attr 'none'");
      expect(directive(csp, 'object-src'), url).toBe("object-src 'none'");
      // WebRTC media, and the API and socket.io of both regions.
      expect(directive(csp, 'media-src'), url).toContain('mediastream:');
      expect(directive(csp, 'media-src'), url).toContain('blob:');
      const connect = directive(csp, 'connect-src');
      for (const region of [t.config.publicUrl, t.config.secondRegionUrl]) {
        expect(connect, url).toContain(region);
        expect(connect, url).toContain(region.replace(/^http/, 'ws'));
      }
      // Sign-up reads countries and industries from the payment service (another origin).
      expect(connect, url).toContain(new URL(t.config.payment.serviceUrl).origin);
      const permissions = String(page.headers['permissions-policy']);
      expect(permissions, url).toContain('camera=(self)');
      expect(permissions, url).toContain('microphone=(self)');
    }
  });

  it('a page revalidated with 304 keeps the document policy (browsers apply the 304’s headers)', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    const etag = String(first.headers.etag ?? '');
    const lastModified = String(first.headers['last-modified'] ?? '');
    const again = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { accept: 'text/html', 'if-none-match': etag, 'if-modified-since': lastModified },
    });
    expect(again.statusCode).toBe(304);
    expect(again.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
    expect(String(again.headers['permissions-policy'])).toContain('camera=(self)');
  });

  it('API answers, errors and files: nothing may load, no device', async () => {
    const answers: [string, LightMyRequestResponse][] = [
      ['regions', await t.app.inject({ method: 'GET', url: '/api/v1/regions' })],
      ['signed in', await t.app.inject({ method: 'GET', url: '/api/v2/profile', headers: bearer(admin) })],
      ['401', await t.app.inject({ method: 'GET', url: '/api/v2/profile' })],
      [
        '401 bad token',
        await t.app.inject({ method: 'GET', url: '/api/v2/profile', headers: bearer('x.y.z') }),
      ],
      ['404', await t.app.inject({ method: 'GET', url: '/api/v2/nothing' })],
      [
        '400 malformed JSON',
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/login/',
          headers: { 'content-type': 'application/json' },
          payload: '{"username":',
        }),
      ],
      ['file', await t.app.inject({ method: 'GET', url: '/storage/a.png?expires=1&signature=x' })],
      ['script', await t.app.inject({ method: 'GET', url: '/runtime-config.js' })],
      ['asset', await t.app.inject({ method: 'GET', url: '/assets/app.js' })],
      ['openapi', await t.app.inject({ method: 'GET', url: '/api/v2/openapi.json' })],
      ['preflight', await t.app.inject({ method: 'OPTIONS', url: '/api/v2/profile' })],
    ];
    for (const [what, response] of answers) {
      expect(response.statusCode, what).toBeLessThan(500);
      expectCommonHeaders(response, what);
      const permissions = String(response.headers['permissions-policy']);
      expect(permissions, what).toContain('camera=()');
      expect(permissions, what).toContain('microphone=()');
      const csp = String(response.headers['content-security-policy']);
      expect(directive(csp, 'default-src'), what).toBe("default-src 'none'");
    }
    const [, file] = answers.find(([what]) => what === 'file') ?? [];
    // Files are embedded by the studio of the other region: they may be loaded cross-origin.
    expect(file?.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const [, json] = answers.find(([what]) => what === 'signed in') ?? [];
    expect(json?.headers['cross-origin-resource-policy']).toBe('same-origin');
  });
});
