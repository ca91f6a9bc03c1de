/**
 * What the call rollup tests share (PGlite in callRollups.test.ts, PostgreSQL in postgres.test.ts): the
 * rollup table against a direct aggregation over video_calls, and many concurrent writers on one company.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '../../server/db/client';
import { companies, profiles, users, videoCalls } from '../../server/db/schema';
import { rowsOf } from '../../server/domain/callReport';

interface RollupRow {
  company_id: number;
  day: string;
  agent_id: number | null;
  status: number;
  calls: number;
  answered: number;
  handled: number;
  handling_seconds: number;
}

/** Every rollup row, and the same figures counted directly from video_calls (the report's rules), sorted. */
export async function rollupsAndDirect(db: Db): Promise<{ rollups: RollupRow[]; direct: RollupRow[] }> {
  const rollups = rowsOf<RollupRow>(
    await db.execute(sql`
      SELECT company_id, to_char(day, 'YYYY-MM-DD') AS day, agent_id, status, calls, answered, handled,
             extract(epoch FROM handling)::float8 AS handling_seconds
        FROM call_rollups ORDER BY 1, 2, 3, 4`),
  );
  const direct = rowsOf<RollupRow>(
    await db.execute(sql`
      SELECT company_id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, agent_id, status,
             count(*)::int AS calls, count(call_start_time)::int AS answered,
             count(*) FILTER (WHERE call_end_time >= call_start_time)::int AS handled,
             coalesce(extract(epoch FROM sum(call_end_time - call_start_time)
                                         FILTER (WHERE call_end_time >= call_start_time)), 0)::float8
               AS handling_seconds
        FROM video_calls GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`),
  );
  return { rollups, direct };
}

export async function expectRollupsExact(db: Db): Promise<void> {
  const { rollups, direct } = await rollupsAndDirect(db);
  expect(rollups.length).toBeGreaterThan(0);
  expect(rollups).toEqual(direct);
}

/** Acme Bank's id, some of its profiles and its studio users (the calls' agents). */
export async function acmeRows(db: Db): Promise<{ company: number; profiles: number[]; agents: number[] }> {
  const [acme] = await db.select().from(companies).where(eq(companies.name, 'Acme Bank'));
  const company = acme?.id ?? 0;
  const profileRows = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(eq(profiles.companyId, company))
    .limit(5);
  const agentRows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, company), inArray(users.role, ['Admin', 'User'])));
  return { company, profiles: profileRows.map((r) => r.id), agents: agentRows.map((r) => r.id) };
}

/**
 * `writers` transactions at once on one company, one day, one agent and one status (the same rollup row):
 * each inserts a call, moves it to another status and agent, and every third deletes it again.
 */
export async function concurrentWriters(db: Db, writers: number): Promise<void> {
  const {
    company,
    profiles: [profileId = 0],
    agents: [first = 0, second = 0],
  } = await acmeRows(db);
  const createdAt = new Date('2021-03-04T10:00:00Z');
  await Promise.all(
    Array.from({ length: writers }, (_, i) =>
      db.transaction(async (tx) => {
        const [call] = await tx
          .insert(videoCalls)
          .values({
            companyId: company,
            profileId,
            agentId: first,
            roomId: `rollup-race-${i}`,
            status: 1,
            createdAt,
          })
          .returning({ id: videoCalls.id });
        const id = call?.id ?? 0;
        await tx
          .update(videoCalls)
          .set({
            status: 3,
            agentId: i % 2 === 0 ? second : first,
            callStartTime: new Date('2021-03-04T10:01:00Z'),
            callEndTime: new Date(Date.parse('2021-03-04T10:02:00Z') + i * 1000),
          })
          .where(eq(videoCalls.id, id));
        if (i % 3 === 0) await tx.delete(videoCalls).where(eq(videoCalls.id, id));
      }),
    ),
  );
}
