import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq, gt, isNull, max } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HOUR_MS } from '#contract/time';
import type { WebhookEndpoint, WebhookLog } from '#contract/webhooks';
import { buildApp } from '../../server/app';
import { loadConfig, type ServerConfig } from '../../server/config';
import { documents, users, webhookEndpoints, webhookMessages } from '../../server/db/schema';
import { answerCall, createCall, setCallStatus } from '../../server/domain/videocalls/lifecycle';
import { FORBIDDEN_TARGET } from '../../server/integrations/webhooks/ssrf';
import { bearer, get, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

// ---------------------------------------------------------------- a receiver that verifies with a third-party library

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  verified: boolean;
  type: string;
}

interface Receiver {
  url: string;
  received: Received[];
  /** Secrets the receiver verifies with (every one must accept the delivery). */
  secrets: string[];
  /** The status to answer for the nth request (0-based); default 200. */
  answer: (n: number, received: Received) => number;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    received: [],
    secrets: [],
    answer: () => 200,
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = req.headers;
      let verified = receiver.secrets.length > 0;
      for (const secret of receiver.secrets) {
        try {
          new Webhook(secret).verify(body, {
            'webhook-id': String(headers['webhook-id']),
            'webhook-timestamp': String(headers['webhook-timestamp']),
            'webhook-signature': String(headers['webhook-signature']),
          });
        } catch {
          verified = false;
        }
      }
      const type = (JSON.parse(body) as { type: string }).type;
      const entry = { headers, body, verified, type };
      const n = receiver.received.length;
      receiver.received.push(entry);
      const status = receiver.answer(n, entry);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ received: true, n }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = () => new Promise((resolve) => server.close(() => resolve()));
  return receiver;
}

/** Waits (polling) until `check` answers something truthy. */
async function until<T>(
  check: () => T | Promise<T>,
  what: string,
  timeoutMs = 15_000,
): Promise<NonNullable<T>> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const FAST: Partial<ServerConfig['webhooks']> = {
  allowPrivate: true,
  retrySchedule: [0.2, 0.2, 0.2],
  pollMs: 100,
};

