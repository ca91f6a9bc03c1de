/**
 * A call as the holder of a join link may use it: the link's open call, the token's own calls, and whether the
 * link may start another one (docs/decisions/0197-links-bound-to-their-call.md).
 */
import { createHash } from 'node:crypto';
import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { JOIN_LINK_RETRIES } from '#contract/callRouting';
import { CALL_STATUSES } from '#contract/common';
import { CALL_STATUS_TALKING, CALL_STATUS_WAITING, JOIN_LINK_USED } from '#contract/constants';
import type { CreatedCall } from '#contract/videocalls';
import type { CustomerClaims } from '../../auth/tokens';
import type { DbOrTx } from '../../db/client';
import { companies, videoCalls } from '../../db/schema';
import { conflict, notFound } from '../../errors';
import { requireCall } from './calls';

/**
 * The call a join link holds now (a link holds one call at a time), waiting or talking, or null. Takes a lock on the
 * link for the rest of the transaction, so two creates on one link never both make a call.
 */
export async function openCallOfLink(db: DbOrTx, joinLink: string): Promise<CreatedCall | null> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`join-link:${joinLink}`}))`);
  const [open] = await db
    .select({ id: videoCalls.id, room_id: videoCalls.roomId, status: videoCalls.status })
    .from(videoCalls)
    .where(
      and(
        eq(videoCalls.joinLink, joinLink),
        or(
          eq(videoCalls.status, CALL_STATUS_WAITING),
          and(eq(videoCalls.status, CALL_STATUS_TALKING), isNull(videoCalls.callEndTime)),
        ),
      ),
    )
    .limit(1);
  return open ?? null;
}

/** What a call keeps of the join link that created it: the token's SHA-256 (the token itself is never stored). */
export const joinLinkOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * The call `callId` as the holder of a join-link token may use it: of the token's company and profile, and
 * created with that very link. Any other call (another link of the same profile, another profile or company)
 * is 404, so a token tells nothing of calls that are not its own. Every customer route and the customer's
 * socket check a call through this.
 */
export async function callOfLink(db: DbOrTx, customer: CustomerClaims, token: string, callId: number) {
  const call = await requireCall(db, customer.company_id, callId);
  if (call.profileId !== customer.profile_id || call.joinLink !== joinLinkOf(token)) throw notFound();
  return call;
}

/**
 * Endings nobody decided (docs/decisions/0197-links-bound-to-their-call.md): never answered, or cut by the
 * connection. After these alone the link may start another call, as many times as the company allows.
 */
const TECHNICAL_ABORTS: readonly number[] = (
  ['MISSED', 'BAD QUALITY', 'CONNECTION ERROR', 'DISCONNECTED'] as const
).map((name) => CALL_STATUSES.indexOf(name));

/**
 * Refuses (409) a new call of a join link that has started every call it may: its first, then one more per
 * retry the company allows (`join_link_retries`), and only while each earlier call ended by a technical abort.
 * A hung-up call still waiting for its agent's status counts as one, as the customer cannot know better. Call
 * it after openCallOfLink found no open call, in the same transaction: that lock makes concurrent starts of
 * one link count one after the other.
 */
export async function assertLinkMayStart(db: DbOrTx, companyId: number, joinLink: string): Promise<void> {
  const earlier = await db
    .select({ status: videoCalls.status })
    .from(videoCalls)
    .where(eq(videoCalls.joinLink, joinLink));
  if (earlier.length === 0) return;
  const [company] = await db
    .select({ retries: companies.joinLinkRetries })
    .from(companies)
    .where(eq(companies.id, companyId));
  const retries = company?.retries ?? JOIN_LINK_RETRIES.default;
  const aborted = earlier.every(
    ({ status }) => status === CALL_STATUS_TALKING || TECHNICAL_ABORTS.includes(status),
  );
  if (!aborted || earlier.length > retries) throw conflict(JOIN_LINK_USED);
}
