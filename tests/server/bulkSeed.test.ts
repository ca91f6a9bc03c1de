/** The seed's bulk path: proportions, every status, Turkish names, the same rows twice. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PROFILE_STATUSES, RISK_LEVELS } from '#contract/common';
import { openDatabase } from '../../server/db/client';
import { seedBulkProfiles } from '../../server/db/seed/bulk';
import { truncateAll } from '../../server/db/seed/demo';

const COUNT = 2_000;
let database: Awaited<ReturnType<typeof openDatabase>>;

beforeAll(async () => {
  database = await openDatabase({ pgliteDir: 'memory' });
}, 60_000);
afterAll(async () => {
  await database?.close();
});

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** A fresh company and agent, then COUNT bulk profiles; answers a digest of everything written. */
async function seedOnce(): Promise<string> {
  await truncateAll(database.db);
  const [company] = await rows<{ id: number }>(
    sql`INSERT INTO companies (name, region) VALUES ('Bulk Bank', 'Europe') RETURNING id`,
  );
  const [agent] = await rows<{ id: number }>(
    sql`INSERT INTO users (company_id, email, first_name, last_name, password_hash, role)
        VALUES (${company?.id}, 'agent@bulk.test', 'A', 'B', 'x', 'User') RETURNING id`,
  );
  await seedBulkProfiles(database.db, {
    companyId: company?.id as number,
    firstIndex: 240,
    count: COUNT,
    now: Date.UTC(2026, 10, 21, 12),
    spanDays: 180,
    staffIds: [agent?.id as number],
    amlProvider: 'Local AML lists',
    chunk: 700,
  });
  const digests = await rows<{ digest: string }>(sql`
    SELECT md5(string_agg(t, '|' ORDER BY t)) AS digest FROM (
      SELECT row(p.*)::text AS t FROM profiles p
      UNION ALL SELECT row(d.*)::text FROM documents d
      UNION ALL SELECT row(g.*)::text FROM document_pages g
      UNION ALL SELECT row(a.*)::text FROM aml_results a
      UNION ALL SELECT row(h.*)::text FROM aml_history h
      UNION ALL SELECT row(c.*)::text FROM video_calls c
      UNION ALL SELECT row(l.*)::text FROM profile_logs l) AS everything`);
  return digests[0]?.digest as string;
}

it('writes the chosen proportions, every status and risk level, Turkish names; the same rows twice', {
  timeout: 60_000,
}, async () => {
  const first = await seedOnce();
  const [counts] = await rows<Record<string, number>>(sql`
    SELECT (SELECT count(*)::int FROM profiles) AS profiles,
           (SELECT count(*)::int FROM documents) AS documents,
           (SELECT count(*)::int FROM document_pages) AS pages,
           (SELECT count(*)::int FROM aml_results) AS aml,
           (SELECT count(*)::int FROM aml_history) AS aml_history,
           (SELECT count(*)::int FROM video_calls) AS calls,
           (SELECT count(DISTINCT profile_id)::int FROM video_calls) AS profiles_called,
           (SELECT count(*)::int FROM profile_logs) AS logs,
           (SELECT count(DISTINCT id_card_number)::int FROM profiles) AS id_numbers,
           (SELECT count(DISTINCT email)::int FROM profiles) AS emails`);
  expect(counts?.profiles).toBe(COUNT);
  expect(counts?.id_numbers).toBe(COUNT);
  expect(counts?.emails).toBe(COUNT);
  expect(counts?.logs).toBe(COUNT);
  // 9 statuses in 11 have documents: 1–2 each, with 1–2 pages each.
  expect(counts?.documents).toBeGreaterThan(COUNT * 0.8 * 1.3);
  expect(counts?.documents).toBeLessThan(COUNT * 0.82 * 1.7);
  expect(counts?.pages).toBeGreaterThan(counts?.documents as number);
  expect(counts?.aml).toBe(COUNT / 2);
  expect(counts?.aml_history).toBeGreaterThan(counts?.aml as number);
  expect(counts?.profiles_called).toBe(COUNT * 0.8);
  expect(counts?.calls).toBeGreaterThan(COUNT);

  const statuses = await rows<{ status: string }>(sql`SELECT DISTINCT status FROM profiles ORDER BY 1`);
  expect(statuses.map((r) => r.status).sort()).toEqual([...PROFILE_STATUSES].sort());
  const risks = await rows<{ risk_level: string }>(sql`SELECT DISTINCT risk_level FROM profiles ORDER BY 1`);
  expect(risks.map((r) => r.risk_level).sort()).toEqual([...RISK_LEVELS].sort());
  const turkish = await rows<{ name: string; n: number }>(sql`
    SELECT split_part(name, ' ', 2) AS name, count(*)::int AS n FROM profiles
     WHERE split_part(name, ' ', 2) IN ('Yılmaz', 'Çelik', 'Şahin', 'Öztürk') GROUP BY 1 ORDER BY 1`);
  expect(turkish.map((r) => r.name).sort()).toEqual(['Yılmaz', 'Çelik', 'Öztürk', 'Şahin'].sort());
  for (const row of turkish) expect(row.n).toBeGreaterThan(COUNT / 40);
  // The 6-month report has calls spread over the whole span, every past status.
  const [span] = await rows<{ days: number; statuses: number }>(sql`
    SELECT extract(day FROM max(created_at) - min(created_at))::int AS days,
           count(DISTINCT status)::int AS statuses FROM video_calls`);
  expect(span?.days).toBeGreaterThan(170);
  expect(span?.statuses).toBe(8);

  expect(await seedOnce()).toBe(first);
});
