import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers';

const BIG = `console.log(${JSON.stringify('studio '.repeat(500))});`;

let t: TestApp;
const dist = join(tmpdir(), `idv-dist-${process.pid}`);
beforeAll(async () => {
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>studio</title>');
  writeFileSync(join(dist, 'assets', 'app.js'), 'console.log(1)');
  // A built script with the build's compressed copies beside it (build/precompress.ts).
  writeFileSync(join(dist, 'assets', 'big.js'), BIG);
  writeFileSync(join(dist, 'assets', 'big.js.br'), brotliCompressSync(BIG));
  writeFileSync(join(dist, 'assets', 'big.js.gz'), gzipSync(BIG));
  writeFileSync(join(dist, 'index.html.gz'), gzipSync('<!doctype html><title>studio</title>'));
  // The build carries the dev server's runtime config (public/); the server answers with its own.
  writeFileSync(join(dist, 'runtime-config.js'), 'window.__STUDIO_CONFIG__ = {};\n');
  t = await startTestApp({ studioDist: dist });
});
afterAll(async () => {
  await t.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('serving the studio', () => {
  it('serves built files and falls back to index.html for studio pages', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(1)');
    // Hashed assets are cached for good; pages are revalidated.
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/', '/customers', '/profile/12/document/3']) {
      const page = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(page.statusCode, url).toBe(200);
      expect(page.body).toContain('<title>studio</title>');
    }
  });

  it('sends the compressed copy a browser accepts, and the file itself to one that accepts none', async () => {
    const get = (encoding?: string) =>
      t.app.inject({
        method: 'GET',
        url: '/assets/big.js',
        headers: encoding ? { 'accept-encoding': encoding } : {},
      });
    const brotli = await get('gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(BIG);
    // Chrome over plain HTTP offers no Brotli.
    const gzip = await get('gzip, deflate');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(BIG);
    expect(gzip.headers.vary).toContain('accept-encoding');
    expect(gzip.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG);
    // A studio page (the index.html fallback) too.
    const page = await t.app.inject({
      method: 'GET',
      url: '/customers',
      headers: { accept: 'text/html', 'accept-encoding': 'gzip' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(page.rawPayload).toString()).toContain('<title>studio</title>');
  });

  it('serves only the files of the build, by their exact names', async () => {
    // Listed once at start (docs/decisions/0184-studio-files-routed-at-start.md): a name spelt otherwise, a path outside the folder or a file written
    // after the start is answered as any unknown address.
    writeFileSync(join(dist, 'assets', 'later.js'), 'console.log(2)');
    for (const url of [
      '/assets/App.js',
      '/ASSETS/app.js',
      '/assets//app.js',
      '/assets/../../package.json',
      '/assets/%2e%2e/%2e%2e/package.json',
      '/assets/later.js',
      '/assets/',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).not.toContain('console.log');
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/assets/app.js' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String('console.log(1)'.length));
  });

  it('never answers API, socket or storage addresses with the studio', async () => {
    const api = await t.app.inject({
      method: 'GET',
      url: '/api/v2/nothing',
      headers: { accept: 'text/html' },
    });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ detail: 'Not found.' });
    const file = await t.app.inject({
      method: 'GET',
      url: '/storage/samples/id-0.png?expires=1&signature=forged',
      headers: { accept: 'text/html' },
    });
    expect(file.statusCode).toBe(403);
    expect(file.json()).toEqual({ detail: 'Invalid or expired file address' });
  });

  it('serves the runtime config with the login host and the payment service host', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/runtime-config.js' });
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toBe(
      `window.__STUDIO_CONFIG__ = {"loginHost":"${t.config.publicUrl}","paymentServiceUrl":"${t.config.payment.serviceUrl}"};\n`,
    );
  });

  it('allows CORS from the region origins with the Authorization header', async () => {
    const response = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v2/profile',
      headers: {
        origin: t.config.secondRegionUrl,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(t.config.secondRegionUrl);
    expect(String(response.headers['access-control-allow-headers'])).toMatch(/Authorization/);
    const foreign = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v2/profile',
      headers: { origin: 'https://evil.test', 'access-control-request-method': 'GET' },
    });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
  });
});
