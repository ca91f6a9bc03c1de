import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallReport } from '#contract/stats';
import type { Db } from '../../server/db/client';
import { users, videoCalls } from '../../server/db/schema';
import { createRng } from '../../server/db/seed/prng';
import { acmeRows, concurrentWriters, expectRollupsExact, rollupsAndDirect } from './callRollupsCheck';
import { get, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

/**
 * The call rollups (migration 0035, docs/decisions/0167-call-rollups.md) stay exactly what a direct aggregation over video_calls
 * gives, whatever writes the calls: inserts (one or many rows), status changes, re-assignments, times set,
 * calls moved to another day, deletes, an agent deleted (ON DELETE SET NULL) and TRUNCATE.
 */
let t: TestApp;
let db: Db;

beforeAll(async () => {
  t = await startTestApp();
  db = t.app.ctx.db;
});

afterAll(async () => {
  await t?.close();
});

/** A seeded generator (the seed's mulberry32), so a failure can be replayed. */
const random = (seed: number): (() => number) => createRng(seed).next;

describe('call rollups', () => {
  it('were filled from the demo calls by the migration', async () => {
    await expectRollupsExact(db);
  });

  it('stay exact through a random mix of inserts, updates, re-assignments and deletes (seed 167)', async () => {
    const next = random(167);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const { company, profiles, agents } = await acmeRows(db);
    // An agent of its own, deleted halfway: its calls keep their figures under "no agent".
    const [leaver] = await db
      .insert(users)
      .values({ companyId: company, email: 'rollup-leaver@acme.test', passwordHash: 'x', role: 'User' })
      .returning({ id: users.id });
    const agentChoices = [null, ...agents, leaver?.id ?? null];
    // Days around a month's end and a UTC midnight, so calls cross days when their time moves.
    const moment = () =>
      new Date(Date.parse('2022-01-30T22:00:00Z') + Math.floor(next() * 3 * 86_400) * 1000);
    const ids: number[] = [];
    const insert = async (count: number) => {
      const rows = await db
        .insert(videoCalls)
        .values(
          Array.from({ length: count }, (_, i) => {
            const createdAt = moment();
            const started = next() < 0.6 ? new Date(createdAt.getTime() + 30_000) : null;
            return {
              companyId: company,
              profileId: pick(profiles),
              agentId: pick(agentChoices),
              roomId: `rollup-${ids.length}-${i}`,
              status: Math.floor(next() * 10),
              callStartTime: started,
              // Now and then an end before the start: answered, not handled.
              callEndTime:
                started && next() < 0.7 ? new Date(started.getTime() + (next() - 0.1) * 900_000) : null,
              createdAt,
            };
          }),
        )
        .returning({ id: videoCalls.id });
      ids.push(...rows.map((r) => r.id));
    };
    await insert(40);
    for (let step = 0; step < 300; step++) {
      const roll = next();
      const id = pick(ids);
      if (roll < 0.2) await insert(1 + Math.floor(next() * 3));
      else if (roll < 0.4)
        await db
          .update(videoCalls)
          .set({ status: Math.floor(next() * 10) })
          .where(eq(videoCalls.id, id));
      else if (roll < 0.55)
        await db
          .update(videoCalls)
          .set({ agentId: pick(agentChoices) })
          .where(eq(videoCalls.id, id));
      else if (roll < 0.65) {
        const started = moment();
        await db
          .update(videoCalls)
          .set({ callStartTime: started, callEndTime: new Date(started.getTime() + next() * 600_000) })
          .where(eq(videoCalls.id, id));
      } else if (roll < 0.72)
        await db.update(videoCalls).set({ createdAt: moment() }).where(eq(videoCalls.id, id));
      else if (roll < 0.78) {
        // One statement over many rows (and rows whose figures do not change: current_step only).
        const some = ids.filter(() => next() < 0.2);
        if (some.length > 0)
          await db
            .update(videoCalls)
            .set({ status: 5, currentStep: 'x' })
            .where(inArray(videoCalls.id, some));
      } else if (roll < 0.8)
        await db.update(videoCalls).set({ currentStep: 'y' }).where(eq(videoCalls.id, id));
      else if (roll < 0.92) {
        await db.delete(videoCalls).where(eq(videoCalls.id, id));
        ids.splice(ids.indexOf(id), 1);
      } else if (roll < 0.94) {
        const some = ids.filter(() => next() < 0.1);
        if (some.length > 0) await db.delete(videoCalls).where(inArray(videoCalls.id, some));
        for (const gone of some) ids.splice(ids.indexOf(gone), 1);
      }
      if (step === 150 && leaver) {
        await db.delete(users).where(eq(users.id, leaver.id));
        agentChoices.pop();
      }
      if (step % 50 === 49) await expectRollupsExact(db);
    }
    await expectRollupsExact(db);
    // No rollup row is left at zero calls.
    const { rollups } = await rollupsAndDirect(db);
    expect(rollups.every((r) => r.calls > 0)).toBe(true);

    // The report reads them: its totals are the calls of the range counted directly.
    const token = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    const report = await get<CallReport>(
      t.app,
      '/api/v2/videocall/report?start_date=2022-01-30&end_date=2022-02-01',
      token,
    );
    const [direct] = (
      (await db.execute(sql`
        SELECT count(*)::int AS calls, count(call_start_time)::int AS answered,
               count(*) FILTER (WHERE call_end_time >= call_start_time)::int AS handled
          FROM video_calls WHERE company_id = ${company}
           AND created_at >= '2022-01-30T00:00:00Z' AND created_at < '2022-02-02T00:00:00Z'`)) as unknown as {
        rows: { calls: number; answered: number; handled: number }[];
      }
    ).rows;
    expect(report.status).toBe(200);
    expect(report.body.totals).toMatchObject(direct ?? {});
    expect(report.body.totals.calls).toBeGreaterThan(0);
  });

  it('stay exact under concurrent writers on one rollup row', async () => {
    await concurrentWriters(db, 40);
    await expectRollupsExact(db);
  });

  it('are emptied with video_calls by TRUNCATE', async () => {
    await db.execute(sql`TRUNCATE video_calls CASCADE`);
    const { rollups } = await rollupsAndDirect(db);
    expect(rollups).toEqual([]);
  });
});
