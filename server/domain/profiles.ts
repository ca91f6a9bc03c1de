import { createHash } from 'node:crypto';
import { type AnyColumn, and, asc, count, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import { PROFILE_STATUSES, type ProfileStatus, RISK_LEVELS, type RiskLevel } from '#contract/common';
import type { Profile, ProfileListQuery, ProfileSummary } from '#contract/profiles';
import { type DbOrTx, perHandle } from '../db/client';
import { profiles } from '../db/schema';
import { notFound } from '../errors';
import type { CountCache } from './countCache';
import { iso } from './format';
import { searchConditionOf } from './profileSearch';

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

/** A timestamp column as `iso` writes it (`2026-11-21T09:24:06.738Z`; both truncate to milliseconds). */
const isoSql = (column: AnyColumn) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A list row as one JSON value in the shape of `ProfileSummary`. PGlite decodes every field of a
 * result separately and copies each into a buffer of its own: 14 fields × 20 rows cost more than the
 * query itself, one JSON field a row is one decode.
 */
const summaryJson = sql<ProfileSummary>`json_build_object('id', ${profiles.id},
  'id_card_number', ${profiles.idCardNumber}, 'name', ${profiles.name}, 'gender', ${profiles.gender},
  'email', ${profiles.email}, 'phone', ${profiles.phone}, 'nationality', ${profiles.nationality},
  'status', ${profiles.status}, 'risk_level', ${profiles.riskLevel}, 'source', ${profiles.source},
  'company', ${profiles.companyId}, 'created_at', ${isoSql(profiles.createdAt)},
  'updated_at', ${isoSql(profiles.updatedAt)}, 'last_status_date', ${isoSql(profiles.lastStatusDate)})`;

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

/** Position in a list of §4 values, so statuses and risk levels sort in the spec's order. */
function positionIn(values: readonly string[], column: AnyColumn) {
  const list = values.map((v) => `'${v.replace(/'/g, "''")}'`).join(',');
  return sql`array_position(ARRAY[${sql.raw(list)}]::text[], ${column})`;
}

function orderingOf(ordering: string): SQL[] {
  const descending = ordering.startsWith('-');
  const field = descending ? ordering.slice(1) : ordering;
  const dir = descending ? desc : asc;
  const column = {
    created_at: profiles.createdAt,
    updated_at: profiles.updatedAt,
    last_status_date: profiles.lastStatusDate,
    name: profiles.name,
    id: profiles.id,
    status: positionIn(PROFILE_STATUSES, profiles.status),
    risk_level: positionIn(RISK_LEVELS, profiles.riskLevel),
  }[field];
  if (!column || field === 'id') return [dir(profiles.id)];
  return [dir(column), dir(profiles.id)];
}

const isDateOnly = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

type ListValues = Record<string, string | number>;

/**
 * The list's conditions with placeholders, and their values. The conditions depend only on which
 * filters are set (the query's shape), so one prepared query serves every request of that shape.
 */
function filtersOf(companyId: number, query: ProfileListQuery): { filters: SQL[]; values: ListValues } {
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
  if (query.search) {
    const search = searchConditionOf(query.search, p);
    filters.push(search.condition);
    Object.assign(values, search.values);
  }
  return { filters, values };
}

/** The filters that change the count (not paging or ordering), as a stable key. */
function filterKeyOf(query: ProfileListQuery): string {
  const { search, status, risk_level, source, created_after, created_before } = query;
  return JSON.stringify([search, status, risk_level, source, created_after, created_before]);
}

/** Which filters are set, the ordering and whether the count comes along: what the SQL depends on. */
function shapeOf(query: ProfileListQuery, withCount: boolean, values: ListValues): string {
  return [query.ordering, withCount, ...Object.keys(values)].join(' ');
}

type PageRow = { summary: ProfileSummary; total?: number };

type ListPrepared = { execute(values: ListValues): Promise<PageRow[]> };

/**
 * Prepared list queries per database handle and shape (at most a few hundred shapes exist). The name
 * comes from the shape, which fixes the SQL text: on PostgreSQL a name is one statement per connection.
 */
const listQueries = perHandle(() => new Map<string, ListPrepared>());

function listQuery(
  db: DbOrTx,
  query: ProfileListQuery,
  withCount: boolean,
  where: SQL | undefined,
  shape: string,
): ListPrepared {
  const queries = listQueries(db);
  let prepared = queries.get(shape);
  if (!prepared) {
    const total = sql<number>`(select count(*) from ${profiles} where ${where})`.mapWith(Number);
    const columns: Record<string, SQL> = withCount
      ? { summary: summaryJson, total }
      : { summary: summaryJson };
    prepared = db
      .select(columns)
      .from(profiles)
      .where(where)
      .orderBy(...orderingOf(query.ordering))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(
        `profile_list_${createHash('sha1').update(shape).digest('hex').slice(0, 16)}`,
      ) as unknown as ListPrepared;
    queries.set(shape, prepared);
  }
  return prepared;
}

/** Counts being computed, per database handle, company and filters (see `listProfiles`). */
const countsInFlight = perHandle(() => new Map<string, Promise<number>>());

export async function listProfiles(
  db: DbOrTx,
  companyId: number,
  query: ProfileListQuery,
  counts?: CountCache,
): Promise<{ count: number; results: ProfileSummary[] }> {
  const { filters, values } = filtersOf(companyId, query);
  const where = and(...filters);
  const paging = { ...values, limit: query.limit, offset: query.offset };
  const pageOnly = () => listQuery(db, query, false, where, shapeOf(query, false, values)).execute(paging);
  const filterKey = filterKeyOf(query);
  const known = counts?.get(companyId, filterKey);
  if (known !== undefined) {
    return { count: known, results: (await pageOnly()).map((row) => row.summary) };
  }
  // When a count expires under load, every request in flight would count again (each about as costly
  // as a page): the first one counts, the others wait for its figure, which is just as fresh.
  const inFlight = counts ? countsInFlight(db) : undefined;
  const flightKey = `${companyId}|${filterKey}`;
  const pending = inFlight?.get(flightKey);
  if (pending) {
    const [rows, total] = await Promise.all([pageOnly(), pending]);
    return { count: total, results: rows.map((row) => row.summary) };
  }

  // The count rides along with the page (one round trip); only an empty page needs its own count.
  const page = listQuery(db, query, true, where, shapeOf(query, true, values)).execute(paging);
  const totalOf = async () => {
    const rows = await page;
    return (
      rows[0]?.total ??
      (await db.select({ value: count() }).from(profiles).where(where).execute(values))[0]?.value ??
      0
    );
  };
  const counting = totalOf();
  inFlight?.set(flightKey, counting);
  try {
    const [rows, total] = await Promise.all([page, counting]);
    counts?.set(companyId, filterKey, total);
    return { count: total, results: rows.map((row) => row.summary) };
  } finally {
    inFlight?.delete(flightKey);
  }
}
