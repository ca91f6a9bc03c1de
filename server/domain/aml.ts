import { and, desc, eq } from 'drizzle-orm';
import type { AmlHistoryEntry, AmlResult, amlHistoryDetailSchema } from '#contract/aml';
import type { DbOrTx } from '../db/client';
import { amlHistory, amlResults, users } from '../db/schema';
import { forbidden, notFound } from '../errors';
import { requireCompany } from './companies';
import { fullName, iso } from './format';

type HistoryRow = typeof amlHistory.$inferSelect;
type AmlHistoryDetail = import('zod').infer<typeof amlHistoryDetailSchema>;

export const AML_DISABLED = 'AML is not enabled for this company';

/** AML is on only when the company config names a provider (docs/product/roles.md); returns that provider. */
export async function requireAmlProvider(db: DbOrTx, companyId: number): Promise<string> {
  const company = await requireCompany(db, companyId);
  if (!company.amlProvider) throw forbidden(AML_DISABLED);
  return company.amlProvider;
}

function toHistoryEntry(row: HistoryRow): AmlHistoryEntry {
  return {
    id: row.id,
    provider: row.provider,
    status: row.status as AmlHistoryEntry['status'],
    scanned_database: row.scannedDatabase,
    matches: row.matches,
    date: iso(row.createdAt),
  };
}

async function historyOf(db: DbOrTx, profileId: number) {
  return db
    .select()
    .from(amlHistory)
    .where(eq(amlHistory.profileId, profileId))
    .orderBy(desc(amlHistory.createdAt), desc(amlHistory.id));
}

/** The profile's AML result and its history, newest first. A profile never screened has an empty result. */
export async function getAmlResult(db: DbOrTx, provider: string, profileId: number): Promise<AmlResult> {
  const [row] = await db
    .select({ result: amlResults, approverFirst: users.firstName, approverLast: users.lastName })
    .from(amlResults)
    .leftJoin(users, eq(users.id, amlResults.approvedBy))
    .where(eq(amlResults.profileId, profileId));
  const history = (await historyOf(db, profileId)).map(toHistoryEntry);
  const result = row?.result;
  return {
    profile: profileId,
    provider,
    list: result?.lists ?? [],
    score: result?.score ?? 0,
    records: result?.records ?? [],
    approved: result?.approved ?? null,
    approved_by:
      result?.approvedBy != null
        ? { id: result.approvedBy, name: fullName(row?.approverFirst ?? '', row?.approverLast ?? '') }
        : null,
    approved_date: iso(result?.approvedAt ?? null),
    updated_at: iso(result?.updatedAt ?? null),
    history,
  };
}

export async function getAmlHistoryEntry(
  db: DbOrTx,
  profileId: number,
  checkId: number,
): Promise<AmlHistoryDetail> {
  const [row] = await db
    .select()
    .from(amlHistory)
    .where(and(eq(amlHistory.id, checkId), eq(amlHistory.profileId, profileId)));
  if (!row) throw notFound();
  return { ...toHistoryEntry(row), records: row.records };
}
