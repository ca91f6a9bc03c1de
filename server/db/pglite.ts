/**
 * How a PGlite is set up for drizzle, in the server's process or in its thread (pgliteThread.ts): its
 * extensions, dates read as text, and statements prepared once.
 */
import type { PGlite, QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { overriding, statementNames } from './statements';

/**
 * The extensions every PGlite of this schema loads: the profile search's trigram index (migration 0034) needs
 * pg_trgm's code on every write of a profile, not only when the migration creates it.
 */
export const PGLITE_EXTENSIONS = { pg_trgm };

/**
 * Types that drizzle reads as PostgreSQL's text (it parses dates itself): timestamp, timestamptz,
 * interval, date, and arrays of numeric, timestamp, timestamptz, interval and date.
 */
const RAW_TEXT_TYPES = [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182];
const rawText = (value: string) => value;
const PROBE = '2026-01-01 00:00:00+00';

/** A parser table that reads drizzle's raw-text types as text, as `readDatesAsText` makes a client's. */
export const RAW_TEXT_PARSERS: Readonly<Record<number, typeof rawText>> = Object.fromEntries(
  RAW_TEXT_TYPES.map((oid) => [oid, rawText]),
);

/**
 * Makes the client itself read drizzle's raw-text types as text (call once it is ready: PGlite sets
 * its array parsers while starting). Only drizzle uses this client, and it asks for the same anyway.
 */
export function readDatesAsText(client: PGlite): void {
  Object.assign(client.parsers, RAW_TEXT_PARSERS);
}

/**
 * Drizzle passes its raw-text parsers with every query, and PGlite merges them into a copy of its
 * whole parser table (hundreds of types) for each result: about 0.1 ms a query. When every given
 * parser returns its text unchanged and the client's table (`parsers`) already does the same for that type,
 * the result is the same without them: the options without them, else null.
 */
export function withoutRedundantParsers(
  parsers: Readonly<Record<number, unknown>>,
  options: QueryOptions | undefined,
): QueryOptions | undefined | null {
  if (!options?.parsers) return options;
  for (const [oid, parser] of Object.entries(options.parsers)) {
    if (parsers[Number(oid)] !== rawText || parser(PROBE, Number(oid)) !== PROBE) return null;
  }
  const { parsers: _, ...rest } = options;
  return rest;
}

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

/**
 * PGlite runs every `query` through the extended protocol as five calls into WebAssembly (parse,
 * describe, bind, describe, execute) and plans the statement each time: about 0.4 ms of overhead on a
 * 0.4 ms query; the statement that creates a profile with its log, audit entry and webhook event took 2.85 ms
 * planned each time and 1.27 ms prepared. This wraps the client given to drizzle so that a statement with plain
 * parameters (a read or a write, `statements.ts` says which) is prepared once (`PREPARE`) and then run as
 * `EXECUTE name('literal', ...)` in one simple-protocol call, with the same row mode and type parsers, in a
 * transaction as outside one. Literals are quoted and escaped (`pg.escapeLiteral`), so PostgreSQL coerces
 * them to the parameter types it inferred, exactly as for bound parameters. Anything else (DDL, object or
 * array parameters, text with NUL, a text that cannot be prepared) goes through PGlite's own `query`.
 *
 * A prepared statement belongs to the session, not to a transaction: one prepared inside a transaction that
 * rolls back stays. Inside a transaction a failed PREPARE would abort it, so it is tried within a savepoint;
 * and a transaction never waits for a PREPARE begun outside it (that one waits for the transaction to end):
 * it runs its statement unprepared meanwhile.
 */
export function withPreparedStatements(client: PGlite): PGlite {
  const names = statementNames('pgl_');
  // Statement name → its PREPARE (shared, so concurrent first uses prepare it once), and whether it is done.
  const prepared = new Map<string, Promise<boolean>>();
  const settled = new Map<string, boolean>();
  const remember = (name: string, text: string, done: Promise<boolean>) => {
    prepared.set(name, done);
    done.then(
      (ok) => {
        settled.set(name, ok);
        // A text PostgreSQL cannot prepare is run unprepared from then on (and fails, if it does, as it would).
        if (!ok) names.refuse(text);
      },
      // A PREPARE in a transaction that had already failed is tried again by a later use.
      () => prepared.delete(name),
    );
    return done;
  };
  const forget = (name: string, text: string) => {
    prepared.delete(name);
    settled.delete(name);
    names.refuse(text);
  };
  const prepareOutside = (name: string, text: string): Promise<boolean> =>
    prepared.get(name) ??
    remember(
      name,
      text,
      client.exec(`PREPARE ${name} AS ${text}`).then(
        () => true,
        () => false,
      ),
    );
  const prepareInside = (tx: Transaction, name: string, text: string): Promise<boolean> | boolean => {
    const known = settled.get(name);
    if (known !== undefined) return known;
    if (prepared.has(name)) return false;
    return remember(
      name,
      text,
      tx
        .exec(`SAVEPOINT prepare_statement; PREPARE ${name} AS ${text}; RELEASE SAVEPOINT prepare_statement`)
        .then(
          () => true,
          async (refused: unknown) => {
            // In a transaction that had already failed the savepoint was never made: its own error stands.
            await tx
              .exec('ROLLBACK TO SAVEPOINT prepare_statement; RELEASE SAVEPOINT prepare_statement')
              .catch(() => {
                throw refused;
              });
            return false;
          },
        ),
    );
  };

  const queryOn = (on: PGlite | Transaction) => {
    const plainQuery = on.query.bind(on);
    return async <T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> => {
      const values = params ?? [];
      const name = options?.blob || options?.paramTypes ? null : names.nameOf(text);
      if (!name || !values.every(isScalar)) return plainQuery<T>(text, params, options);
      const ready =
        on === client ? await prepareOutside(name, text) : await prepareInside(on as Transaction, name, text);
      if (!ready) return plainQuery<T>(text, params, options);
      const executeOptions = withoutRedundantParsers(client.parsers, options) ?? options;
      const args = values.length > 0 ? `(${values.map(literal).join(', ')})` : '';
      try {
        const [result] = await on.exec(`EXECUTE ${name}${args}`, executeOptions);
        if (!result) throw new Error(`EXECUTE ${name} returned no result`);
        return result as Results<T>;
      } catch (error) {
        // 26000: the statement was deallocated behind our back (DEALLOCATE/DISCARD): stop preparing it. Outside
        // a transaction the statement is then run unprepared; inside one the failure has aborted it (the server
        // never deallocates, so only a hand at the database can cause that).
        if ((error as { code?: string }).code !== '26000') throw error;
        forget(name, text);
        if (on !== client) throw error;
        return plainQuery<T>(text, params, options);
      }
    };
  };
  const transaction = <T>(callback: (tx: Transaction) => Promise<T>) =>
    client.transaction((tx) => callback(overriding(tx, { query: queryOn(tx) })));
  return overriding(client, { query: queryOn(client), transaction });
}
