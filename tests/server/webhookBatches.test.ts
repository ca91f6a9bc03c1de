/**
 * Outcomes are written in batches: a burst to a receiver that answers 200 and one that answers 500 lands in the
 * same batches, and every delivery still gets exactly its own log line and state (delivered, or waiting for its
 * retry), the failing endpoint its streak and the healthy one none.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries, webhookEndpoints, webhookLogs, webhookMessages } from '../../server/db/schema';
import { enqueueWebhookEvent } from '../../server/domain/webhooks';
import { newWebhookSecret } from '../../server/integrations/webhooks/signer';
import { startTestApp, type TestApp } from './helpers';
import { startCounter, withoutPolls } from './webhookCounter';

const COMPANY = 1;
const MESSAGES = 40;
/** No poll and no retry within the test: what is seen was pushed, and a failure stays waiting for its retry. */
const CONFIG = withoutPolls({ retrySchedule: [3_600] });

describe('webhook outcomes written in batches', () => {
  let t: TestApp;
  let ok: Awaited<ReturnType<typeof startCounter>>;
  let down: Awaited<ReturnType<typeof startCounter>>;
  beforeAll(async () => {
    [ok, down] = await Promise.all([startCounter(200), startCounter(500)]);
    t = await startTestApp(CONFIG);
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([ok?.close(), down?.close()]);
  });

  it('gives each delivery of a mixed burst its own log line and state', async () => {
    const { db, secrets } = t.app.ctx;
    await db.update(webhookEndpoints).set({ isActive: false }).where(eq(webhookEndpoints.companyId, COMPANY));
    const endpoints = await db
      .insert(webhookEndpoints)
      .values(
        [ok, down].map((receiver) => ({
          companyId: COMPANY,
          url: receiver.url,
          secret: secrets.seal(newWebhookSecret()),
          enabledEvents: [],
        })),
      )
      .returning({ id: webhookEndpoints.id, url: webhookEndpoints.url });
    const okId = endpoints.find((e) => e.url === ok.url)?.id as number;
    const downId = endpoints.find((e) => e.url === down.url)?.id as number;

    const tag = `batch-${Date.now()}`;
    await db.transaction(async (tx) => {
      for (let n = 0; n < MESSAGES; n++)
        await enqueueWebhookEvent(tx, COMPANY, 'profile.status_changed', { profile_id: 1, tag, n });
    });
    const msgIds = (
      await db.select({ msgId: webhookMessages.msgId, body: webhookMessages.body }).from(webhookMessages)
    )
      .filter((m) => m.body.includes(`"tag":"${tag}"`))
      .map((m) => m.msgId);
    expect(msgIds).toHaveLength(MESSAGES);

    const logsOf = (endpointId: number) =>
      db
        .select()
        .from(webhookLogs)
        .where(and(eq(webhookLogs.endpointId, endpointId), inArray(webhookLogs.msgId, msgIds)));
    await expect
      .poll(async () => [(await logsOf(okId)).length, (await logsOf(downId)).length], { timeout: 60_000 })
      .toEqual([MESSAGES, MESSAGES]);

    // Each receiver was sent each message once.
    expect(msgIds.map((id) => [ok.seen.get(id), down.seen.get(id)])).toEqual(msgIds.map(() => [1, 1]));
    // One log line per delivery, with its own answer.
    const okLogs = await logsOf(okId);
    const downLogs = await logsOf(downId);
    expect(new Set(okLogs.map((l) => l.deliveryId)).size).toBe(MESSAGES);
    expect(new Set(downLogs.map((l) => l.deliveryId)).size).toBe(MESSAGES);
    expect(okLogs.every((l) => l.success && l.responseStatus === 200 && l.nextRetryAt === null)).toBe(true);
    expect(downLogs.every((l) => !l.success && l.responseStatus === 500 && l.nextRetryAt !== null)).toBe(
      true,
    );
    expect(
      [...okLogs, ...downLogs].every((l) => l.attempt === 1 && l.requestHeaders['webhook-id'] === l.msgId),
    ).toBe(true);

    // The deliveries: delivered, or waiting for their retry an hour on (±20 %), one attempt each.
    const deliveries = await db
      .select()
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.endpointId, [okId, downId]));
    const states = deliveries.map((d) => ({
      ok: d.endpointId === okId,
      status: d.status,
      attempts: d.attempts,
      later: d.nextAttemptAt.getTime() > Date.now() + 30 * 60_000,
    }));
    expect(states.filter((s) => s.ok)).toEqual(
      Array.from({ length: MESSAGES }, () => ({ ok: true, status: 'succeeded', attempts: 1, later: false })),
    );
    expect(states.filter((s) => !s.ok)).toEqual(
      Array.from({ length: MESSAGES }, () => ({ ok: false, status: 'pending', attempts: 1, later: true })),
    );

    // The failing endpoint has its streak; the healthy one none; neither is disabled (5 days to go).
    const health = await db
      .select({
        id: webhookEndpoints.id,
        failingSince: webhookEndpoints.failingSince,
        active: webhookEndpoints.isActive,
      })
      .from(webhookEndpoints)
      .where(inArray(webhookEndpoints.id, [okId, downId]));
    expect(health.find((h) => h.id === okId)).toMatchObject({ failingSince: null, active: true });
    expect(health.find((h) => h.id === downId)?.failingSince).toBeInstanceOf(Date);
    expect(health.find((h) => h.id === downId)?.active).toBe(true);

    // Nothing left behind for the tests after this one: the two endpoints go, with their deliveries and logs.
    await db.delete(webhookEndpoints).where(inArray(webhookEndpoints.id, [okId, downId]));
  });
});
