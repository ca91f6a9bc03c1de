import { desc, eq } from 'drizzle-orm';
import type { Transaction } from '#contract/transactions';
import type { DbOrTx } from '../db/client';
import { transactions } from '../db/schema';
import { forbidden } from '../errors';
import { requireCompany } from './companies';

export const TRANSACTIONS_DISABLED = 'Transactions are not enabled for this company';

/** The profile's transactions, newest first; only for a company with the `transactions` service. */
export async function listTransactions(
  db: DbOrTx,
  companyId: number,
  profileId: number,
): Promise<Transaction[]> {
  const company = await requireCompany(db, companyId);
  if (!company.activeServices.includes('transactions')) throw forbidden(TRANSACTIONS_DISABLED);
  const rows = await db
    .select()
    .from(transactions)
    .where(eq(transactions.profileId, profileId))
    .orderBy(desc(transactions.occurredAt))
    .limit(200);
  return rows.map((row) => ({
    id: row.id,
    occurred_at: row.occurredAt.toISOString(),
    kind: row.kind as Transaction['kind'],
    amount_minor: row.amountMinor,
    currency: row.currency,
    counterparty: row.counterparty,
    status: row.status as Transaction['status'],
    flag_reason: row.flagReason,
  }));
}
