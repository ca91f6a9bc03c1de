/**
 * What the webhook engine's delivery tests share: a configuration whose poll never comes within a test (what
 * arrives was pushed or handed over), a receiver counting each `webhook-id`, the company's endpoint set to it
 * alone, and the check that every message arrived exactly once with one logged attempt.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { and, eq, inArray } from 'drizzle-orm';
import { expect, vi } from 'vitest';
import { loadConfig, type ServerConfig, type WebhookConfig } from '../../server/config';
import type { Db } from '../../server/db/client';
import { webhookDeliveries, webhookEndpoints, webhookLogs, webhookMessages } from '../../server/db/schema';
import { newWebhookSecret } from '../../server/integrations/webhooks/signer';
import type { TestApp } from './helpers';

/** The webhook settings with the poll far beyond any wait of a test, and `extra` over them. */
export function withoutPolls(extra: Partial<WebhookConfig> = {}): Partial<ServerConfig> {
  return {
    webhooks: {
      ...loadConfig({ DATA_DIR: tmpdir(), JWT_SECRET: 'x'.repeat(40) }).webhooks,
      allowPrivate: true,
      pollMs: 3_600_000,
      ...extra,
    },
  };
}

/** A receiver answering `status` and counting each `webhook-id` it was sent. */
export async function startCounter(status = 200) {
  const seen = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      seen.set(id, (seen.get(id) ?? 0) + 1);
      res.writeHead(status).end(status === 200 ? 'ok' : 'down');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type Counter = Awaited<ReturnType<typeof startCounter>>;

/**
 * The company's only active endpoint is the counter's, and the worker is idle (nothing left pending or not fanned
 * out), so only what a test queues next can wake it.
 */
export async function onlyEndpoint(t: TestApp, companyId: number, counter: Counter): Promise<void> {
  const { db, secrets } = t.app.ctx;
  await db.update(webhookEndpoints).set({ isActive: false }).where(eq(webhookEndpoints.companyId, companyId));
  await db.insert(webhookEndpoints).values({
    companyId,
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

/** Every message arrived exactly once, and each has one successful logged attempt. */
export async function expectEachOnce(db: Db, counter: Counter, msgIds: string[]): Promise<void> {
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
