import { type AnyColumn, and, asc, count, desc, eq, gte, ilike, lt, or, type SQL, sql } from 'drizzle-orm';
import { PROFILE_STATUSES, type ProfileStatus, RISK_LEVELS, type RiskLevel } from '../../src/contract/common';
import type { Profile, ProfileListQuery, ProfileSummary } from '../../src/contract/profiles';
import type { DbOrTx } from '../db/client';
import { profiles } from '../db/schema';
import { notFound } from '../errors';
import type { CountCache } from './countCache';
import { iso, likePattern } from './format';

type ProfileRow = typeof profiles.$inferSelect;

/** The company's profile or a 404 (another company's id is unknown to the caller). */
export async function requireProfile(db: DbOrTx, companyId: number, profileId: number): Promise<ProfileRow> {
  const [row] = await db
    .select()
    .from(profiles)
    .where(and(eq(profiles.id, profileId), eq(profiles.companyId, companyId)));
  if (!row) throw notFound();
  return row;
}

/** Same check without loading the row. */
export async function assertProfile(db: DbOrTx, companyId: number, profileId: number): Promise<void> {
  const [row] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.id, profileId), eq(profiles.companyId, companyId)));
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

function filtersOf(companyId: number, query: ProfileListQuery): SQL[] {
  const filters: SQL[] = [eq(profiles.companyId, companyId)];
  if (query.status) filters.push(eq(profiles.status, query.status));
  if (query.risk_level) filters.push(eq(profiles.riskLevel, query.risk_level));
  if (query.source) filters.push(eq(profiles.source, query.source));
  if (query.created_after) filters.push(gte(profiles.createdAt, new Date(query.created_after)));
  if (query.created_before) {
    const end = new Date(query.created_before);
    // A plain date includes that whole day.
    if (isDateOnly(query.created_before)) end.setUTCDate(end.getUTCDate() + 1);
    filters.push(lt(profiles.createdAt, end));
  }
  if (query.search) {
    const pattern = likePattern(query.search);
    const terms: SQL[] = [
      ilike(profiles.name, pattern),
      ilike(profiles.email, pattern),
      ilike(profiles.idCardNumber, pattern),
    ];
    if (/^\d{1,9}$/.test(query.search)) terms.push(eq(profiles.id, Number(query.search)));
    const match = or(...terms);
    if (match) filters.push(match);
  }
  return filters;
}

/** The filters that change the count (not paging or ordering), as a stable key. */
function filterKeyOf(query: ProfileListQuery): string {
  const { search, status, risk_level, source, created_after, created_before } = query;
  return JSON.stringify([search, status, risk_level, source, created_after, created_before]);
}

export async function listProfiles(
  db: DbOrTx,
  companyId: number,
  query: ProfileListQuery,
  counts?: CountCache,
): Promise<{ count: number; results: ProfileSummary[] }> {
  const where = and(...filtersOf(companyId, query));
  const page = () =>
    db
      .select(summaryColumns)
      .from(profiles)
      .where(where)
      .orderBy(...orderingOf(query.ordering))
      .limit(query.limit)
      .offset(query.offset);
  const filterKey = filterKeyOf(query);
  const known = counts?.get(companyId, filterKey);
  if (known !== undefined) return { count: known, results: (await page()).map(toProfileSummary) };

  // The count rides along with the page (one round trip); only an empty page needs its own count.
  const rows = await db
    .select({
      ...summaryColumns,
      total: sql<number>`(select count(*) from ${profiles} where ${where})`.mapWith(Number),
    })
    .from(profiles)
    .where(where)
    .orderBy(...orderingOf(query.ordering))
    .limit(query.limit)
    .offset(query.offset);
  const total =
    rows[0]?.total ?? (await db.select({ value: count() }).from(profiles).where(where))[0]?.value ?? 0;
  counts?.set(companyId, filterKey, total);
  return { count: total, results: rows.map(toProfileSummary) };
}