async function call<T = unknown>(
  app: FastifyInstance,
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'GET',
  url: string,
  token: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await app.inject({
    method,
    url: `/api/v2${url}`,
    headers: { ...bearer(token), ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: response.statusCode, body: (response.body ? response.json() : null) as T };
}

async function addEndpoint(app: FastifyInstance, token: string, url: string, events: string[] = []) {
  const created = await call<WebhookEndpoint>(app, 'POST', '/webhook_endpoint', token, {
    url,
    description: 'test receiver',
    enabled_events: events,
  });
  expect(created.status).toBe(201);
  const secret = await call<{ secret: string }>(
    app,
    'GET',
    `/webhook_endpoint/${created.body.id}/secret`,
    token,
    undefined,
    {
      'x-password': PASSWORDS.admin,
    },
  );
  expect(secret.status).toBe(200);
  return { endpoint: created.body, secret: secret.body.secret };
}

async function newProfile(app: FastifyInstance, token: string, idCard: string) {
  const created = await call<{ id: number }>(app, 'POST', '/profile', token, {
    id_card_number: idCard,
    name: 'Webhook Tester',
    gender: 'F',
  });
  expect(created.status).toBe(201);
  return created.body.id;
}

function withWebhooks(overrides: Partial<ServerConfig['webhooks']>) {
  const base = loadConfig({ DATA_DIR: tmpdir(), JWT_SECRET: 'x'.repeat(40) }).webhooks;
  return { webhooks: { ...base, ...overrides } };
}

// ---------------------------------------------------------------- delivery

describe('webhook delivery (Standard Webhooks, verified by the standardwebhooks package)', () => {
  let t: TestApp;
  let receiver: Receiver;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp(withWebhooks(FAST));
    admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  });
  afterAll(() => t.close());
  afterEach(() => receiver?.close());

  it('signs every delivery of real events so a third-party library verifies it', async () => {
    receiver = await startReceiver();
    const { endpoint, secret } = await addEndpoint(t.app, admin, receiver.url);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    expect(endpoint.enabled_events).toEqual([]);
    receiver.secrets = [secret];

    const profileId = await newProfile(t.app, admin, 'WH-SIGN-1');
    const status = await call<{ result: boolean }>(t.app, 'PATCH', `/profile/${profileId}/status`, admin, {
      status: 'Pending Review',
    });
    expect(status.body.result).toBe(true);
    await until(() => receiver.received.length >= 2, 'two deliveries');
    expect(receiver.received.map((r) => r.type).sort()).toEqual([
      'profile.created',
      'profile.status_changed',
    ]);
    for (const r of receiver.received) {
      expect(r.verified).toBe(true);
      expect(r.headers['webhook-id']).toMatch(/^msg_/);
      expect(r.headers['webhook-timestamp']).toMatch(/^\d{10}$/);
      const body = JSON.parse(r.body) as { type: string; timestamp: string; data: { profile_id: number } };
      expect(Object.keys(body)).toEqual(['type', 'timestamp', 'data']);
      expect(body.data.profile_id).toBe(profileId);
    }

    const toggles = await get<{ event: string; last_triggered_at: string | null }[]>(
      t.app,
      '/api/v2/events',
      admin,
    );
    expect(toggles.body.find((e) => e.event === 'profile.created')?.last_triggered_at).not.toBeNull();
    const logs = await until(async () => {
      const page = await call<{ results: WebhookLog[] }>(
        t.app,
        'GET',
        `/webhook_endpoint/${endpoint.id}/logs`,
        admin,
      );
      return page.body.results.length >= 2 ? page.body.results : null;
    }, 'two logged attempts');
    expect(logs.every((l) => l.success && l.response_status === 200 && l.attempt === 1)).toBe(true);
    expect(logs[0]?.request_headers?.['webhook-signature']).toMatch(/^v1,/);
    expect(logs[0]?.response_body).toContain('received');
    await call(t.app, 'DELETE', `/webhook_endpoint/${endpoint.id}`, admin);
  });

  it('retries a 500 with the same webhook-id, then succeeds', async () => {
    receiver = await startReceiver();
    const { endpoint, secret } = await addEndpoint(t.app, admin, receiver.url, ['profile.created']);
    receiver.secrets = [secret];
    receiver.answer = (n) => (n === 0 ? 500 : 200);
    await newProfile(t.app, admin, 'WH-RETRY-1');
    await until(() => receiver.received.length >= 2, 'the retry');
    const [first, second] = receiver.received as [Received, Received];
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.body).toBe(first.body);
    expect(first.verified && second.verified).toBe(true);
    const logs = await until(async () => {
      const page = await call<{ results: WebhookLog[] }>(
        t.app,
        'GET',
        `/webhook_endpoint/${endpoint.id}/logs`,
        admin,
      );
      return page.body.results.length >= 2 ? page.body.results : null;
    }, 'two logged attempts');
    const [latest, earliest] = logs as [WebhookLog, WebhookLog];
    expect(earliest).toMatchObject({ attempt: 1, success: false, response_status: 500 });
    expect(earliest.next_retry_at).not.toBeNull();
    expect(latest).toMatchObject({ attempt: 2, success: true, response_status: 200, next_retry_at: null });
    await call(t.app, 'DELETE', `/webhook_endpoint/${endpoint.id}`, admin);
  });

  it('treats a 410 as final, and replays it on request with the same webhook-id', async () => {
    receiver = await startReceiver();
    const { endpoint, secret } = await addEndpoint(t.app, admin, receiver.url, ['profile.created']);
    receiver.secrets = [secret];
    receiver.answer = (n) => (n === 0 ? 410 : 200);
    await newProfile(t.app, admin, 'WH-GONE-1');
    const logs = await until(async () => {
      const page = await call<{ results: WebhookLog[] }>(
        t.app,
        'GET',
        `/webhook_endpoint/${endpoint.id}/logs?status=failed`,
        admin,
      );
      return page.body.results[0];
    }, 'the failed attempt');
    expect(logs).toMatchObject({ response_status: 410, next_retry_at: null, attempt: 1 });
    // Nothing more comes by itself (the schedule would have retried within a second).
    await new Promise((r) => setTimeout(r, 1_000));
    expect(receiver.received).toHaveLength(1);

    const retried = await call<{ queued: number }>(t.app, 'POST', '/webhook_endpoint/retry', admin, {
      ids: [logs.id],
    });
    expect(retried).toEqual({ status: 200, body: { queued: 1 } });
    await until(() => receiver.received.length >= 2, 'the manual retry');
    expect(receiver.received[1]?.headers['webhook-id']).toBe(receiver.received[0]?.headers['webhook-id']);
    expect(receiver.received[1]?.verified).toBe(true);

    const bad = await call<{ detail: string }>(t.app, 'POST', '/webhook_endpoint/retry', admin, {
      ids: [999_999],
    });
    expect(bad.status).toBe(404);
    await call(t.app, 'DELETE', `/webhook_endpoint/${endpoint.id}`, admin);
  });

  it('signs with both secrets during a rotation grace period, then with the new one only', async () => {
    receiver = await startReceiver();
    const { endpoint, secret: oldSecret } = await addEndpoint(t.app, admin, receiver.url, [
      'profile.created',
    ]);
    const rotated = await call<{ secret: string; previous_secret_expires_at: string }>(
      t.app,
      'PATCH',
      `/webhook_endpoint/${endpoint.id}/secret`,
      admin,
      {},
    );
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(oldSecret);
    const graceHours = (Date.parse(rotated.body.previous_secret_expires_at) - Date.now()) / HOUR_MS;
    expect(Math.round(graceHours)).toBe(24);
    receiver.secrets = [oldSecret, rotated.body.secret];
    await newProfile(t.app, admin, 'WH-ROTATE-1');
    await until(() => receiver.received.length >= 1, 'a delivery during the grace period');
    expect(String(receiver.received[0]?.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(receiver.received[0]?.verified).toBe(true);

    const ended = await call<{ secret: string }>(
      t.app,
      'PATCH',
      `/webhook_endpoint/${endpoint.id}/secret`,
      admin,
      {
        grace_period_hours: 0,
      },
    );
    receiver.secrets = [ended.body.secret];
    await newProfile(t.app, admin, 'WH-ROTATE-2');
    await until(() => receiver.received.length >= 2, 'a delivery after the grace period');
    const last = receiver.received[1] as Received;
    expect(String(last.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(last.verified).toBe(true);
    expect(() =>
      new Webhook(rotated.body.secret).verify(last.body, {
        'webhook-id': String(last.headers['webhook-id']),
        'webhook-timestamp': String(last.headers['webhook-timestamp']),
        'webhook-signature': String(last.headers['webhook-signature']),
      }),
    ).toThrow();
    await call(t.app, 'DELETE', `/webhook_endpoint/${endpoint.id}`, admin);
  });

  it("sends a test event at once and answers the receiver's reply", async () => {
    receiver = await startReceiver();
    const { endpoint, secret } = await addEndpoint(t.app, admin, receiver.url);
    receiver.secrets = [secret];
    receiver.answer = () => 202;
    const sent = await call<{
      success: boolean;
      status_code: number;
      response_body: string;
      message_id: string;
    }>(t.app, 'POST', `/webhook_endpoint/${endpoint.id}/test`, admin, {});
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ success: true, status_code: 202 });
    expect(sent.body.response_body).toContain('received');
    expect(receiver.received[0]).toMatchObject({ type: 'webhook.test', verified: true });
    expect(receiver.received[0]?.headers['webhook-id']).toBe(sent.body.message_id);
    await call(t.app, 'DELETE', `/webhook_endpoint/${endpoint.id}`, admin);
  });

  it('sends only subscribed and switched-on events, and stops for a disabled endpoint', async () => {
    receiver = await startReceiver();
    const { endpoint, secret } = await addEndpoint(t.app, admin, receiver.url, ['profile.status_changed']);
    receiver.secrets = [secret];
    const off = await call(t.app, 'PUT', '/webhook', admin, { events: { 'profile.status_changed': false } });
    expect(off.status).toBe(200);
    const id = await newProfile(t.app, admin, 'WH-FILTER-1');
    await call(t.app, 'PATCH', `/profile/${id}/status`, admin, { status: 'Pending Review' });
    await call(t.app, 'PUT', '/webhook', admin, { events: { 'profile.status_changed': true } });
    await call(t.app, 'PATCH', `/profile/${id}/status`, admin, { status: 'Pending Approval' });
    await until(() => receiver.received.length >= 1, 'the switched-on event');
    await new Promise((r) => setTimeout(r, 500));
    expect(
      receiver.received.map((r) => JSON.parse(r.body).data.status ?? JSON.parse(r.body).data.to),
    ).toEqual(['Pending Approval']);
    const disabled = await call<WebhookEndpoint>(t.app, 'PATCH', `/webhook_endpoint/${endpoint.id}`, admin, {
      is_active: false,
    });
    expect(disabled.body.is_active).toBe(false);
    await call(t.app, 'PATCH', `/profile/${id}/status`, admin, { status: 'Approved' });
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received).toHaveLength(1);
    await call(t.app, 'DELETE', `/webhook_endpoint/${endpoint.id}`, admin);
  });
});

