/**
 * The delivery worker wakes on the commit that queued a message (the database's notification), on PGlite and on
 * PostgreSQL, with its poll interval far beyond the test: only the push can deliver in time. Bursts from
 * concurrent transactions and from two processes arrive each exactly once, with one logged attempt each.
 */
import { and, eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import { webhookMessages } from '../../server/db/schema';
import { enqueueWebhookEvent } from '../../server/domain/webhooks';
import { startTestApp, type TestApp } from './helpers';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from './throwawayPostgres';
import { type Counter, expectEachOnce, onlyEndpoint, startCounter, withoutPolls } from './webhookCounter';

const COMPANY = 1;
const NEVER_POLLS = withoutPolls();

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

describe('webhook delivery pushed at commit (PGlite)', () => {
  let t: TestApp;
  let counter: Counter;
  beforeAll(async () => {
    counter = await startCounter();
    t = await startTestApp(NEVER_POLLS);
    await onlyEndpoint(t, COMPANY, counter);
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
    await onlyEndpoint(first, COMPANY, counter);
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
