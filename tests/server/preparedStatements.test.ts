import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '#contract/common';
import type { Profile, ProfileSummary } from '#contract/profiles';
import { type Database, openDatabase } from '../../server/db/client';
import { profiles } from '../../server/db/schema';
import { createCountCache } from '../../server/domain/countCache';
import { listProfiles } from '../../server/domain/profiles';
import { deferred } from '../support/deferred';
import { PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

// The PGlite client prepares reads and writes once and runs them as EXECUTE with quoted literals
// (server/db/pglite.ts), in a transaction as outside one. These check that it returns what bound parameters
// would, that it never serves stale rows, and that it recovers when its statements disappear.
describe('prepared statements on PGlite', () => {
  let database: Database;
  /** Rows of a raw SQL read (drizzle types them as unknown for this database type). */
  const rowsOf = async (query: ReturnType<typeof sql>) =>
    ((await database.db.execute(query)) as unknown as { rows: unknown[] }).rows;
  const raw = () => (database.db as unknown as { $client: import('@electric-sql/pglite').PGlite }).$client;
  /** How often the prepared statement whose text contains `marker` ran (none: not prepared). */
  const runsOf = async (marker: string) => {
    const [found] = await raw().exec(
      `select generic_plans + custom_plans as runs from pg_prepared_statements where statement like '%${marker}%'`,
    );
    return (found?.rows as { runs: number }[] | undefined)?.map((row) => row.runs) ?? [];
  };

  beforeAll(async () => {
    database = await openDatabase({ pgliteDir: 'memory' });
  });
  afterAll(async () => database.close());

  it('passes awkward text, numbers, booleans, dates and null through unchanged', async () => {
    const values = [
      "O'Brien",
      'back\\slash',
      "quote'and\\both",
      'ünïcödé ✓ 😀',
      '$1 ; DROP TABLE profiles; --',
      '',
    ];
    for (const value of values) {
      for (let i = 0; i < 7; i++) {
        // Seven runs: PostgreSQL switches a prepared statement to its generic plan after five.
        const rows = await rowsOf(sql`select ${value}::text as v, ${i}::int as n`);
        expect(rows[0]).toEqual({ v: value, n: i });
      }
    }
    const typed = await rowsOf(
      sql`select ${true}::boolean as b, ${null}::text as nothing, ${1.5}::float8 as f,
        ${new Date('2026-01-02T03:04:05.678Z')}::timestamptz = '2026-01-02T03:04:05.678Z' as same`,
    );
    expect(typed[0]).toEqual({ b: true, nothing: null, f: 1.5, same: true });
  });

  it('falls back to bound parameters for text with NUL (and PostgreSQL refuses it as usual)', async () => {
    await expect(rowsOf(sql`select ${'a\0b'}::text as v`)).rejects.toThrow();
    // The client still works afterwards.
    expect((await rowsOf(sql`select ${'ok'}::text as v`))[0]).toEqual({ v: 'ok' });
  });

  it('prepares a text once when its first uses come at the same time, and keeps using it', async () => {
    const read = (n: number) => rowsOf(sql`select ${n}::int as concurrent_first_use`);
    const results = await Promise.all(Array.from({ length: 20 }, (_, n) => read(n)));
    expect(results.map((rows) => rows[0])).toEqual(
      Array.from({ length: 20 }, (_, n) => ({ concurrent_first_use: n })),
    );
    await read(99);
    // One statement, and every one of the 21 reads ran it (none fell back to an unprepared query).
    expect(await runsOf('concurrent_first_use')).toEqual([21]);
  });

  it('recovers when the prepared statements are dropped behind its back', async () => {
    const read = async () => (await rowsOf(sql`select ${'again'}::text as v, 42 as answer`))[0];
    expect(await read()).toEqual({ v: 'again', answer: 42 });
    await raw().exec('DEALLOCATE ALL');
    expect(await read()).toEqual({ v: 'again', answer: 42 });
    expect(await read()).toEqual({ v: 'again', answer: 42 });
  });

  it('prepares writes: inserts, updates and deletes answer as with bound parameters', async () => {
    await rowsOf(sql`create table prepared_writes (id int primary key, label text not null)`);
    for (let i = 1; i <= 7; i++) {
      const inserted = await rowsOf(
        sql`insert into prepared_writes (id, label) values (${i}, ${`it's ${i}`}) returning id, label`,
      );
      expect(inserted).toEqual([{ id: i, label: `it's ${i}` }]);
    }
    const updated = await database.db.execute(
      sql`update prepared_writes set label = ${'changed'} where id > ${4}`,
    );
    expect((updated as unknown as { affectedRows: number }).affectedRows).toBe(3);
    await rowsOf(sql`delete from prepared_writes where id = ${1}`);
    expect(await rowsOf(sql`select id, label from prepared_writes order by id`)).toEqual([
      { id: 2, label: "it's 2" },
      { id: 3, label: "it's 3" },
      { id: 4, label: "it's 4" },
      { id: 5, label: 'changed' },
      { id: 6, label: 'changed' },
      { id: 7, label: 'changed' },
    ]);
    expect(await runsOf('insert into prepared_writes')).toEqual([7]);
  });

  it('prepares the statements of a transaction, and one prepared in a transaction rolled back stays', async () => {
    await rowsOf(sql`create table prepared_in_transactions (id int primary key)`);
    const insert = (tx: { execute: typeof database.db.execute }, id: number) =>
      tx.execute(sql`insert into prepared_in_transactions (id) values (${id})`);
    await database.db
      .transaction(async (tx) => {
        await insert(tx, 1);
        tx.rollback();
      })
      .catch(() => undefined);
    expect(await rowsOf(sql`select id from prepared_in_transactions`)).toEqual([]);
    expect(await runsOf('insert into prepared_in_transactions')).toEqual([1]);
    await database.db.transaction(async (tx) => {
      for (let id = 2; id <= 8; id++) await insert(tx, id);
    });
    await insert(database.db, 9);
    expect((await rowsOf(sql`select count(*)::int as n from prepared_in_transactions`))[0]).toEqual({ n: 8 });
    // The rolled-back run, the transaction's seven and the one outside: every one ran the same statement.
    expect(await runsOf('insert into prepared_in_transactions')).toEqual([9]);
  });

  it('fails a transaction on a text PostgreSQL cannot prepare with its own error, as unprepared', async () => {
    await rowsOf(sql`create table prepared_refused (id int primary key)`);
    const attempt = database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into prepared_refused (id) values (${1})`);
      // A parameter whose type nothing tells: PostgreSQL refuses it prepared and bound alike.
      await tx.execute(sql`select ${'untyped'} is null as prepared_refused_marker`);
    });
    const failure = await attempt.then(
      () => undefined,
      (error: Error) => error,
    );
    expect((failure?.cause as Error | undefined)?.message).toBe(
      'could not determine data type of parameter $1',
    );
    expect(await runsOf('prepared_refused_marker')).toEqual([]);
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into prepared_refused (id) values (${2})`);
    });
    expect(await rowsOf(sql`select id from prepared_refused order by id`)).toEqual([{ id: 2 }]);
  });

  it('answers a new text in a transaction that already failed with that failure, and prepares it later', async () => {
    const read = (on: { execute: typeof database.db.execute }) =>
      on.execute(sql`select ${3}::int as after_a_failure`) as unknown as Promise<{ rows: unknown[] }>;
    const attempt = database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 / ${0}::int`).catch(() => undefined);
      await read(tx);
    });
    const failure = await attempt.then(
      () => undefined,
      (error: Error) => error,
    );
    expect((failure?.cause as { code?: string } | undefined)?.code).toBe('25P02');
    expect((await read(database.db)).rows).toEqual([{ after_a_failure: 3 }]);
    expect(await runsOf('after_a_failure')).toEqual([1]);
  });

  it('does not wait in a transaction for a PREPARE that waits for that transaction', async () => {
    const { promise: held, resolve: release } = deferred();
    const { promise: entered, resolve: inside } = deferred();
    const read = (on: { execute: typeof database.db.execute }) =>
      on.execute(sql`select ${7}::int as waits_for_the_transaction`) as unknown as Promise<{
        rows: unknown[];
      }>;
    const transaction = database.db.transaction(async (tx) => {
      inside();
      await held;
      return (await read(tx)).rows;
    });
    await entered;
    // Its first use outside (drizzle's query runs once asked for its result): its PREPARE waits for the open
    // transaction to end.
    const outside = read(database.db).then((result) => result.rows);
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    expect(await transaction).toEqual([{ waits_for_the_transaction: 7 }]);
    expect(await outside).toEqual([{ waits_for_the_transaction: 7 }]);
  });

  it('prepares a statement once and keeps its text', async () => {
    const read = () => rowsOf(sql`select ${'once'}::text as marker_for_this_test`);
    await read();
    await read();
    // exec is not wrapped, so this look-up is not prepared itself.
    const [prepared] = await raw().exec(
      `select statement from pg_prepared_statements where statement like '%marker_for_this_test%'`,
    );
    expect(prepared?.rows).toHaveLength(1);
  });
});

describe('profile reads stay fresh and counts stay exact', () => {
  let t: TestApp;
  let token: string;
  const get = async <T>(url: string) => {
    const response = await t.app.inject({ url, headers: { authorization: `Bearer ${token}` } });
    return { status: response.statusCode, body: response.json() as T };
  };

  beforeAll(async () => {
    t = await startTestApp();
    token = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  });
  afterAll(async () => t.close());

  it('shows a change to a profile on the next read (prepared statements cache plans, not rows)', async () => {
    const before = await get<Profile>('/api/v2/profile/3');
    expect(before.status).toBe(200);
    for (let i = 0; i < 6; i++) await get<Profile>('/api/v2/profile/3');
    await t.app.ctx.db.update(profiles).set({ name: 'Renamed Person' }).where(eq(profiles.id, 3));
    const after = await get<Profile>('/api/v2/profile/3');
    expect(after.body).toEqual({ ...before.body, name: 'Renamed Person' });
    const listed = await get<Page<ProfileSummary>>('/api/v2/profile?search=Renamed%20Person');
    expect(listed.body.results.map((p) => p.id)).toEqual([3]);
  });

  it('answers concurrent list requests with one exact count when the count is not cached', async () => {
    const db = t.app.ctx.db;
    const counts = createCountCache(60_000);
    const query = { limit: 5, offset: 0, ordering: '-created_at' } as const;
    const [expected] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(profiles)
      .where(eq(profiles.companyId, 1));
    const pages = await Promise.all(Array.from({ length: 20 }, () => listProfiles(db, 1, query, counts)));
    for (const page of pages) {
      expect(page.count).toBe(expected?.n);
      expect(page.results).toHaveLength(5);
      expect(page.results).toEqual(pages[0]?.results);
    }
  });

  it('recounts after invalidation, also while other requests are in flight', async () => {
    const db = t.app.ctx.db;
    const counts = createCountCache(60_000);
    const query = { limit: 1, offset: 0, ordering: '-created_at', status: 'Approved' } as const;
    const first = await listProfiles(db, 1, query, counts);
    const [other] = await db
      .select({ id: profiles.id })
      .from(profiles)
      .where(sql`${profiles.companyId} = 1 and ${profiles.status} <> 'Approved'`)
      .limit(1);
    if (!other) throw new Error('the demo data has a profile that is not approved');
    await db.update(profiles).set({ status: 'Approved' }).where(eq(profiles.id, other.id));
    // Still cached: this write path did not invalidate, so the count is the one from before.
    expect((await listProfiles(db, 1, query, counts)).count).toBe(first.count);
    counts.invalidate(1);
    const pages = await Promise.all([
      listProfiles(db, 1, query, counts),
      listProfiles(db, 1, query, counts),
      listProfiles(db, 1, query, counts),
    ]);
    for (const page of pages) expect(page.count).toBe(first.count + 1);
  });
});
