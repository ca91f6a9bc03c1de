import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { ROLLUPS_CHANGED } from '../../server/db/changes';
import { type Database, openDatabase } from '../../server/db/client';
import { companies } from '../../server/db/schema';
import { deferred } from '../support/deferred';

// The server's PGlite runs in a thread of its own (server/db/pgliteRemote.ts, docs/decisions/0183-pglite-in-a-thread.md). Every end-to-end test
// goes through it (their servers keep PGlite in a folder); these check, side by side with a PGlite in process
// (how the API tests open theirs), that it answers, fails, commits, rolls back, queues and notifies the same way.
const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'idv-pglite-thread-'));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});
/** The thread's database of the first suite, opened again by the second once the first has closed it. */
const threadPlace = join(folder(), 'pg');

/** The rows of a raw read. */
const rowsOf = async (database: Database, query: ReturnType<typeof sql>) =>
  ((await database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;

/** The error a query was rejected with, and the database's own under drizzle's wrapper. */
async function failure(promise: Promise<unknown>): Promise<{ message: string; code?: string }> {
  const error = await promise.then(
    () => expect.unreachable('the query succeeded'),
    (reason: unknown) => reason as Error & { cause?: Error & { code?: string } },
  );
  return error.cause ?? error;
}

describe.each([
  ['in process (memory)', () => 'memory', () => 'memory'],
  ['in its thread (a folder)', () => threadPlace, () => join(folder(), 'pg')],
])('PGlite %s', (_, place, another) => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ pgliteDir: place() });
  });
  afterAll(async () => {
    await database.close();
  });
  /** Removes the companies a test wrote once it ends: the next test, whichever it is, meets none. */
  const removeAfterwards = (...names: string[]) =>
    onTestFinished(async () => {
      await database.db.delete(companies).where(inArray(companies.name, names));
    });

  it('is migrated and answers values of every kind unchanged', async () => {
    expect(await rowsOf(database, sql`select count(*)::int as n from companies`)).toEqual([{ n: 0 }]);
    const [row] = await rowsOf(
      database,
      sql`select ${"O'Brien ünïcödé ✓ 😀"}::text as text, ${2 ** 31}::bigint::text as big, ${1.5}::float8 as f,
        ${true}::boolean as b, ${null}::text as nothing, ${'{"a":[1,"x"]}'}::jsonb as json,
        '2026-01-02 03:04:05.678+00'::timestamptz as at, '\\x00ff'::bytea as bytes`,
    );
    expect(row).toMatchObject({ text: "O'Brien ünïcödé ✓ 😀", big: '2147483648', f: 1.5, b: true });
    expect(row?.nothing).toBeNull();
    expect(row?.json).toEqual({ a: [1, 'x'] });
    // drizzle reads timestamps as PostgreSQL's text (server/db/pglite.ts), in the thread as in process.
    expect(row?.at).toBe('2026-01-02 03:04:05.678+00');
    expect(Array.from(row?.bytes as Uint8Array)).toEqual([0, 255]);
  });

  it("fails with PostgreSQL's error and its fields, and goes on answering", async () => {
    const division = await failure(rowsOf(database, sql`select 1 / ${0}::int as x`));
    expect(division.code).toBe('22012');
    expect(division.message).toMatch(/division by zero/);
    // Text with NUL is refused by PostgreSQL (in the thread too: it is bound, not quoted into the statement).
    await expect(rowsOf(database, sql`select ${'a\0b'}::text as v`)).rejects.toThrow();
    expect(await rowsOf(database, sql`select ${'ok'}::text as v`)).toEqual([{ v: 'ok' }]);
  });

  it('commits a transaction, and rolls back one that throws or asks to', async () => {
    removeAfterwards('Kept');
    const named = (name: string) =>
      database.db.select({ id: companies.id }).from(companies).where(eq(companies.name, name));
    await database.db.transaction(async (tx) => {
      await tx.insert(companies).values({ name: 'Kept', region: 'tr' });
    });
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(companies).values({ name: 'Thrown', region: 'tr' });
        throw new Error('the caller gives up');
      }),
    ).rejects.toThrow('the caller gives up');
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(companies).values({ name: 'Rolled back', region: 'tr' });
        tx.rollback();
      }),
    ).rejects.toThrow();
    // A failed statement inside: the transaction rolls back, the error reaches the caller.
    const failed = await failure(
      database.db.transaction(async (tx) => {
        await tx.insert(companies).values({ name: 'Failed', region: 'tr' });
        await tx.execute(sql`select 1 / ${0}::int`);
      }),
    );
    expect(failed.code).toBe('22012');
    expect(await named('Kept')).toHaveLength(1);
    for (const name of ['Thrown', 'Rolled back', 'Failed']) expect(await named(name)).toHaveLength(0);
  });

  it('runs a statement sent while a transaction is open after it, never inside it', async () => {
    removeAfterwards('Queued behind');
    const order: string[] = [];
    const { promise: held, resolve: release } = deferred();
    const { promise: entered, resolve: inside } = deferred();
    const transaction = database.db.transaction(async (tx) => {
      await tx.insert(companies).values({ name: 'Queued behind', region: 'tr' });
      inside();
      await held;
      order.push('commit');
    });
    await entered;
    const outside = rowsOf(
      database,
      sql`select count(*)::int as n from companies where name = 'Queued behind'`,
    ).then((rows) => {
      order.push('outside read');
      return rows;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual([]);
    release();
    await transaction;
    expect(await outside).toEqual([{ n: 1 }]);
    expect(order).toEqual(['commit', 'outside read']);
  });

  it("tells a commit's notification before the writer's await returns", async () => {
    const heard: (number | null)[] = [];
    const stop = await database.rollupChanges?.listen((change) => heard.push(change));
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_notify(${ROLLUPS_CHANGED}, '42')`);
      expect(heard).toEqual([]);
    });
    expect(heard).toEqual([42]);
    await database.db.execute(sql`select pg_notify(${ROLLUPS_CHANGED}, '*')`);
    expect(heard).toEqual([42, null]);
    await stop?.();
  });

  it('refuses calls once closed', async () => {
    // A database of its own: closing the suite's would fail every test that runs after this one.
    const own = await openDatabase({ pgliteDir: another() });
    await own.close();
    expect((await failure(own.db.execute(sql`select 1`))).message).toMatch(/closed/);
  });
});

describe('PGlite in its thread (opening and ending)', () => {
  it('fails to open where PGlite cannot, without hanging', async () => {
    const file = join(folder(), 'a-file');
    writeFileSync(file, 'not a folder');
    await expect(openDatabase({ pgliteDir: file })).rejects.toThrow();
  });

  it('does not keep an idle process alive, as PGlite in process does not', () => {
    const client = new URL('../../server/db/client.ts', import.meta.url).href;
    // Opens the first suite's database (migrated: nothing to do), reads, and neither closes it nor exits: the process must end by itself.
    const script = `import { sql } from 'drizzle-orm';
const { openDatabase } = await import(${JSON.stringify(client)});
const database = await openDatabase({ pgliteDir: ${JSON.stringify(threadPlace)} });
const { rows } = await database.db.execute(sql\`select 7 as n\`);
console.log(JSON.stringify(rows));`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {
      cwd: new URL('../..', import.meta.url).pathname,
      encoding: 'utf8',
      timeout: 50_000,
    });
    expect(child.stderr).toBe('');
    expect(child.stdout.trim()).toBe('[{"n":7}]');
    // Null when the timeout had to stop it.
    expect(child.status).toBe(0);
  });
});
