/**
 * A transaction that queues an event in a process whose worker runs fans the message out and claims its deliveries
 * in the enqueue's own statement; the worker sends them once COMMIT is through, with no pass in between. Each
 * arrives exactly once (PGlite; PostgreSQL with two processes), an enqueue without a free slot leaves its delivery
 * due for the worker's pass, and a claimed delivery whose process never sends it is taken once its lease ends. A
 * delivery that comes due while a pass run beside the loop's holds every free slot is sent once that pass lets go.
 */
import { and, eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DbOrTx } from '../../server/db/client';
import { webhookDeliveries, webhookEndpoints, webhookMessages } from '../../server/db/schema';
import { enqueueWebhookEvent } from '../../server/domain/webhooks';
import { PASSWORDS, post, startTestApp, type TestApp, tokenFor } from './helpers';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from './throwawayPostgres';
import { type Counter, expectEachOnce, onlyEndpoint, startCounter, withoutPolls } from './webhookCounter';

const COMPANY = 1;
/** A company of the seed with no endpoint of the tests'. */
const OTHER_COMPANY = 2;
const NEVER_POLLS = withoutPolls();

interface Queued {
  msgId: string;
  fannedOut: boolean;
  /** Its delivery's next attempt is ahead: leased by a claim. */
  leased: boolean;
}

/** Queues `n` events in `tx` and reads, inside it, what each enqueue left: fanned out, and leased or due. */
async function queueIn(tx: DbOrTx, n: number, tag: string): Promise<Queued[]> {
  for (let i = 0; i < n; i++)
    await enqueueWebhookEvent(tx, COMPANY, 'profile.status_changed', { profile_id: 1, tag, n: i });
  const result = await tx.execute(sql`
    select m.msg_id as "msgId", m.fanned_out as "fannedOut",
      coalesce(bool_or(d.next_attempt_at > now() + interval '5 seconds'), false) as leased
    from ${webhookMessages} m left join ${webhookDeliveries} d on d.message_id = m.id
    where m.body like ${`%"tag":"${tag}"%`}
    group by m.id order by m.id`);
  return (result as unknown as { rows: Queued[] }).rows;
}

describe('deliveries claimed by the transaction that queues them (PGlite)', () => {
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

  it('fans out and leases an event in its own statement, then sends it once after COMMIT', async () => {
    const queued = await t.app.ctx.db.transaction((tx) => queueIn(tx, 2, 'own'));
    expect(queued).toEqual([
      expect.objectContaining({ fannedOut: true, leased: true }),
      expect.objectContaining({ fannedOut: true, leased: true }),
    ]);
    await expectEachOnce(
      t.app.ctx.db,
      counter,
      queued.map((q) => q.msgId),
    );
  });

  it("sends a created profile's event once", async () => {
    const token = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    const created = await post<{ id: number }>(
      t.app,
      '/api/v2/profile',
      { id_card_number: 'CLAIMED-1' },
      token,
    );
    expect(created.status).toBe(201);
    const [message] = await t.app.ctx.db
      .select({ msgId: webhookMessages.msgId, fannedOut: webhookMessages.fannedOut })
      .from(webhookMessages)
      .where(sql`${webhookMessages.body} like ${`%"profile_id":${created.body.id},%`}`);
    expect(message?.fannedOut).toBe(true);
    await expectEachOnce(t.app.ctx.db, counter, [message?.msgId ?? '']);
  });

  it('leaves the delivery due for the pass when no slot is free, and the pass sends it once', async () => {
    // Each enqueue holds its slots until the transaction ends: far more enqueues than the slots can hold.
    const queued = await t.app.ctx.db.transaction((tx) => queueIn(tx, 40, 'full'));
    expect(queued).toHaveLength(40);
    expect(queued.every((q) => q.fannedOut)).toBe(true);
    expect(queued.some((q) => q.leased)).toBe(true);
    expect(queued.some((q) => !q.leased)).toBe(true);
    await expectEachOnce(
      t.app.ctx.db,
      counter,
      queued.map((q) => q.msgId),
    );
  });
});

