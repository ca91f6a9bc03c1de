/**
 * One call of a company, read or locked: what every other part of the call domain (and the call's guide,
 * screenshots, quality, entries and evidence) starts from.
 */
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { videoCalls } from '../../db/schema';
import { notFound } from '../../errors';

/** One call of the company, or 404. */
export async function requireCall(db: DbOrTx, companyId: number, callId: number) {
  const [row] = await db
    .select()
    .from(videoCalls)
    .where(and(eq(videoCalls.id, callId), eq(videoCalls.companyId, companyId)));
  if (!row) throw notFound();
  return row;
}

/**
 * Locks the call's row until the transaction ends, so that counting what the call has used (codes sent, serial
 * numbers typed, screenshots taken) and adding one cannot interleave with another request doing the same. `no key update`: rows
 * that only reference the call (steps, screenshots) are still written meanwhile
 * (docs/decisions/0196-tries-claimed-atomically.md).
 */
export async function lockCall(tx: DbOrTx, callId: number): Promise<void> {
  await tx
    .select({ id: videoCalls.id })
    .from(videoCalls)
    .where(eq(videoCalls.id, callId))
    .for('no key update');
}
