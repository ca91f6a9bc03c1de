import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { type Changes, type Listening, PRINCIPALS_CHANGED, pgliteChanges, ROLLUPS_CHANGED } from './changes';
import { openPgliteThread, type PgliteThread } from './pgliteRemote';
import { createChangeFeed } from './postgresChanges';
import { readDatesAsText, withoutRedundantParsers } from './rawText';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Business rules take either the database or a transaction. */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /**
   * PostgreSQL: the start-up lock (migrations, then the demo seed) taken by openDatabase, released here once
   * the caller has seeded, so several processes starting together migrate and seed once.
   */
  startupDone?(): Promise<void>;
  /** Which companies' report figures changed, told at commit (records 0173 and 0180). */
  rollupChanges?: Changes;
  /** Which users' principals (role, flags, state, groups) changed, told at commit (records 0179 and 0180). */
  principalChanges?: Changes;
}

/**
 * The extensions every PGlite of this schema loads: the profile search's trigram index (migration 0034) needs
 * pg_trgm's code on every write of a profile, not only when the migration creates it.
 */
export const PGLITE_EXTENSIONS = { pg_trgm };

/** pg_advisory_lock key of the start-up (migrations and seed). */
const STARTUP_LOCK = 7_114_530_001;

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** At most this many distinct query texts get a server-side prepared statement per connection. */
export const MAX_PREPARED_STATEMENTS = 500;

/** A SELECT issued by drizzle (which writes `select` in lower case): the only kind prepared. */
const isSelect = (text: string) => /^\s*select\s/i.test(text);

type Scalar = string | number | boolean | bigint | Date | null | undefined;
const isScalar = (value: unknown): value is Scalar =>
  value === null ||
  value === undefined ||
  value instanceof Date ||
  (typeof value === 'string' && !value.includes('\0')) ||
  typeof value === 'number' ||
  typeof value === 'boolean' ||
  typeof value === 'bigint';

/** A parameter as an SQL literal: quoted (so PostgreSQL coerces it to the parameter's type) and escaped. */
function literal(value: Scalar): string {
  if (value === null || value === undefined) return 'NULL';
  return pg.escapeLiteral(value instanceof Date ? value.toISOString() : String(value));
}

/** Names for query texts, bounded: past the bound a text is run unprepared. */
function statementNames(prefix: string) {
  const names = new Map<string, string | null>();
  return {
    nameOf(text: string): string | null {
      const known = names.get(text);
      if (known !== undefined) return known;
      if (names.size >= MAX_PREPARED_STATEMENTS || !isSelect(text)) return null;
      const name = `${prefix}${names.size + 1}`;
      names.set(text, name);
      return name;
    },
    /** The text cannot be prepared (or its statement vanished): run it unprepared from now on. */
    refuse(text: string): void {
      names.set(text, null);
    },
  };
}

