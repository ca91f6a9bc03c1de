/**
 * The delivery worker wakes on the commit that queued a message (the database's notification), on PGlite and on
 * PostgreSQL, with its poll interval far beyond the test: only the push can deliver in time. Bursts from
 * concurrent transactions and from two processes arrive each exactly once, with one logged attempt each.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { and, eq, inArray, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig, type ServerConfig } from '../../server/config';
import type { Db } from '../../server/db/client';
import { webhookDeliveries, webhookEndpoints, webhookLogs, webhookMessages } from '../../server/db/schema';
import { enqueueWebhookEvent } from '../../server/domain/webhooks';
import { newWebhookSecret } from '../../server/integrations/webhooks/signer';
import { startTestApp, type TestApp } from './helpers';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from './throwawayPostgres';

const COMPANY = 1;
/** Far beyond any wait of this file: a delivery seen here was pushed, not found by a poll. */
const NEVER_POLLS: Partial<ServerConfig> = {
  webhooks: {
    ...loadConfig({ DATA_DIR: tmpdir(), JWT_SECRET: 'x'.repeat(40) }).webhooks,
    allowPrivate: true,
    pollMs: 3_600_000,
  },
};

/** A receiver counting each `webhook-id` it was sent. */
async function startCounter() {
  const seen = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      seen.set(id, (seen.get(id) ?? 0) + 1);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Counter = Awaited<ReturnType<typeof startCounter>>;

/**
 * The company's only active endpoint is the counter's, and the worker is idle (no delivery left pending), so
 * nothing but a new message's notification can wake it.
 */
async function onlyEndpoint(t: TestApp, counter: Counter): Promise<void> {
  const { db, secrets } = t.app.ctx;
  await db.update(webhookEndpoints).set({ isActive: false }).where(eq(webhookEndpoints.companyId, COMPANY));
  await db.insert(webhookEndpoints).values({
    companyId: COMPANY,
    url: counter.url,
    secret: secrets.seal(newWebhookSecret()),
    enabledEvents: [],
  });
  await vi.waitFor(
    async () => {
      const pending = await db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.status, 'pending'));
      const unfanned = await db
        .select({ id: webhookMessages.id })
        .from(webhookMessages)
        .where(eq(webhookMessages.fannedOut, false));
      expect(pending.length + unfanned.length).toBe(0);
    },
    { timeout: 30_000, interval: 100 },
  );
}

/** Queues `n` events in one transaction (as a write path does), outside any request: no request kicks the worker. */
async function queue(db: Db, n: number, tag: string): Promise<string[]> {
  await db.transaction(async (tx) => {
    for (let i = 0; i < n; i++)
      await enqueueWebhookEvent(tx, COMPANY, 'profile.status_changed', { profile_id: 1, tag, n: i });
  });
  const rows = await db
    .select({ msgId: webhookMessages.msgId, body: webhookMessages.body })
    .from(webhookMessages)
    .where(and(eq(webhookMessages.companyId, COMPANY), ne(webhookMessages.eventType, 'test')));
  return rows.filter((r) => r.body.includes(`"tag":"${tag}"`)).map((r) => r.msgId);
}

/** Every message arrived exactly once, and each has one successful logged attempt. */
async function expectEachOnce(db: Db, counter: Counter, msgIds: string[]): Promise<void> {
  await expect
    .poll(() => msgIds.filter((id) => counter.seen.has(id)).length, { timeout: 60_000 })
    .toBe(msgIds.length);
  expect(msgIds.filter((id) => counter.seen.get(id) !== 1)).toEqual([]);
  await expect
    .poll(
      async () =>
        (
          await db
            .select({ id: webhookLogs.id })
            .from(webhookLogs)
            .where(and(inArray(webhookLogs.msgId, msgIds), eq(webhookLogs.success, true)))
        ).length,
      { timeout: 30_000 },
    )
    .toBe(msgIds.length);
}

describe('webhook delivery pushed at commit (PGlite)', () => {
  let t: TestApp;
  let counter: Counter;
  beforeAll(async () => {
    counter = await startCounter();
    t = await startTestApp(NEVER_POLLS);
    await onlyEndpoint(t, counter);
  });
  afterAll(async () => {
    await t?.close();
    await counter?.close();
  });

  it('delivers a message queued outside any request, with no poll due', async () => {
    const ids = await queue(t.app.ctx.db, 3, 'alone');
    expect(ids).toHaveLength(3);
    await expectEachOnce(t.app.ctx.db, counter, ids);
  });

  it('delivers bursts of concurrent transactions each exactly once', async () => {
    const bursts = await Promise.all(
      Array.from({ length: 6 }, (_, i) => queue(t.app.ctx.db, 50, `burst-${i}`)),
    );
    const ids = bursts.flat();
    expect(new Set(ids).size).toBe(300);
    await expectEachOnce(t.app.ctx.db, counter, ids);
  });
});

describe.skipIf(!POSTGRES_AVAILABLE)('webhook delivery pushed at commit (PostgreSQL, two processes)', () => {
  let postgres: ThrowawayPostgres;
  let first: TestApp;
  let second: TestApp;
  let counter: Counter;
  beforeAll(async () => {
    counter = await startCounter();
    postgres = await startThrowawayPostgres();
    first = await startTestApp({ ...NEVER_POLLS, databaseUrl: postgres.databaseUrl });
    second = await startTestApp({ ...NEVER_POLLS, databaseUrl: postgres.databaseUrl });
    await onlyEndpoint(first, counter);
  }, 120_000);
  afterAll(async () => {
    await second?.close();
    await first?.close();
    postgres?.stop();
    await counter?.close();
  });

  it('delivers a message queued outside any request, with no poll due', async () => {
    const ids = await queue(first.app.ctx.db, 3, 'pg-alone');
    await expectEachOnce(first.app.ctx.db, counter, ids);
  });

  it('delivers bursts queued on both processes each exactly once, whichever worker claims them', async () => {
    const bursts = await Promise.all([
      queue(first.app.ctx.db, 150, 'pg-first'),
      queue(second.app.ctx.db, 150, 'pg-second'),
    ]);
    const ids = bursts.flat();
    expect(new Set(ids).size).toBe(300);
    await expectEachOnce(first.app.ctx.db, counter, ids);
  });
});
