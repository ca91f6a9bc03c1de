/**
 * Counting a list without reading all of it (docs/decisions/0164-keyset-lists.md): exact up to a cap, the planner's estimate
 * above. Counting a million matching rows costs about as much as reading them; "about 1,000,000" is what
 * a person paging through them needs.
 */
import { fillPlaceholders, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';

/** The server's cap unless configured (LIST_COUNT_CAP): counting 10,000 index entries takes a few ms. */
export const DEFAULT_COUNT_CAP = 10_000;

export interface ListCount {
  count: number;
  /** true: `count` is the planner's estimate (at least the cap + 1), not a count. */
  estimated: boolean;
}

/** `count(*)` of the query's rows, stopping at `capPlusOne` (a parameter or a placeholder). */
export function cappedCount(rows: SQL, capPlusOne: unknown): SQL<number> {
  return sql<number>`(select count(*) from (${rows} limit ${capPlusOne}) capped)`.mapWith(Number);
}

/** A query builder's SQL with its placeholders (if any) filled, as one drizzle SQL to embed. */
function filled(query: Query, values: Record<string, unknown>): SQL {
  const { sql: text, params } = query.toSQL();
  const bound = fillPlaceholders(params, values);
  const chunks: SQL[] = [];
  let last = 0;
  for (const match of text.matchAll(/\$(\d+)/g)) {
    chunks.push(sql.raw(text.slice(last, match.index)));
    chunks.push(sql`${bound[Number(match[1]) - 1]}`);
    last = match.index + match[0].length;
  }
  chunks.push(sql.raw(text.slice(last)));
  return sql.join(chunks);
}

type Query = { toSQL(): { sql: string; params: unknown[] } };

const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

/** The query's rows counted up to `limit` (for a page that came back empty: no count rode along). */
export async function countRows(db: DbOrTx, query: Query, values: Record<string, unknown>, limit: number) {
  const result = await db.execute(
    sql`select count(*)::int as value from (${filled(query, values)} limit ${limit}) capped`,
  );
  return Number(rowsOf(result)[0]?.value ?? 0);
}

/** The planner's row estimate of a query (EXPLAIN: nothing is read). */
export async function estimatedRows(
  db: DbOrTx,
  query: Query,
  values: Record<string, unknown> = {},
): Promise<number> {
  const result = await db.execute(sql`explain (format json) ${filled(query, values)}`);
  const plan = rowsOf(result)[0]?.['QUERY PLAN'];
  const parsed = (typeof plan === 'string' ? JSON.parse(plan) : plan) as [{ Plan: { 'Plan Rows': number } }];
  return Math.round(parsed[0].Plan['Plan Rows']);
}

/**
 * The list's count from a capped count: exact when at most `cap`, else the estimate (never below the
 * cap + 1 the capped count proved).
 */
export async function listCount(
  capped: number,
  cap: number,
  estimate: () => Promise<number>,
): Promise<ListCount> {
  if (capped <= cap) return { count: capped, estimated: false };
  return { count: Math.max(cap + 1, await estimate()), estimated: true };
}

/** A list's count: its rows (`select 1 … where …`) counted up to `cap` + 1, estimated above `cap`. */
export async function countList(db: DbOrTx, rows: Query, cap: number): Promise<ListCount> {
  return listCount(await countRows(db, rows, {}, cap + 1), cap, () => estimatedRows(db, rows));
}