/** `target` with some of its members replaced; its own methods stay bound to it. */
function overriding<T extends object>(target: T, overrides: Partial<Record<keyof T, unknown>>): T {
  return new Proxy(target, {
    get(object, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof T];
      const value = Reflect.get(object, property, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

/**
 * PGlite runs every `query` through the extended protocol as five calls into WebAssembly (parse,
 * describe, bind, describe, execute) and plans the statement each time: about 0.4 ms of overhead on a
 * 0.4 ms query. This wraps the client given to drizzle so that a SELECT with plain parameters is
 * prepared once (`PREPARE`) and then run as `EXECUTE name('literal', ...)` in one simple-protocol call,
 * with the same row mode and type parsers. Literals are quoted and escaped (`pg.escapeLiteral`), so
 * PostgreSQL coerces them to the parameter types it inferred, exactly as for bound parameters.
 * Anything else (writes, DDL, object or array parameters, text with NUL, a text that cannot be
 * prepared, transactions, which use their own client) goes through PGlite's own `query`.
 */
export function withPreparedSelects(client: PGlite): PGlite {
  const names = statementNames('pgl_');
  // Statement name → its PREPARE (shared, so concurrent first uses prepare it once).
  const prepared = new Map<string, Promise<boolean>>();
  const prepare = (name: string, text: string): Promise<boolean> => {
    let done = prepared.get(name);
    if (!done) {
      // A text PostgreSQL cannot prepare is run unprepared (and fails, if it does, as it always would).
      done = client.exec(`PREPARE ${name} AS ${text}`).then(
        () => true,
        () => false,
      );
      prepared.set(name, done);
    }
    return done;
  };
  const plainQuery = client.query.bind(client);
  const query = async <T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> => {
    const values = params ?? [];
    const name = options?.blob || options?.paramTypes ? null : names.nameOf(text);
    if (!name || !values.every(isScalar)) return plainQuery<T>(text, params, options);
    const executeOptions = withoutRedundantParsers(client.parsers, options) ?? options;
    if (!(await prepare(name, text))) {
      names.refuse(text);
      return plainQuery<T>(text, params, options);
    }
    const args = values.length > 0 ? `(${values.map(literal).join(', ')})` : '';
    try {
      const [result] = await client.exec(`EXECUTE ${name}${args}`, executeOptions);
      if (!result) throw new Error(`EXECUTE ${name} returned no result`);
      return result as Results<T>;
    } catch (error) {
      // 26000: the statement was deallocated behind our back (DEALLOCATE/DISCARD): stop preparing it.
      if ((error as { code?: string }).code !== '26000') throw error;
      prepared.delete(name);
      names.refuse(text);
      return plainQuery<T>(text, params, options);
    }
  };
  return overriding(client, { query });
}

/**
 * The node-postgres counterpart: SELECT texts get a statement name, so each pooled connection parses
 * and plans them once (node-postgres prepares named statements per connection by itself).
 */
export function withNamedSelects(pool: pg.Pool): pg.Pool {
  const names = statementNames('pgs_');
  const plainQuery = pool.query.bind(pool) as (config: unknown, values?: unknown) => Promise<unknown>;
  const query = (config: unknown, values?: unknown) => {
    if (config && typeof config === 'object' && 'text' in config && !(config as { name?: unknown }).name) {
      const name = names.nameOf(String((config as { text: unknown }).text));
      if (name) return plainQuery({ ...config, name }, values);
    }
    return plainQuery(config, values);
  };
  return overriding(pool, { query });
}

/**
 * A connection checked out of `pool` whose connection ends (PostgreSQL restarted, the backend was terminated) goes
 * back to the pool at once, which drops it; its holder's own `release()` afterwards does nothing. drizzle's
 * node-postgres `transaction` sends BEGIN before its `try`: when BEGIN fails on such a connection it never releases
 * it, and `pool.end()` would wait for it for ever.
 */
export function withEndedClientsReleased(pool: pg.Pool): pg.Pool {
  const connect = async (): Promise<pg.PoolClient> => {
    const client = await pool.connect();
    let released = false;
    const release = (error?: Error | boolean) => {
      if (released) return;
      released = true;
      client.off('end', ended);
      client.release(error);
    };
    const ended = () => release(new Error('the connection ended while checked out'));
    client.once('end', ended);
    return overriding(client, { release });
  };
  return overriding(pool, { connect });
}

/**
 * A value built once per database (or transaction) handle, e.g. a drizzle prepared query, which is
 * bound to the handle it was prepared on. Prepared queries skip drizzle's query building and, on
 * node-postgres, are named statements.
 */
export function perHandle<T>(build: (db: DbOrTx) => T): (db: DbOrTx) => T {
  const built = new WeakMap<DbOrTx, T>();
  return (db) => {
    let value = built.get(db);
    if (value === undefined) {
      value = build(db);
      built.set(db, value);
    }
    return value;
  };
}

/**
 * Opens the database: a real PostgreSQL when `databaseUrl` is given, else PGlite in `pgliteDir`
 * (or in memory for `memory`). Runs the migrations before returning.
 */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  pgliteDir: string | 'memory';
  /** PostgreSQL: a connection of the pool or of the change feed failed, or a pooled one could not LISTEN. */
  onConnectionError?: (error: unknown) => void;
}): Promise<Database> {
  if (options.databaseUrl) {
    const feed = await createChangeFeed(
      { connectionString: options.databaseUrl },
      [ROLLUPS_CHANGED, PRINCIPALS_CHANGED],
      options.onConnectionError,
    );
    const connectionFailed = (error: unknown) => options.onConnectionError?.(error);
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      onConnect: async (client) => {
        // A connection that fails while checked out between two queries (PostgreSQL restarted mid-transaction)
        // says so with an 'error' event; unheard, it would end the process. Its next query fails, and it goes
        // back to the pool at once, which drops it (withEndedClientsReleased).
        client.on('error', connectionFailed);
        // Every pooled connection LISTENs before it is handed out (postgresChanges.ts).
        await feed.onConnect(client);
      },
    });
    // An idle connection that fails: the pool drops it.
    pool.on('error', connectionFailed);
    const db = drizzleNodePg({
      client: withNamedSelects(withEndedClientsReleased(pool)),
      schema,
      casing: 'snake_case',
    });
    const end = async () => {
      await feed.close();
      await pool.end();
    };
    const lock = await pool.connect().catch(async (error: unknown) => {
      await end();
      throw error;
    });
    let held = true;
    const release = async () => {
      if (!held) return;
      held = false;
      try {
        await lock.query('select pg_advisory_unlock($1)', [STARTUP_LOCK]);
      } finally {
        lock.release();
      }
    };
    try {
      await lock.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
      await migrateNodePg(db, { migrationsFolder });
    } catch (error) {
      await release();
      await end();
      throw error;
    }
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      startupDone: release,
      rollupChanges: feed.changes(ROLLUPS_CHANGED),
      principalChanges: feed.changes(PRINCIPALS_CHANGED),
      close: async () => {
        await release().catch(() => undefined);
        await end();
      },
    };
  }
  const database =
    options.pgliteDir === 'memory'
      ? pgliteDatabase(await readyPglite(new PGlite({ extensions: PGLITE_EXTENSIONS })))
      : await pgliteThreadDatabase(options.pgliteDir);
  try {
    await migratePglite(database.db as unknown as Parameters<typeof migratePglite>[0], { migrationsFolder });
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

async function readyPglite(client: PGlite): Promise<PGlite> {
  await client.waitReady;
  return client;
}

/**
 * PGlite in the folder `dir`, run in a thread of its own (record 0183): its queries, half of a request's CPU,
 * run beside the requests instead of between them.
 */
async function pgliteThreadDatabase(dir: string): Promise<Database> {
  mkdirSync(dir, { recursive: true });
  const thread = await openPgliteThread(dir);
  return pgliteDatabaseOn(thread, thread);
}

/** The database over a PGlite client that is ready (migrated or not): how the tests open one in process. */
export function pgliteDatabase(client: PGlite): Database {
  readDatesAsText(client);
  return pgliteDatabaseOn(withPreparedSelects(client), client);
}

/**
 * Drizzle on a PGlite, in process or in its thread: `queries` runs the statements, `client` tells the
 * changes and closes. Drizzle calls `query` and `transaction` (whose statements call `query` and `exec`),
 * which both have.
 */
function pgliteDatabaseOn(
  queries: PGlite | PgliteThread,
  client: Listening & Pick<PGlite, 'close'>,
): Database {
  const db = drizzlePglite({ client: queries as PGlite, schema, casing: 'snake_case' });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    rollupChanges: pgliteChanges(client, ROLLUPS_CHANGED),
    principalChanges: pgliteChanges(client, PRINCIPALS_CHANGED),
    close: () => client.close(),
  };
}
