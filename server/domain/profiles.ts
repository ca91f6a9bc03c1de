import { createHash } from 'node:crypto';
import { type AnyColumn, and, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import { PROFILE_STATUSES, type ProfileStatus, RISK_LEVELS, type RiskLevel } from '#contract/common';
import type { Profile, ProfileListQuery, ProfileSummary } from '#contract/profiles';
import { type DbOrTx, perHandle } from '../db/client';
import { profileSortKey, profiles } from '../db/schema';
import { notFound } from '../errors';
import type { CountCache } from './countCache';
import {
  cappedCount,
  countRows,
  DEFAULT_COUNT_CAP,
  estimatedRows,
  type ListCount,
  listCount,
} from './counting';
import { iso } from './format';
import {
  type Cursor,
  cursorOf,
  isWrittenLimit,
  type KeysetLinks,
  type KeysetOrdering,
  keyTextOf,
  limitOf,
  orderByOf,
  pageOf,
  readWindow,
  seekOf,
} from './keyset';
import { manyFrom, SEARCH_COUNT_CAP, searchConditionOf } from './profileSearch';

type ProfileRow = typeof profiles.$inferSelect;

// Prepared once per database handle: the hot reads skip drizzle's query building on every request.
const byId = and(
  eq(profiles.id, sql.placeholder('id')),
  eq(profiles.companyId, sql.placeholder('companyId')),
);
const profileById = perHandle((db) => db.select().from(profiles).where(byId).prepare('profile_by_id'));
const profileExists = perHandle((db) =>
  db.select({ id: profiles.id }).from(profiles).where(byId).prepare('profile_exists'),
);

/** The company's profile or a 404 (another company's id is unknown to the caller). */
export async function requireProfile(db: DbOrTx, companyId: number, profileId: number): Promise<ProfileRow> {
  const [row] = await profileById(db).execute({ id: profileId, companyId });
  if (!row) throw notFound();
  return row;
}

/** Same check without loading the row. */
export async function assertProfile(db: DbOrTx, companyId: number, profileId: number): Promise<void> {
  const [row] = await profileExists(db).execute({ id: profileId, companyId });
  if (!row) throw notFound();
}

const summaryColumns = {
  id: profiles.id,
  idCardNumber: profiles.idCardNumber,
  name: profiles.name,
  gender: profiles.gender,
  email: profiles.email,
  phone: profiles.phone,
  nationality: profiles.nationality,
  status: profiles.status,
  riskLevel: profiles.riskLevel,
  source: profiles.source,
  companyId: profiles.companyId,
  createdAt: profiles.createdAt,
  updatedAt: profiles.updatedAt,
  lastStatusDate: profiles.lastStatusDate,
};
type SummaryRow = Pick<ProfileRow, keyof typeof summaryColumns>;

export function toProfileSummary(row: SummaryRow): ProfileSummary {
  return {
    id: row.id,
    id_card_number: row.idCardNumber,
    name: row.name,
    gender: row.gender,
    email: row.email,
    phone: row.phone,
    nationality: row.nationality,
    status: row.status as ProfileStatus,
    risk_level: row.riskLevel as RiskLevel,
    source: row.source,
    company: row.companyId,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    last_status_date: iso(row.lastStatusDate),
  };
}

/** A timestamp column as PostgreSQL writes it in UTC: `2026-11-21 09:24:06.738123` (`isoOfUtcText` reads it). */
const utcTextSql = (column: AnyColumn) => sql`(${column} at time zone 'UTC')::text`;

/**
 * `utcTextSql`'s text as `iso` writes it (`2026-11-21T09:24:06.738Z`, cut to the millisecond), by slicing: a `Date`
 * and its `toISOString` for each of a page's 60 timestamps cost more than decoding its rows. Any other shape goes
 * through `Date`.
 */
export function isoOfUtcText(text: string): string {
  if (text.length < 19 || text[4] !== '-' || text[10] !== ' ' || (text.length > 19 && text[19] !== '.'))
    return new Date(`${text.replace(' ', 'T')}Z`).toISOString();
  const ms = text.length > 20 ? text.slice(20, 23).padEnd(3, '0') : '000';
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${ms}Z`;
}

/**
 * A list row as one JSON array, sent as text: the fields of `ProfileSummary` in its order (the timestamps as
 * `utcTextSql` writes them), then the row's key text (`keyTextOf`). PGlite decodes every field of a result on
 * its own and its thread hands each row object over to the server's, which cost more than reading the rows. The
 * page's rows are joined into one text (`listQuery`): one field to decode and one string to hand over
 * (docs/decisions/0233-list-rows-as-json-text.md, docs/decisions/0240-list-page-as-one-text.md).
 */
const summaryTupleSql = (keyText: SQL) => sql`json_build_array(${profiles.id}, ${profiles.idCardNumber},
  ${profiles.name}, ${profiles.gender}, ${profiles.email}, ${profiles.phone}, ${profiles.nationality},
  ${profiles.status}, ${profiles.riskLevel}, ${profiles.source}, ${profiles.companyId},
  ${utcTextSql(profiles.createdAt)}, ${utcTextSql(profiles.updatedAt)}, ${utcTextSql(profiles.lastStatusDate)},
  ${keyText})`;
type SummaryTuple = [
  id: number,
  idCardNumber: string,
  name: string | null,
  gender: string | null,
  email: string | null,
  phone: string | null,
  nationality: string | null,
  status: ProfileStatus,
  riskLevel: RiskLevel,
  source: string,
  companyId: number,
  createdAt: string,
  updatedAt: string,
  lastStatusDate: string | null,
  position: string | null,
];

function summaryOf(t: SummaryTuple): ProfileSummary {
  return {
    id: t[0],
    id_card_number: t[1],
    name: t[2],
    gender: t[3],
    email: t[4],
    phone: t[5],
    nationality: t[6],
    status: t[7],
    risk_level: t[8],
    source: t[9],
    company: t[10],
    created_at: isoOfUtcText(t[11]),
    updated_at: isoOfUtcText(t[12]),
    last_status_date: t[13] === null ? null : isoOfUtcText(t[13]),
  };
}

export function toProfile(row: ProfileRow): Profile {
  return {
    ...toProfileSummary(row),
    date_of_birth: row.dateOfBirth,
    address: { province: row.addressProvince, city: row.addressCity, street: row.addressStreet },
    extra_data: row.extraData,
    quality_check: row.qualityCheck,
    aliases: row.aliases,
    risk_scores: row.riskScores,
    reject_reason: row.rejectReason,
    summary: row.summary,
    version: row.version,
  };
}

/** The sort keys of the orderings (docs/decisions/0164-keyset-lists.md, the expressions are those migration 0033 indexes). */
const SORT_KEYS: Record<string, KeysetOrdering['key']> = {
  created_at: { expr: profiles.createdAt, kind: 'timestamp' },
  updated_at: { expr: profiles.updatedAt, kind: 'timestamp' },
  last_status_date: {
    expr: profileSortKey.lastStatusDate(profiles.lastStatusDate),
    kind: 'timestamp',
  },
  name: { expr: profileSortKey.name(profiles.name), kind: 'text' },
  status: { expr: profileSortKey.position(PROFILE_STATUSES, profiles.status), kind: 'int' },
  risk_level: { expr: profileSortKey.position(RISK_LEVELS, profiles.riskLevel), kind: 'int' },
};

function orderingOf(ordering: string): KeysetOrdering {
  const descending = ordering.startsWith('-');
  const key = SORT_KEYS[descending ? ordering.slice(1) : ordering];
  return { name: ordering, ...(key ? { key } : {}), id: profiles.id, descending };
}

const isDateOnly = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

type ListValues = Record<string, string | number>;

/**
 * The list's conditions with placeholders, and their values. The conditions depend only on which
 * filters are set (the query's shape), so one prepared query serves every request of that shape.
 */
async function filtersOf(
  db: DbOrTx,
  companyId: number,
  query: ProfileListQuery,
  counts: CountCache | undefined,
): Promise<{ where: SQL | undefined; values: ListValues; many?: SQL; estimate?: SQL }> {
  const p = sql.placeholder;
  const filters: SQL[] = [eq(profiles.companyId, p('companyId'))];
  const values: ListValues = { companyId };
  if (query.status) {
    filters.push(eq(profiles.status, p('status')));
    values.status = query.status;
  }
  if (query.risk_level) {
    filters.push(eq(profiles.riskLevel, p('riskLevel')));
    values.riskLevel = query.risk_level;
  }
  if (query.source) {
    filters.push(eq(profiles.source, p('source')));
    values.source = query.source;
  }
  if (query.created_after) {
    filters.push(gte(profiles.createdAt, p('createdAfter')));
    values.createdAfter = new Date(query.created_after).toISOString();
  }
  if (query.created_before) {
    const end = new Date(query.created_before);
    // A plain date includes that whole day.
    if (isDateOnly(query.created_before)) end.setUTCDate(end.getUTCDate() + 1);
    filters.push(lt(profiles.createdAt, p('createdBefore')));
    values.createdBefore = end.toISOString();
  }
  if (!query.search) return { where: and(...filters), values };
  const search = await searchConditionOf(db, companyId, query.search, p, counts);
  Object.assign(values, search.values);
  return {
    where: and(...filters, search.condition),
    values,
    many: search.many && and(...filters, search.many),
    estimate: search.estimate && and(...filters, search.estimate),
  };
}

/** The filters that change the count (not paging or ordering), as a stable key. */
function filterKeyOf(query: ProfileListQuery): string {
  const { search, status, risk_level, source, created_after, created_before } = query;
  return JSON.stringify([search, status, risk_level, source, created_after, created_before]);
}

/**
 * Which filters are set, the ordering, the cursor's direction, whether the count comes along and whether
 * a substring search reads many matches.
 */
function shapeOf(query: ProfileListQuery, withCount: boolean, values: ListValues, many: boolean): string {
  return [query.ordering, withCount, ...Object.keys(values), ...(many ? ['many'] : [])].join(' ');
}

type PageRow = { summary: ProfileSummary; position: string | null };

/** The rows read (in the order read) and, when it rode along, the filters' capped count. */
type ListRead = { rows: PageRow[]; total?: number };

/**
 * What a list statement answers, in one row: its page's rows as `summaryTupleSql`'s JSON texts joined by commas
 * (empty for no row), and the count when it rode along and the page has a row.
 */
type ListResult = { rows: string; total: number | null };

type ListPrepared = { execute(values: ListValues): Promise<ListResult[]> };

/**
 * Prepared list queries per database handle, shape and written page size (`limitOf`; at most a few hundred
 * shapes exist). The name comes from that key, which fixes the SQL text: on PostgreSQL a name is one statement per
 * connection.
 */
const listQueries = perHandle(() => new Map<string, ListPrepared>());

/** The filters' rows, for counting. */
const matching = (db: DbOrTx, where: SQL | undefined) =>
  db.select({ one: sql`1` }).from(profiles).where(where);

function listQuery(
  db: DbOrTx,
  ordering: KeysetOrdering,
  cursor: Cursor | undefined,
  withCount: boolean,
  where: SQL | undefined,
  shape: string,
  window: { limit: number; offset: number },
  idsFirst: boolean,
): ListPrepared {
  const queries = listQueries(db);
  // The page size is part of the text when written (`limitOf`), and an OFFSET only when not 0.
  const key = `${shape} limit ${isWrittenLimit(window.limit) ? window.limit : '$'}${window.offset > 0 ? ' offset' : ''}`;
  let prepared = queries.get(key);
  if (!prepared) {
    const p = sql.placeholder;
    const back = cursor?.back ?? false;
    const seek = cursor ? seekOf(ordering, back, p('cursorKey'), p('cursorId')) : undefined;
    // Each row's JSON text, and what orders the rows, for the aggregate below.
    const columns: Record<string, SQL.Aliased> = {
      row: sql<string>`${summaryTupleSql(keyTextOf(ordering))}::text`.as('row'),
      i: sql`${ordering.id}`.as('i'),
    };
    if (ordering.key) columns.k = sql`${ordering.key.expr}`.as('k');
    // The count ignores the cursor: it is the filters' total.
    if (withCount) columns.total = cappedCount(matching(db, where).getSQL(), p('countCap')).as('total');
    const name = `profile_list_${createHash('sha1').update(key).digest('hex').slice(0, 16)}`;
    const limit = limitOf(window.limit, p('limit'));
    // drizzle leaves out an OFFSET of 0.
    const offset = window.offset > 0 ? p('offset') : 0;
    const conditions = seek ? and(where, seek) : where;
    const order = orderByOf(ordering, back);
    // With `idsFirst`, the page's ids first, then their rows (docs/decisions/0188-list-planned-once-ids-from-the-index.md,
    // docs/decisions/0193-list-ids-from-the-index-at-any-offset.md): the ids come from an index-only scan of the
    // ordering's index (migrations 0039 and 0040: each holds its column, the default's and the name's also
    // search_text), so the rows an offset skips are not read from the table, nor, along those two orderings,
    // the rows a search does not match.
    const rowsOfPageIds = () => {
      const page = db
        .select({ id: profiles.id })
        .from(profiles)
        .where(conditions)
        .orderBy(...order)
        .limit(limit)
        .offset(offset)
        .as('page');
      return db
        .select(columns)
        .from(page)
        .innerJoin(profiles, eq(profiles.id, page.id))
        .orderBy(...order)
        .as('rows');
    };
    const rows = idsFirst
      ? rowsOfPageIds()
      : db
          .select(columns)
          .from(profiles)
          .where(conditions)
          .orderBy(...order)
          .limit(limit)
          .offset(offset)
          .as('rows');
    // The page as one text: one field for PGlite to decode and one string to hand over, not one a row. The
    // aggregate orders its rows by the list's own ordering, not by the order the executor happens to keep; the
    // statement's page (with its written limit) is the subquery, so its plan is the one it had alone.
    const byRule = orderByOf(
      {
        ...ordering,
        key: ordering.key && { ...ordering.key, expr: sql`"rows"."k"` },
        id: sql`"rows"."i"` as unknown as AnyColumn,
      },
      back,
    );
    prepared = db
      .select({
        rows: sql<string>`coalesce(string_agg("rows"."row", ',' order by ${sql.join(byRule, sql`, `)}), '')`,
        total: withCount ? sql<number | null>`max("rows"."total")`.mapWith(Number) : sql<null>`null`,
      })
      .from(rows)
      .prepare(name) as unknown as ListPrepared;
    queries.set(key, prepared);
  }
  return prepared;
}

/** A list statement's answer as the page's rows, and the count that rode along with them. */
function readOf([result]: ListResult[]): ListRead {
  const tuples = JSON.parse(`[${result?.rows ?? ''}]`) as SummaryTuple[];
  const rows = tuples.map((tuple) => ({ summary: summaryOf(tuple), position: tuple[14] }));
  const total = result?.total;
  return total === null || total === undefined ? { rows } : { rows, total };
}

/** Counts being computed, per database handle, company and filters (see `listProfiles`). */
const countsInFlight = perHandle(() => new Map<string, Promise<number>>());

export interface ProfilePage extends ListCount {
  links: KeysetLinks;
  results: ProfileSummary[];
}

/**
 * A page of the company's profiles: by cursor (keyset, docs/decisions/0164-keyset-lists.md) or by offset, with the filters'
 * count, exact up to `countCap` and estimated above. A substring search counts first, up to
 * SEARCH_COUNT_CAP, and then reads its page the way that suits few or many matches (docs/decisions/0169-search-few-or-many.md).
 */
export async function listProfiles(
  db: DbOrTx,
  companyId: number,
  query: ProfileListQuery,
  counts?: CountCache,
  listCap = DEFAULT_COUNT_CAP,
): Promise<ProfilePage> {
  const ordering = orderingOf(query.ordering);
  const cursor = cursorOf(query, ordering);
  const { where, values, many, estimate } = await filtersOf(db, companyId, query, counts);
  const countCap = many ? Math.min(listCap, SEARCH_COUNT_CAP) : listCap;
  const window = readWindow(query, cursor);
  const paging: ListValues = { ...values, ...window, countCap: countCap + 1 };
  if (cursor) {
    if (cursor.key !== null) paging.cursorKey = cursor.key;
    paging.cursorId = cursor.id;
  }
  const direction = cursor ? (cursor.back ? 'back' : 'after') : 'offset';
  const toPage = ({ rows }: ListRead, total: number): ProfilePage => {
    const page = pageOf(ordering, query, cursor, rows, (row) => ({ key: row.position, id: row.summary.id }));
    return {
      count: total,
      estimated: total > countCap,
      links: page.links,
      results: page.rows.map((row) => row.summary),
    };
  };
  const read = (withCount: boolean, manyRows = false) =>
    listQuery(
      db,
      ordering,
      cursor,
      withCount,
      manyRows && many ? many : where,
      `${shapeOf(query, withCount, values, manyRows)} ${direction}`,
      window,
      (manyRows && many !== undefined) || window.offset > 0,
    )
      .execute(paging)
      .then(readOf);
  const filterKey = filterKeyOf(query);
  const known = counts?.get(companyId, filterKey);
  // When a count expires under load, every request in flight would count again (each about as costly
  // as a page): the first one counts, the others wait for its figure, which is just as fresh.
  const inFlight = counts ? countsInFlight(db) : undefined;
  const flightKey = `${companyId}|${filterKey}`;
  const pending = known === undefined ? inFlight?.get(flightKey) : undefined;
  /** Counts (from the page's rows when the count rode along), shares the figure while it runs, keeps it. */
  const counted = async (page?: Promise<ListRead>) => {
    const totalOf = async () => {
      const capped = (await page)?.total ?? (await countRows(db, matching(db, where), values, countCap + 1));
      const estimated = () => estimatedRows(db, matching(db, estimate ?? where), values);
      return (await listCount(capped, countCap, estimated)).count;
    };
    const counting = totalOf();
    inFlight?.set(flightKey, counting);
    try {
      const total = await counting;
      counts?.set(companyId, filterKey, total, { estimated: total > countCap });
      return total;
    } finally {
      inFlight?.delete(flightKey);
    }
  };

  if (many) {
    // The count decides how the page is read: few matches from the trigram index, many along the ordering.
    const total = known ?? (await (pending ?? counted()));
    return toPage(await read(false, total > (await manyFrom(db, query.limit, countCap))), total);
  }
  if (known !== undefined) return toPage(await read(false), known);
  if (pending) {
    const [rows, total] = await Promise.all([read(false), pending]);
    return toPage(rows, total);
  }
  // The capped count rides along with the page (one round trip); only an empty page counts on its own.
  const page = read(true);
  const [rows, total] = await Promise.all([page, counted(page)]);
  return toPage(rows, total);
}
