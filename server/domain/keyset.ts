/**
 * Keyset paging (docs/decisions/0164-keyset-lists.md): a page continues after (or before) the sort key and id of
 * a row instead of skipping `offset` rows, so a page deep in a list of millions costs what the first one
 * costs. The position travels as an opaque cursor: base64url JSON of the ordering, the key as PostgreSQL
 * writes it, the id and the direction. Every cursor is checked before it reaches SQL: a forged one is a
 * 400, never a failed cast (a 500).
 */
import { type AnyColumn, asc, desc, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { MAX_ID } from '#contract/common';
import type { DbOrTx } from '../db/client';
import { badRequest } from '../errors';

/**
 * What a sort key holds. The key is always non-null (nullable columns are ordered by a `coalesce`), so
 * `(key, id) > (k, i)` is one row comparison an index on `(company_id, key, id)` answers by a range scan.
 */
export type KeyKind = 'timestamp' | 'text' | 'int';

const CASTS: Record<KeyKind, string> = { timestamp: 'timestamptz', text: 'text', int: 'int' };

export interface KeysetOrdering {
  /** The ordering as the query names it (`-created_at`); a cursor made for another one is refused. */
  name: string;
  /** The sort key before the id; absent when the list is ordered by the id alone. */
  key?: { expr: SQL | AnyColumn; kind: KeyKind };
  id: AnyColumn;
  descending: boolean;
}

export interface Cursor {
  ordering: string;
  /** The key as text (`key::text`), null when the ordering has no key. */
  key: string | null;
  id: number;
  /** A `previous` cursor: the rows before this position. */
  back: boolean;
}

/** A page's first and last row's position, as selected by `keyTextOf`. */
export interface RowPosition {
  key: string | null;
  id: number;
}

export function encodeCursor(cursor: Cursor): string {
  const body = { o: cursor.ordering, k: cursor.key, i: cursor.id, b: cursor.back ? 1 : 0 };
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

/** Longest cursor accepted: a long name (a text key) in base64 stays far below. */
export const MAX_CURSOR_LENGTH = 2_048;
const INVALID = 'Invalid cursor: use the next or previous address of a page of this list and ordering';

// PostgreSQL's ISO output of a timestamptz (`2026-11-21 09:24:06.738123+00`, any offset) or ±infinity.
const PG_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?[+-]\d{2}(?::\d{2}){0,2}$|^-?infinity$/;

function validTimestamp(text: string): boolean {
  const m = PG_TIMESTAMP.exec(text);
  if (!m) return false;
  if (m[1] === undefined) return true; // ±infinity
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as number[] as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1 &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60
  );
}

function validKey(kind: KeyKind, key: unknown): key is string {
  if (typeof key !== 'string' || key.length > 1_000 || key.includes('\0')) return false;
  if (kind === 'timestamp') return validTimestamp(key);
  if (kind === 'int') return /^-?\d{1,9}$/.test(key);
  return true;
}

/** The cursor of a request, checked against the list's ordering; anything else is a 400. */
export function decodeCursor(text: string, ordering: KeysetOrdering): Cursor {
  if (text.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) throw badRequest(INVALID);
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(INVALID);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest(INVALID);
  const { o, k, i, b } = body as Record<string, unknown>;
  if (o !== ordering.name) throw badRequest(`${INVALID} (it was made for another ordering)`);
  if (typeof i !== 'number' || !Number.isInteger(i) || i < 1 || i > MAX_ID) throw badRequest(INVALID);
  if (b !== 0 && b !== 1) throw badRequest(INVALID);
  if (ordering.key ? !validKey(ordering.key.kind, k) : k !== null) throw badRequest(INVALID);
  return { ordering: ordering.name, key: (k as string | null) ?? null, id: i, back: b === 1 };
}

/** The key as text, selected with each row so the page's ends become cursors. */
export function keyTextOf(ordering: KeysetOrdering): SQL<string | null> {
  return ordering.key ? sql<string>`(${ordering.key.expr})::text` : sql<null>`null::text`;
}

/** ORDER BY of the list, or of its reverse (a `previous` page reads backwards, then turns around). */
export function orderByOf(ordering: KeysetOrdering, back: boolean): SQL[] {
  const dir = ordering.descending !== back ? desc : asc;
  const id = dir(ordering.id);
  return ordering.key ? [dir(ordering.key.expr as AnyColumn), id] : [id];
}

/**
 * The rows after the cursor in the direction read. `key` and `id` are the values as SQL (parameters or
 * placeholders of a prepared query).
 */
export function seekOf(ordering: KeysetOrdering, back: boolean, key: SQL | unknown, id: SQL | unknown): SQL {
  const op = sql.raw(ordering.descending !== back ? '<' : '>');
  if (!ordering.key) return sql`${ordering.id} ${op} ${id}`;
  const cast = sql.raw(CASTS[ordering.key.kind]);
  return sql`(${ordering.key.expr}, ${ordering.id}) ${op} (${key}::${cast}, ${id})`;
}

/**
 * Where the next and previous pages start: their row position (`offset`, which old clients and the
 * studio's page numbers read) and, past the first page, the cursor that actually finds them.
 */
export type PageLink = { offset: number; cursor?: string } | null;

export interface KeysetLinks {
  next: PageLink;
  previous: PageLink;
}

/**
 * The paging part of a keyset list's query. With a cursor, `offset` only names the page's position (the
 * links carry both); without one it is honoured as before (old clients, the studio's far page jumps).
 */
export interface KeysetPaging {
  limit: number;
  offset: number;
  cursor?: string | undefined;
}

/** The request's cursor, if any, checked against the list's ordering. */
export function cursorOf(paging: KeysetPaging, ordering: KeysetOrdering): Cursor | undefined {
  return paging.cursor === undefined ? undefined : decodeCursor(paging.cursor, ordering);
}

/** How many rows to read and skip: one more than a page (does another follow?), no skipping after a cursor. */
export function readWindow(
  paging: KeysetPaging,
  cursor: Cursor | undefined,
): { limit: number; offset: number } {
  return { limit: paging.limit + 1, offset: cursor ? 0 : paging.offset };
}

/**
 * The rows a page reads (its size and one more), written into the statement's text rather than sent as a parameter,
 * for the studio's page sizes and the API's defaults (docs/decisions/0188-list-planned-once-ids-from-the-index.md); otherwise `otherwise` (by default the number,
 * which drizzle sends as a parameter). Over `LIMIT $n` PostgreSQL's plan for any value assumes the limit keeps a
 * tenth of the rows, so on a large table it looks dearer than a plan for the value, and every run of the statement
 * was planned anew: at 1,000,000 profiles about as much CPU as running it. With the number in the text, the
 * statement keeps one plan from its sixth run on. Other sizes stay parameters: a few statements per list, whatever
 * limits a client sends. (drizzle leaves out an OFFSET of 0: the pages of a cursor have none.)
 */
const WRITTEN_LIMITS = new Set([10, 20, 25, 50, 100, 200].map((size) => size + 1));
export const isWrittenLimit = (rows: number) => WRITTEN_LIMITS.has(rows);
export function limitOf(rows: number, otherwise: number | Placeholder = rows): number | Placeholder {
  return isWrittenLimit(rows) ? (sql.raw(String(rows)) as unknown as Placeholder) : otherwise;
}

/**
 * The page in list order and its links, from rows read with `orderByOf(…, cursor.back)` and
 * `readWindow` (the extra row says whether more follow in the direction read).
 */
export function pageOf<R>(
  ordering: KeysetOrdering,
  paging: KeysetPaging,
  cursor: Cursor | undefined,
  read: R[],
  positionOf: (row: R) => RowPosition,
): { rows: R[]; links: KeysetLinks } {
  const { limit, offset } = paging;
  const more = read.length > limit;
  const rows = read.slice(0, limit);
  const back = cursor?.back ?? false;
  if (back) rows.reverse();
  const at = (row: R | undefined, toBack: boolean, position: number): PageLink => {
    if (!row) return { offset: position };
    const { key, id } = positionOf(row);
    return { offset: position, cursor: encodeCursor({ ordering: ordering.name, key, id, back: toBack }) };
  };
  const first = rows[0];
  const last = rows[rows.length - 1];
  if (back) {
    // Fewer rows than asked before the cursor: they start the list, whatever `offset` said.
    if (!more) return { rows, links: { previous: null, next: at(last, false, rows.length) } };
    return {
      rows,
      links: {
        previous: at(first, true, Math.max(0, offset - limit)),
        next: at(last, false, offset + limit),
      },
    };
  }
  const previous = cursor || offset > 0 ? at(first, true, Math.max(0, offset - limit)) : null;
  return { rows, links: { previous, next: more ? at(last, false, offset + limit) : null } };
}

/** A list's table and conditions, for reading the ids of a page at an offset first (`readKeysetPage`). */
export interface ListRows {
  db: DbOrTx;
  where: SQL | undefined;
}

/**
 * One keyset page of a list read by drizzle's builder (the lists without prepared queries): `read` gets
 * the condition that places the page (a cursor's seek, at an offset the page's ids, or undefined on the first
 * page), the order and the rows to read, and must select each row's `keyTextOf` for `positionOf`. A page at an
 * offset reads its ids first from `rows`, along the ordering's index (docs/decisions/0193-list-ids-from-the-index-at-any-offset.md): the rows it skips are index
 * entries, not table rows, and `read` never skips any.
 */
export async function readKeysetPage<R>(
  ordering: KeysetOrdering,
  paging: KeysetPaging,
  read: (place: SQL | undefined, orderBy: SQL[], limit: number | Placeholder) => Promise<R[]>,
  positionOf: (row: R) => RowPosition,
  rows: ListRows,
): Promise<{ rows: R[]; links: KeysetLinks }> {
  const cursor = cursorOf(paging, ordering);
  const back = cursor?.back ?? false;
  const orderBy = orderByOf(ordering, back);
  const window = readWindow(paging, cursor);
  const limit = limitOf(window.limit);
  // At an offset the ids as one array (an InitPlan, run once), then the rows by primary key. As `IN (…)`, a
  // plan could instead walk the ordering's index and read every row it passes to test it against the ids.
  const place =
    window.offset > 0
      ? sql`${ordering.id} = any(array(${rows.db
          .select({ id: ordering.id as PgColumn })
          .from(ordering.id.table as PgTable)
          .where(rows.where)
          .orderBy(...orderBy)
          .limit(limit)
          .offset(window.offset)}))`
      : cursor && seekOf(ordering, back, cursor.key, cursor.id);
  const page = await read(place, orderBy, limit);
  return pageOf(ordering, paging, cursor, page, positionOf);
}
