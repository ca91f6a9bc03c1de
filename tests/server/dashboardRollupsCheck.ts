/**
 * What the dashboard rollup tests share (PGlite in dashboardRollups.test.ts, PostgreSQL in postgres.test.ts):
 * the rollup table against a direct aggregation over profiles, aml_history and documents; GET /bitool's
 * answer as the row-scanning queries gave it before the rollups (docs/decisions/0170-dashboard-rollups.md);
 * and many concurrent writers on one company.
 */
import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { CHECK_KINDS } from '#contract/common';
import { type Bitool, type BitoolQuery, bucketOf } from '#contract/stats';
import type { Db } from '../../server/db/client';
import { amlHistory, companies, documents, profiles } from '../../server/db/schema';
import { bitoolOf, bitoolRange, type CheckRow, type PeriodRow } from '../../server/domain/bitool';
import { dayBin, rangeBounds, rowsOf, statusArray } from '../../server/domain/callReport';

interface RollupRow {
  company_id: number;
  source: string;
  day: string;
  key: string;
  n: number;
  hits: number;
  errors: number;
}

/** Every rollup row, and the same figures counted directly from the rows by the rollups' rules, sorted. */
export async function dashboardRollupsAndDirect(
  db: Db,
): Promise<{ rollups: RollupRow[]; direct: RollupRow[] }> {
  const rollups = rowsOf<RollupRow>(
    await db.execute(sql`
      SELECT company_id, source, to_char(day, 'YYYY-MM-DD') AS day, key, n, hits, errors
        FROM dashboard_rollups ORDER BY 1, 2, 3, 4`),
  );
  const utcDay = (column: string) => sql.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`);
  const direct = rowsOf<RollupRow>(
    await db.execute(sql`
      SELECT * FROM (
        SELECT company_id, 'created' AS source, ${utcDay('created_at')} AS day, status AS key, count(*)::int AS n,
               0 AS hits, 0 AS errors
          FROM profiles GROUP BY 1, 2, 3, 4
        UNION ALL
        SELECT company_id, 'decided', ${utcDay('last_status_date')}, status, count(*)::int, 0, 0
          FROM profiles WHERE last_status_date IS NOT NULL GROUP BY 1, 2, 3, 4
        UNION ALL
        SELECT p.company_id, 'screened', ${utcDay('a.created_at')}, '', count(*)::int,
               count(*) FILTER (WHERE a.status = 'hit')::int, count(*) FILTER (WHERE a.status = 'error')::int
          FROM aml_history a JOIN profiles p ON p.id = a.profile_id GROUP BY 1, 2, 3, 4
        UNION ALL
        SELECT company_id, 'checked', ${utcDay('created_at')}, check_results, count(*)::int, 0, 0
          FROM documents WHERE deleted_at IS NULL GROUP BY 1, 2, 3, 4
      ) d ORDER BY 1, 2, 3, 4`),
  );
  return { rollups, direct };
}

export async function expectDashboardRollupsExact(db: Db): Promise<void> {
  const { rollups, direct } = await dashboardRollupsAndDirect(db);
  expect(rollups.length).toBeGreaterThan(0);
  expect(rollups).toEqual(direct);
}

/**
 * GET /bitool's answer as it was before the rollups: the same periods and totals, counted by scanning
 * profiles, aml_history and documents of the range (these two queries are the former bitool()'s).
 */
export async function scannedBitool(
  db: Db,
  companyId: number,
  query: BitoolQuery,
  now?: Date,
): Promise<Bitool> {
  const { start, end } = bitoolRange(query, now);
  const bucket = bucketOf(start, end);
  const { from, until } = rangeBounds(start, end);
  const period = sql.raw(`to_char(date_trunc('${bucket}', day AT TIME ZONE 'UTC'), 'YYYY-MM-DD')`);
  const decisions = ['Approved', 'Temporarily Approved', 'Rejected', 'Blacklisted'].map((s) => sql`${s}`);
  const kinds = sql.raw(CHECK_KINDS.map((kind, i) => `('${kind}', ${i + 1})`).join(', '));
  const periodRows = rowsOf<PeriodRow>(
    await db.execute(sql`
      WITH created AS (
        SELECT ${dayBin('created_at')} AS day, status, count(*) AS n FROM profiles
         WHERE company_id = ${companyId} AND created_at >= ${from} AND created_at < ${until}
         GROUP BY 1, 2
      ), decided AS (
        SELECT ${dayBin('last_status_date')} AS day, status, count(*) AS n FROM profiles
         WHERE company_id = ${companyId} AND last_status_date >= ${from} AND last_status_date < ${until}
           AND status IN (${sql.join(decisions, sql`, `)})
         GROUP BY 1, 2
      ), screened AS (
        SELECT ${dayBin('created_at')} AS day, count(*) AS n,
               count(*) FILTER (WHERE status = 'hit') AS hits, count(*) FILTER (WHERE status = 'error') AS errors
          FROM aml_history
         WHERE profile_id IN (SELECT id FROM profiles WHERE company_id = ${companyId})
           AND created_at >= ${from} AND created_at < ${until}
         GROUP BY 1
      ), called AS (
        SELECT ${dayBin('created_at')} AS day, status, count(*) AS n FROM video_calls
         WHERE company_id = ${companyId} AND created_at >= ${from} AND created_at < ${until}
         GROUP BY 1, 2
      )
      SELECT 'profiles' AS source, ${period} AS period, status AS key, sum(n)::int AS n, 0 AS hits, 0 AS errors,
             NULL::int[] AS statuses
        FROM created GROUP BY 2, 3
      UNION ALL
      SELECT 'decisions', ${period}, status, sum(n)::int, 0, 0, NULL FROM decided GROUP BY 2, 3
      UNION ALL
      SELECT 'aml', ${period}, NULL, sum(n)::int, sum(hits)::int, sum(errors)::int, NULL FROM screened GROUP BY 2
      UNION ALL
      SELECT 'calls', ${period}, NULL, sum(n)::int, 0, 0, ${statusArray('n')} FROM called GROUP BY 2
    `),
  );
  const checkRows = rowsOf<CheckRow>(
    await db.execute(sql`
      WITH r AS (
        SELECT check_results, count(*) AS n FROM documents
         WHERE company_id = ${companyId} AND deleted_at IS NULL AND created_at >= ${from} AND created_at < ${until}
         GROUP BY 1
      )
      SELECT k.kind,
             CASE WHEN split_part(r.check_results, '|', k.pos) IN ('passed', 'warning', 'failed')
                  THEN split_part(r.check_results, '|', k.pos) ELSE 'not_run' END AS result,
             sum(r.n)::int AS n
        FROM r CROSS JOIN (VALUES ${kinds}) AS k(kind, pos)
       GROUP BY 1, 2
    `),
  );
  return bitoolOf(start, end, bucket, periodRows, checkRows);
}

/** A company's id by name (the demo's Acme Bank and Globex Fintech). */
export async function companyId(db: Db, name: string): Promise<number> {
  const [row] = await db.select({ id: companies.id }).from(companies).where(eq(companies.name, name));
  return row?.id ?? 0;
}

const RESULTS = ['passed', 'warning', 'failed', 'pending', null] as const;

/** A document's `checks` with each kind's result drawn by `draw` (null: the kind is missing). */
export function checksOf(draw: () => number): Record<string, unknown> {
  const checks: Record<string, unknown> = {};
  for (const kind of CHECK_KINDS) {
    const result = RESULTS[Math.floor(draw() * RESULTS.length)];
    if (result) checks[kind] = { result, score: 50 };
  }
  return checks;
}

/**
 * `writers` transactions at once on one company and one day (the same rollup rows): each creates a profile
 * with a document and a screening, decides it, soft-deletes the document, and every third deletes the profile.
 */
export async function concurrentDashboardWriters(db: Db, writers: number): Promise<void> {
  const company = await companyId(db, 'Acme Bank');
  const createdAt = new Date('2021-05-06T10:00:00Z');
  await Promise.all(
    Array.from({ length: writers }, (_, i) =>
      db.transaction(async (tx) => {
        const [profile] = await tx
          .insert(profiles)
          .values({ companyId: company, idCardNumber: `race-${i}`, createdAt })
          .returning({ id: profiles.id });
        const profileId = profile?.id ?? 0;
        const [document] = await tx
          .insert(documents)
          .values({
            companyId: company,
            profileId,
            documentClass: 'ID',
            checks: { document: { result: 'passed', score: 90 } },
            createdAt,
          })
          .returning({ id: documents.id });
        await tx.insert(amlHistory).values({
          profileId,
          provider: 'race',
          status: i % 2 === 0 ? 'hit' : 'clear',
          scannedDatabase: 'x',
          createdAt,
        });
        await tx
          .update(profiles)
          .set({
            status: i % 2 === 0 ? 'Approved' : 'Rejected',
            lastStatusDate: new Date('2021-05-07T08:00:00Z'),
          })
          .where(eq(profiles.id, profileId));
        if (i % 2 === 1)
          await tx
            .update(documents)
            .set({ deletedAt: new Date() })
            .where(eq(documents.id, document?.id ?? 0));
        if (i % 3 === 0) await tx.delete(profiles).where(eq(profiles.id, profileId));
      }),
    ),
  );
}
