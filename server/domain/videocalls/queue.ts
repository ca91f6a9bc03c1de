/** What the call desk's queue shows: the calls waiting now, and the handling time its wait estimate uses. */
import { and, asc, desc, eq, isNotNull } from 'drizzle-orm';
import { CALL_STATUS_WAITING } from '#contract/constants';
import type { QueuedCall } from '#contract/socket';
import type { DbOrTx } from '../../db/client';
import { profiles, videoCalls } from '../../db/schema';
import { iso } from '../format';

/** The calls waiting now in a company, oldest first, with the customer's name. */
export async function waitingCalls(db: DbOrTx, companyId: number): Promise<QueuedCall[]> {
  const rows = await db
    .select({ call: videoCalls, name: profiles.name })
    .from(videoCalls)
    .innerJoin(profiles, eq(profiles.id, videoCalls.profileId))
    .where(and(eq(videoCalls.companyId, companyId), eq(videoCalls.status, CALL_STATUS_WAITING)))
    .orderBy(asc(videoCalls.createdAt), asc(videoCalls.id));
  return rows.map(({ call, name }) => toQueuedCall(call, name));
}

/**
 * The ids of the calls waiting now in a company, oldest first: the order of the queue without its rows. Read from
 * the company's index by status and age alone, so telling thousands of waiting customers their place does not
 * fetch (nor join) thousands of calls.
 */
export async function waitingOrder(db: DbOrTx, companyId: number): Promise<number[]> {
  const rows = await db
    .select({ id: videoCalls.id })
    .from(videoCalls)
    .where(and(eq(videoCalls.companyId, companyId), eq(videoCalls.status, CALL_STATUS_WAITING)))
    .orderBy(asc(videoCalls.createdAt), asc(videoCalls.id));
  return rows.map((row) => row.id);
}

export function toQueuedCall(call: typeof videoCalls.$inferSelect, profileName: string | null): QueuedCall {
  return {
    call_id: call.id,
    profile: call.profileId,
    profile_name: profileName,
    status: call.status,
    created_at: iso(call.createdAt),
  };
}

/** Average handling time of the company's last 50 answered calls, in seconds (120 with no history). */
export async function averageHandlingSeconds(db: DbOrTx, companyId: number): Promise<number> {
  const rows = await db
    .select({ start: videoCalls.callStartTime, end: videoCalls.callEndTime })
    .from(videoCalls)
    .where(
      and(
        eq(videoCalls.companyId, companyId),
        isNotNull(videoCalls.callStartTime),
        isNotNull(videoCalls.callEndTime),
      ),
    )
    .orderBy(desc(videoCalls.id))
    .limit(50);
  const seconds = rows.map(({ start, end }) => ((end?.getTime() ?? 0) - (start?.getTime() ?? 0)) / 1000);
  const valid = seconds.filter((s) => s > 0);
  if (valid.length === 0) return 120;
  return Math.round(valid.reduce((a, b) => a + b, 0) / valid.length);
}
