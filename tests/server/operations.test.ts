/** GET /healthz, GET /readyz and GET /metrics, and what the logs leave out. */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../server/http/logging';
import { get, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

const TOKEN = 'metrics-token-for-the-test';

describe('operations endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ metricsToken: TOKEN });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('says the process is alive and ready (database and storage; no Redis in the embedded mode)', async () => {
    expect(await get(t.app, '/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await get(t.app, '/readyz')).toEqual({
      status: 200,
      body: { status: 'ready', checks: { database: 'ok', storage: 'ok' } },
    });
  });

  it('is not ready while stopping, and ready again when that is called off', async () => {
    t.app.ops.draining = true;
    expect(await get(t.app, '/readyz')).toEqual({
      status: 503,
      body: { status: 'unavailable', checks: { database: 'ok', storage: 'ok', process: 'stopping' } },
    });
    expect((await get(t.app, '/healthz')).status).toBe(200);
    t.app.ops.draining = false;
    expect((await get(t.app, '/readyz')).status).toBe(200);
  });

  it('serves metrics only with the token', async () => {
    const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    expect((await get(t.app, '/metrics')).status).toBe(401);
    expect((await get(t.app, '/metrics', 'wrong-token')).status).toBe(401);
    // A user's access token is not the metrics token.
    expect(await get(t.app, '/metrics', admin)).toEqual({
      status: 401,
      body: { detail: 'Invalid metrics token' },
    });
    await get(t.app, '/api/v2/profile/6', admin);
    await get(t.app, '/api/v2/profile/7', admin);
    const response = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    const text = response.body;
    // By route pattern, never by raw address.
    expect(text).toMatch(
      /idv_http_requests_total\{method="GET",route="\/api\/v2\/profile\/:id",status="200"\} 2/,
    );
    expect(text).not.toContain('/api/v2/profile/6');
    expect(text).toMatch(
      /idv_http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/api\/v2\/profile\/:id"\} 2/,
    );
    expect(text).toMatch(/^idv_socket_connections 0$/m);
    expect(text).toMatch(/^idv_waiting_customers 0$/m);
    expect(text).toMatch(/^idv_calls\{status="COMPLETE"\} \d+$/m);
    expect(text).toMatch(/^idv_upload_bytes_total \d+$/m);
  });

  it('answers 404 on /metrics when no token is configured', async () => {
    const plain = await startTestApp();
    try {
      expect(await get(plain.app, '/metrics')).toEqual({ status: 404, body: { detail: 'Not found.' } });
    } finally {
      await plain.close();
    }
  });
});

describe('logs', () => {
  it('leave out credentials and the query of addresses', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const options = loggerOptions({ logLevel: 'info', logFormat: 'json' }) as pino.LoggerOptions;
    const log = pino(options, sink);
    log.info(
      {
        req: {
          method: 'GET',
          url: '/storage/recordings/1.webm?expires=1&signature=secret-signature',
          ip: '10.0.0.1',
          headers: { authorization: 'Bearer secret-token' },
        },
        body: { password: 'secret-password' },
      },
      'request',
    );
    const line = JSON.parse(lines[0] ?? '{}');
    expect(line.req).toEqual({
      method: 'GET',
      url: '/storage/recordings/1.webm?expires=1&signature=[redacted]',
      remoteAddress: '10.0.0.1',
    });
    expect(line.body).toEqual({ password: '[redacted]' });
    expect(lines.join('')).not.toMatch(/secret/);
  });
});
