import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import {
  type Changes,
  type Listening,
  PRINCIPALS_CHANGED,
  pgliteChanges,
  ROLLUPS_CHANGED,
  WEBHOOKS_QUEUED,
} from './changes';
import { PGLITE_EXTENSIONS, readDatesAsText, withPreparedStatements } from './pglite';
import { openPgliteThread, type PgliteThread } from './pgliteRemote';
import { createChangeFeed } from './postgresChanges';
import * as schema from './schema';
import { overriding, statementNames } from './statements';

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
  /** Which companies' report figures changed, told at commit (docs/decisions/0173-reports-kept-until-they-change.md, docs/decisions/0180-postgresql-tells-what-changed.md). */
  rollupChanges?: Changes;
  /** Which users' principals (role, flags, state, groups) changed, told at commit (docs/decisions/0179-principals-kept-until-they-change.md, docs/decisions/0180-postgresql-tells-what-changed.md). */
  principalChanges?: Changes;
  /** Webhook messages were queued (any process), told at commit: the delivery worker wakes (docs/decisions/0227-events-not-polls.md). */
  webhooksQueued?: Changes;
  /** PGlite: its data folder as a gzipped tarball, while it runs (scripts/backup.ts; PostgreSQL has pg_dump). */
  dump?(): Promise<Uint8Array>;
}

/** pg_advisory_lock key of the start-up (migrations and seed). */
const STARTUP_LOCK = 7_114_530_001;

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * The node-postgres counterpart: the texts of reads and writes (`statements.ts`) get a statement name, so each
 * pooled connection parses and plans them once (node-postgres prepares named statements per connection by itself).
 */
export function withNamedStatements(pool: pg.Pool): pg.Pool {
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
      [ROLLUPS_CHANGED, PRINCIPALS_CHANGED, WEBHOOKS_QUEUED],
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
      client: withNamedStatements(withEndedClientsReleased(pool)),
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
      webhooksQueued: feed.changes(WEBHOOKS_QUEUED),
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
 * PGlite in the folder `dir`, run in a thread of its own (docs/decisions/0183-pglite-in-a-thread.md): its queries, half of a request's CPU,
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
  return pgliteDatabaseOn(withPreparedStatements(client), client);
}

/**
 * Drizzle on a PGlite, in process or in its thread: `queries` runs the statements, `client` tells the
 * changes and closes. Drizzle calls `query` and `transaction` (whose statements call `query` and `exec`),
 * which both have.
 */
function pgliteDatabaseOn(
  queries: PGlite | PgliteThread,
  client: Listening & Pick<PGlite | PgliteThread, 'close' | 'dumpDataDir'>,
): Database {
  const db = drizzlePglite({ client: queries as PGlite, schema, casing: 'snake_case' });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    rollupChanges: pgliteChanges(client, ROLLUPS_CHANGED),
    principalChanges: pgliteChanges(client, PRINCIPALS_CHANGED),
    webhooksQueued: pgliteChanges(client, WEBHOOKS_QUEUED),
    dump: async () => {
      const dump = await client.dumpDataDir('gzip');
      return dump instanceof Uint8Array ? dump : new Uint8Array(await dump.arrayBuffer());
    },
    close: () => client.close(),
  };
}
