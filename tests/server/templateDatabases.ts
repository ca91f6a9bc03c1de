/**
 * The seeded template database (tests/server/template.setup.ts) for the test apps of one worker, kept for
 * reuse: starting a PGlite on a copy of the template took 1–2 CPU-seconds each (about a hundred of them in a
 * run, nearly half of the API tests' CPU), putting its tables back to the template's rows takes a fraction of
 * that.
 *
 * A test app's database, once closed, waits here; the next app's takes it, and before that it is reset: the
 * session's state dropped (DISCARD ALL: prepared statements, LISTENs, settings, temporary tables, advisory
 * locks), every table emptied and filled again with the template's rows, every sequence and the catalogue's
 * table sizes set back. A database whose schema a test changed (a table, trigger, function or column added or
 * dropped) is closed instead, and a new copy of the template started.
 */
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { PGLITE_EXTENSIONS } from '../../server/db/pglite';

/** A table's rows as COPY writes them (none: an empty table), and the columns they fill (not the generated ones). */
interface TableRows {
  table: string;
  columns: string;
  rows: Blob | undefined;
}

/** The template's content, read from the first copy this worker starts. */
interface Template {
  tables: TableRows[];
  /** The statements that set every sequence back to where the template left it. */
  sequences: string;
  /**
   * The statement that gives every table and index back the sizes the template's catalogue holds: TRUNCATE
   * forgets them (reltuples −1), and the planner and the searches' estimated counts read them.
   */
  sizes: string;
  /** What the schema is made of (see `schemaOf`): a database with another is not reused. */
  schema: string;
}

/** The template's database file, read once per worker. */
let templateData: Blob | undefined;
let template: Promise<Template> | undefined;
/** Closed databases of this worker, waiting for the next test app. */
const idle: PGlite[] = [];

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Counts and the newest object id of the catalogues a schema change touches. */
async function schemaOf(client: PGlite): Promise<string> {
  const { rows } = await client.query<{ schema: string }>(
    `SELECT concat_ws(':',
       (SELECT count(*) FROM pg_class), (SELECT max(oid) FROM pg_class),
       (SELECT count(*) FROM pg_attribute), (SELECT count(*) FROM pg_trigger),
       (SELECT count(*) FROM pg_proc), (SELECT count(*) FROM pg_constraint)) AS schema`,
  );
  return rows[0]?.schema ?? '';
}

async function readTemplate(client: PGlite): Promise<Template> {
  const { rows: columns } = await client.query<{ table: string; columns: string }>(
    `SELECT c.table_name AS table,
            string_agg(quote_ident(c.column_name), ', ' ORDER BY c.ordinal_position) AS columns
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.is_generated = 'NEVER'
      GROUP BY c.table_name ORDER BY c.table_name`,
  );
  const tables: TableRows[] = [];
  for (const { table, columns: list } of columns) {
    const [copied] = await client.exec(`COPY public.${quote(table)} (${list}) TO '/dev/blob'`);
    tables.push({ table, columns: list, rows: copied?.blob });
  }
  const { rows: sequences } = await client.query<{ name: string; last: string | null }>(
    `SELECT quote_ident(schemaname) || '.' || quote_ident(sequencename) AS name, last_value::text AS last
       FROM pg_sequences WHERE schemaname = 'public'`,
  );
  const { rows: sizes } = await client.query<{ sizes: string }>(
    `SELECT coalesce(json_agg(json_build_object('oid', c.oid, 'reltuples', c.reltuples,
              'relpages', c.relpages, 'relallvisible', c.relallvisible))::text, '[]') AS sizes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i', 'p')`,
  );
  return {
    tables,
    sequences: sequences
      .map(({ name, last }) =>
        last === null ? `SELECT setval('${name}', 1, false);` : `SELECT setval('${name}', ${last}, true);`,
      )
      .join('\n'),
    sizes: `UPDATE pg_class c SET reltuples = s.reltuples, relpages = s.relpages, relallvisible = s.relallvisible
      FROM json_to_recordset('${(sizes[0]?.sizes ?? '[]').replaceAll("'", "''")}')
        AS s(oid oid, reltuples real, relpages integer, relallvisible integer)
     WHERE c.oid = s.oid`,
    schema: await schemaOf(client),
  };
}

/** Puts a database back to the template's rows; false when its schema is no longer the template's. */
async function reset(client: PGlite, of: Template): Promise<boolean> {
  await client.exec('DISCARD ALL');
  if ((await schemaOf(client)) !== of.schema) return false;
  await client.transaction(async (tx) => {
    // Foreign keys and the tables' triggers are triggers: replica mode skips them while the rows go back.
    await tx.exec(`SET LOCAL session_replication_role = replica;
      TRUNCATE ${of.tables.map(({ table }) => `public.${quote(table)}`).join(', ')};`);
    for (const { table, columns, rows } of of.tables)
      if (rows)
        await tx.query(`COPY public.${quote(table)} (${columns}) FROM '/dev/blob'`, [], { blob: rows });
    await tx.exec(of.sequences);
    await tx.exec(of.sizes);
  });
  return true;
}

/** A PGlite on the template's data: one a closed test app left (reset), else a new copy of the template. */
export async function templateDatabase(file: string): Promise<PGlite> {
  for (let client = idle.pop(); client; client = idle.pop()) {
    const ok = await reset(client, await (template as Promise<Template>)).catch(() => false);
    if (ok) return client;
    await client.close().catch(() => undefined);
  }
  templateData ??= new Blob([readFileSync(file)]);
  const client = new PGlite({ loadDataDir: templateData, extensions: PGLITE_EXTENSIONS });
  await client.waitReady;
  template ??= readTemplate(client);
  await template;
  return client;
}

/** Takes back the database of a closed test app, for the next. */
export function giveBack(client: PGlite): void {
  idle.push(client);
}