describe.skipIf(!POSTGRES_AVAILABLE)('deliveries claimed at enqueue (PostgreSQL, two processes)', () => {
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

  it('sends what concurrent transactions of both processes claimed each exactly once', async () => {
    const queued = (
      await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          (i % 2 ? second : first).app.ctx.db.transaction((tx) => queueIn(tx, 10, `pg-both-${i}`)),
        ),
      )
    ).flat();
    expect(queued).toHaveLength(40);
    expect(queued.every((q) => q.fannedOut)).toBe(true);
    expect(queued.some((q) => q.leased)).toBe(true);
    await expectEachOnce(
      first.app.ctx.db,
      counter,
      queued.map((q) => q.msgId),
    );
  });

  it('takes a claimed delivery whose process never sent it once its lease ends, in the other process', async () => {
    let stopping: Promise<void> | undefined;
    const [queued] = await first.app.ctx.db.transaction(async (tx) => {
      const rows = await queueIn(tx, 1, 'pg-died');
      // The process "dies" between the claim and the attempt: its worker stops before the COMMIT.
      stopping = first.app.ctx.webhooks.stop();
      return rows;
    });
    await stopping;
    expect(queued).toEqual(expect.objectContaining({ fannedOut: true, leased: true }));
    const msgId = queued?.msgId ?? '';
    // While leased, no pass takes it.
    expect(await second.app.ctx.webhooks.runOnce()).toBe(0);
    expect(counter.seen.has(msgId)).toBe(false);
    // The lease ends (moved to now instead of waiting for it).
    const db = second.app.ctx.db;
    await db.execute(sql`
      update ${webhookDeliveries} set next_attempt_at = now()
      where message_id = (select id from ${webhookMessages} where msg_id = ${msgId})`);
    second.app.ctx.webhooks.kick();
    await expectEachOnce(db, counter, [msgId]);
  });
  it('sends what came due while a pass beside the loop held every free slot, once that pass lets go', async () => {
    const db = second.app.ctx.db;
    const worker = second.app.ctx.webhooks;
    const other = new pg.Client({ connectionString: postgres.databaseUrl });
    await other.connect();
    try {
      // Another company's event, with no endpoint to go to, whose last-triggered row another session holds: the
      // pass that fans it out waits on that row, holding every slot it reserved.
      await other.query('update webhook_endpoints set is_active = false where company_id = $1', [
        OTHER_COMPANY,
      ]);
      await other.query('begin');
      await other.query(
        `insert into webhook_event_toggles (company_id, event, enabled) values ($1, 'profile.created', true)
         on conflict (company_id, event) do update set enabled = true`,
        [OTHER_COMPANY],
      );
      await db.insert(webhookMessages).values({
        msgId: 'msg_held_fan_out',
        companyId: OTHER_COMPANY,
        eventType: 'profile.created',
        body: '{}',
      });
      const beside = worker.runOnce();
      await vi.waitFor(
        async () => {
          const waiting = await other.query(
            "select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like '%webhook_messages%'",
          );
          expect(waiting.rowCount).toBe(1);
        },
        { timeout: 30_000, interval: 50 },
      );
      // The loop's pass finds no free slot, and nothing is in flight to wake it afterwards.
      worker.kick();
      await new Promise((resolve) => setTimeout(resolve, 500));
      // A delivery comes due with nothing to tell the worker (a lease ending is such a one).
      const [message] = await db
        .insert(webhookMessages)
        .values({
          msgId: 'msg_due_meanwhile',
          companyId: COMPANY,
          eventType: 'profile.created',
          body: '{"type":"profile.created"}',
          fannedOut: true,
        })
        .returning({ id: webhookMessages.id });
      const [endpoint] = await db
        .select({ id: webhookEndpoints.id })
        .from(webhookEndpoints)
        .where(and(eq(webhookEndpoints.companyId, COMPANY), eq(webhookEndpoints.isActive, true)));
      await db.insert(webhookDeliveries).values({
        messageId: message?.id ?? 0,
        endpointId: endpoint?.id ?? 0,
        companyId: COMPANY,
      });
      await other.query('commit');
      await beside;
      await expectEachOnce(db, counter, ['msg_due_meanwhile']);
    } finally {
      await other.end();
    }
  });
});