// ---------------------------------------------------------------- rules and access

describe('webhook endpoint rules', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    t = await startTestApp(withWebhooks({ allowPrivate: false, retrySchedule: [0.2], pollMs: 100 }));
    tokens.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    tokens.user = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
    tokens.globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
  });
  afterAll(() => t.close());

  it('refuses a URL that is not a valid http(s) address', async () => {
    for (const url of [
      '',
      'not a url',
      'ftp://example.com/x',
      'javascript:alert(1)',
      'http://user:pw@example.com/',
    ]) {
      const r = await call<{ detail: string }>(t.app, 'POST', '/webhook_endpoint', tokens.admin as string, {
        url,
      });
      expect(r, url).toEqual({ status: 400, body: { detail: 'Please type a valid url' } });
    }
  });

  it('refuses loopback, private, link-local and metadata targets at creation (SSRF guard)', async () => {
    for (const url of [
      'http://127.0.0.1/hook',
      'http://10.0.0.1/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]/hook',
      'http://localhost:8080/hook',
    ]) {
      const r = await call<{ detail: string }>(t.app, 'POST', '/webhook_endpoint', tokens.admin as string, {
        url,
      });
      expect(r, url).toEqual({ status: 400, body: { detail: FORBIDDEN_TARGET } });
    }
  });

  it('refuses them at delivery too, after DNS resolution (an address that changed since creation)', async () => {
    const receiver = await startReceiver();
    const port = new URL(receiver.url).port;
    try {
      for (const url of [receiver.url, `http://localhost:${port}/hooks`]) {
        const [row] = await t.app.ctx.db
          .insert(webhookEndpoints)
          .values({
            companyId: 1,
            url,
            secret: t.app.ctx.secrets.seal('whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
          })
          .returning();
        const sent = await call<{ success: boolean; error: string }>(
          t.app,
          'POST',
          `/webhook_endpoint/${row?.id}/test`,
          tokens.admin as string,
          {},
        );
        expect(sent.body, url).toMatchObject({ success: false, error: FORBIDDEN_TARGET });
        await t.app.ctx.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, row?.id as number));
      }
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  it('lets only Admins write or read secrets, and hides other companies (404)', async () => {
    const user = tokens.user as string;
    expect(
      (await call(t.app, 'POST', '/webhook_endpoint', user, { url: 'https://example.com/h' })).status,
    ).toBe(403);
    expect((await call(t.app, 'PATCH', '/webhook/token', user)).status).toBe(403);
    expect((await call(t.app, 'GET', '/webhook_endpoint/1/secret', user)).status).toBe(403);
    expect((await call(t.app, 'POST', '/webhook_endpoint/retry', user, { ids: [1] })).status).toBe(403);
    const globex = tokens.globex as string;
    expect((await call(t.app, 'PATCH', '/webhook_endpoint/1', globex, { description: 'x' })).status).toBe(
      404,
    );
    expect((await call(t.app, 'DELETE', '/webhook_endpoint/1', globex)).status).toBe(404);
    const secret = await call(t.app, 'GET', '/webhook_endpoint/1/secret', globex, undefined, {
      'x-password': PASSWORDS.admin,
    });
    expect(secret.status).toBe(404);
    expect((await call(t.app, 'POST', '/webhook_endpoint/retry', globex, { ids: [1] })).status).toBe(404);
  });

  it("reveals a secret only with the admin's password", async () => {
    const admin = tokens.admin as string;
    expect(await call(t.app, 'GET', '/webhook_endpoint/1/secret', admin)).toEqual({
      status: 400,
      body: { detail: 'Wrong password' },
    });
    const wrong = await call(t.app, 'GET', '/webhook_endpoint/1/secret', admin, undefined, {
      'x-password': 'Nope@2026',
    });
    expect(wrong.status).toBe(400);
    const right = await call<{ secret: string }>(
      t.app,
      'GET',
      '/webhook_endpoint/1/secret',
      admin,
      undefined,
      {
        'x-password': PASSWORDS.admin,
      },
    );
    expect(right.body.secret).toMatch(/^whsec_/);
  });

  it('regenerates the company token', async () => {
    const admin = tokens.admin as string;
    const before = await call<{ token: string }>(t.app, 'GET', '/webhook/token', admin);
    const after = await call<{ token: string }>(t.app, 'PATCH', '/webhook/token', admin);
    expect(after.body.token).not.toBe(before.body.token);
    expect((await call<{ token: string }>(t.app, 'GET', '/webhook/token', admin)).body.token).toBe(
      after.body.token,
    );
  });
});

