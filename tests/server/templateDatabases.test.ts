import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import { startTestApp } from './helpers';

/** What a test could tell apart between a new copy of the template and one a closed app gave back. */
async function stateOf(db: Db) {
  const rows = async (query: ReturnType<typeof sql>) =>
    ((await db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
  return {
    profiles: await rows(sql`SELECT id, name, status, search_text FROM profiles ORDER BY id`),
    users: await rows(sql`SELECT id, email, agent_status FROM users ORDER BY id`),
    logs: await rows(sql`SELECT count(*)::int AS n FROM profile_logs`),
    sizes: await rows(
      sql`SELECT relname, reltuples, relpages FROM pg_class
           WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'i') ORDER BY relname`,
    ),
    settings: await rows(sql`SELECT current_setting('session_replication_role') AS role`),
    prepared: await rows(
      sql`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE name = 'left_behind'`,
    ),
  };
}

/** When the app's PostgreSQL started: the same for a database reused, another for a new copy. */
const clientOf = async (db: Db) =>
  (
    (await db.execute(sql`SELECT pg_postmaster_start_time()::text AS t`)) as unknown as {
      rows: { t: string }[];
    }
  ).rows[0]?.t;

describe("a test app's database given back for the next app", () => {
  it('is reused with the template’s rows, sequences, sizes and a clean session', async () => {
    const first = await startTestApp();
    const fresh = await stateOf(first.app.ctx.db);
    const nextId = async (db: Db) =>
      (
        (await db.execute(sql`SELECT nextval('profiles_id_seq')::int AS id`)) as unknown as {
          rows: { id: number }[];
        }
      ).rows[0]?.id;
    // Changed the way tests change it: rows, a sequence, the session's settings, a prepared statement.
    await first.app.ctx.db.execute(sql`UPDATE profiles SET name = 'Changed' WHERE id = 1`);
    await first.app.ctx.db.execute(sql`DELETE FROM profile_logs`);
    await first.app.ctx.db.execute(sql`UPDATE users SET agent_status = 'Online'`);
    const drawn = await nextId(first.app.ctx.db);
    await first.app.ctx.db.execute(sql`SET session_replication_role = replica`);
    await first.app.ctx.db.execute(sql`PREPARE left_behind AS SELECT 1`);
    const client = await clientOf(first.app.ctx.db);
    await first.close();

    const second = await startTestApp();
    expect(await clientOf(second.app.ctx.db)).toBe(client);
    expect(await stateOf(second.app.ctx.db)).toEqual(fresh);
    expect(await nextId(second.app.ctx.db)).toBe(drawn);
    await second.close();
  });

  it('is not reused once a test changed its schema', async () => {
    const first = await startTestApp();
    await first.app.ctx.db.execute(sql`CREATE TABLE left_behind (id int)`);
    const client = await clientOf(first.app.ctx.db);
    await first.close();

    const second = await startTestApp();
    expect(await clientOf(second.app.ctx.db)).not.toBe(client);
    const tables = (await second.app.ctx.db.execute(
      sql`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'left_behind'`,
    )) as unknown as { rows: { n: number }[] };
    expect(tables.rows[0]?.n).toBe(0);
    await second.close();
  });
});