// ---------------------------------------------------------------- durability and disabling

describe('webhook durability', () => {
  it('delivers an event enqueued before a restart (the worker was not running)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'idv-webhook-restart-'));
    const receiver = await startReceiver();
    const config: ServerConfig = {
      ...loadConfig({
        DATA_DIR: dataDir,
        JWT_SECRET: 'test-secret-that-is-long-enough-0123456789',
        LOG_LEVEL: 'silent',
      }),
      argon2: { memoryCost: 1024, timeCost: 1 },
      studioDist: join(dataDir, 'no-studio'),
      mailConsole: false,
    };
    try {
      const first = await buildApp({ ...config, webhooks: { ...config.webhooks, ...FAST, worker: false } });
      const admin = await tokenFor(first, 'admin@acme.test', PASSWORDS.admin);
      const { secret } = await addEndpoint(first, admin, receiver.url, ['profile.created']);
      receiver.secrets = [secret];
      await newProfile(first, admin, 'WH-RESTART-1');
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.received).toHaveLength(0);
      await first.close();

      const second = await buildApp({ ...config, webhooks: { ...config.webhooks, ...FAST } });
      try {
        await until(() => receiver.received.length >= 1, 'the delivery after the restart');
        expect(receiver.received[0]).toMatchObject({ type: 'profile.created', verified: true });
      } finally {
        await second.close();
      }
    } finally {
      await receiver.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('disables an endpoint that failed every attempt for the configured time, and tells the admins', async () => {
    const t = await startTestApp(
      withWebhooks({
        allowPrivate: true,
        retrySchedule: [0.3, 0.3, 0.3, 0.3, 0.3, 0.3],
        pollMs: 100,
        disableAfterSeconds: 1,
      }),
    );
    const receiver = await startReceiver();
    try {
      const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
      receiver.answer = () => 503;
      const { endpoint } = await addEndpoint(t.app, admin, receiver.url, ['profile.created']);
      await newProfile(t.app, admin, 'WH-DISABLE-1');
      const disabled = await until(async () => {
        const r = await call<WebhookEndpoint>(t.app, 'GET', `/webhook_endpoint/${endpoint.id}`, admin);
        return r.body.is_active ? null : r.body;
      }, 'the endpoint to be disabled');
      expect(disabled.disabled_reason).toMatch(/^Disabled automatically/);
      expect(disabled.health.success_rate_24h).toBe(0);
      const mail = await get<{ subject: string }[]>(t.app, '/api/dev/outbox?to=admin%40acme.test');
      expect(mail.body.map((m) => m.subject)).toContain('A webhook endpoint was disabled');
      const enabled = await call<WebhookEndpoint>(t.app, 'PATCH', `/webhook_endpoint/${endpoint.id}`, admin, {
        is_active: true,
      });
      expect(enabled.body).toMatchObject({ is_active: true, disabled_reason: null });
    } finally {
      await receiver.close();
      await t.close();
    }
  }, 120_000);
});

// ---------------------------------------------------------------- events from real actions

describe('events from real actions (enqueued in the transaction of the change)', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp(withWebhooks({ worker: false }));
    admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  });
  afterAll(() => t.close());

  /** Messages enqueued by this test (the seed holds older ones). */
  let since = 0;
  const queued = async (type: string) =>
    (
      await t.app.ctx.db
        .select()
        .from(webhookMessages)
        .where(and(eq(webhookMessages.eventType, type), gt(webhookMessages.id, since)))
    ).map((m) => JSON.parse(m.body) as { type: string; data: Record<string, unknown> });

  it('profiles, documents, AML and video calls each enqueue their event; a refused write enqueues nothing', async () => {
    since = (await t.app.ctx.db.select({ id: max(webhookMessages.id) }).from(webhookMessages))[0]?.id ?? 0;
    const id = await newProfile(t.app, admin, 'WH-EVENTS-1');
    expect(await queued('profile.created')).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ profile_id: id }) }),
    ]);
    const duplicate = await call(t.app, 'POST', '/profile', admin, {
      id_card_number: 'WH-EVENTS-1',
      name: 'x',
      gender: 'F',
    });
    expect(duplicate.status).toBe(400);
    expect(await queued('profile.created')).toHaveLength(1);

    // The demo company has profile.updated switched off: nothing is enqueued until it is on.
    await call(t.app, 'PATCH', `/profile/${id}`, admin, { phone: '+905551112233' });
    expect(await queued('profile.updated')).toEqual([]);
    await call(t.app, 'PUT', '/webhook', admin, { events: { 'profile.updated': true } });
    await call(t.app, 'PATCH', `/profile/${id}`, admin, { email: 'tester@example.com' });
    expect((await queued('profile.updated'))[0]?.data).toMatchObject({ profile_id: id, fields: ['email'] });
    await call(t.app, 'PATCH', `/profile/${id}/status`, admin, { status: 'Pending Review' });
    expect((await queued('profile.status_changed'))[0]?.data).toMatchObject({
      profile_id: id,
      to: 'Pending Review',
    });

    const [doc] = await t.app.ctx.db
      .select({ id: documents.id })
      .from(documents)
      .where(and(eq(documents.companyId, 1), isNull(documents.deletedAt)))
      .limit(1);
    await call(t.app, 'PUT', `/document/${doc?.id}/approve`, admin, { approved: true });
    await call(t.app, 'PUT', `/document/${doc?.id}/approve`, admin, {
      approved: false,
      reason: 'The photo is blurred.',
    });
    expect((await queued('document.approved'))[0]?.data).toMatchObject({ document_id: doc?.id });
    expect((await queued('document.rejected'))[0]?.data).toMatchObject({ document_id: doc?.id });

    expect((await call(t.app, 'GET', `/profile/${id}/aml/check`, admin)).status).toBe(200);
    expect((await call(t.app, 'PATCH', `/profile/${id}/aml/approve`, admin, {})).status).toBe(200);
    expect((await queued('aml.checked'))[0]?.data).toMatchObject({ profile_id: id });
    expect((await queued('aml.approved'))[0]?.data).toMatchObject({ profile_id: id });

    const [agent] = await t.app.ctx.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'admin@acme.test'));
    const agentId = agent?.id as number;
    const created = await t.app.ctx.db.transaction((tx) => createCall(tx, 1, id));
    await answerCall(t.app.ctx.db, 1, created.id, agentId);
    await t.app.ctx.db.transaction((tx) =>
      setCallStatus(tx, 1, created.id, { id: agentId, role: 'Admin' }, { status: 3 }),
    );
    expect((await queued('videocall.created'))[0]?.data).toMatchObject({
      call_id: created.id,
      profile_id: id,
    });
    expect((await queued('videocall.completed'))[0]?.data).toMatchObject({ call_id: created.id, status: 3 });
  });

  it('an invited user enqueues user.created; a refused invitation nothing', async () => {
    since = (await t.app.ctx.db.select({ id: max(webhookMessages.id) }).from(webhookMessages))[0]?.id ?? 0;
    const invite = (password: string) =>
      call(t.app, 'POST', '/user', admin, {
        password,
        first_name: 'Hook',
        last_name: 'Invitee',
        username: 'hook.invitee@acme.test',
        role: 'User',
      });
    expect((await invite('not-my-password')).status).toBe(400);
    expect(await queued('user.created')).toEqual([]);
    const made = await invite(PASSWORDS.admin);
    expect(made.status).toBe(201);
    expect(await queued('user.created')).toEqual([
      expect.objectContaining({ data: { user_id: (made.body as { id: number }).id, role: 'User' } }),
    ]);
  });
});
