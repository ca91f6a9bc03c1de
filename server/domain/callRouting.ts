/**
 * A company's call routing: ring every free agent, or offer each waiting call to one agent
 * at a time for `offer_seconds`. The desk's reads for choosing the agent are here too.
 */
import { and, eq, gte, inArray } from 'drizzle-orm';
import {
  CALL_ROUTINGS,
  type CallRouting,
  type CallRoutingBody,
  type CallRoutingSettings,
} from '#contract/callRouting';
import type { DbOrTx } from '../db/client';
import { callOffers, companies, users, videoCalls } from '../db/schema';
import { badRequest, notFound } from '../errors';
import { recordAudit } from './audit';

/** Distributed mode cannot keep one offer per call across processes yet: the server refuses to switch to it. */
export const ONE_AT_A_TIME_NEEDS_ONE_PROCESS =
  'One-at-a-time routing needs a single server process; this server runs distributed (REDIS_URL)';

/** A stored routing as the product knows it (an unknown value rings every free agent). */
export const routingOf = (value: string): CallRouting =>
  (CALL_ROUTINGS as readonly string[]).includes(value) ? (value as CallRouting) : 'ring_all';

export async function getCallRouting(db: DbOrTx, companyId: number): Promise<CallRoutingSettings> {
  const [row] = await db
    .select({
      routing: companies.callRouting,
      seconds: companies.offerSeconds,
      retries: companies.joinLinkRetries,
    })
    .from(companies)
    .where(eq(companies.id, companyId));
  if (!row) throw notFound();
  return { call_routing: routingOf(row.routing), offer_seconds: row.seconds, join_link_retries: row.retries };
}

/**
 * Sets the company's routing and how often a join link may retry (bounds checked by the contract; without
 * `join_link_retries` it stays), audited with before and after.
 */
export async function setCallRouting(
  db: DbOrTx,
  companyId: number,
  actorId: number,
  body: CallRoutingBody,
  distributed: boolean,
): Promise<CallRoutingSettings> {
  if (distributed && body.call_routing === 'one_at_a_time') throw badRequest(ONE_AT_A_TIME_NEEDS_ONE_PROCESS);
  return db.transaction(async (tx) => {
    const before = await getCallRouting(tx, companyId);
    const after = {
      call_routing: body.call_routing,
      offer_seconds: body.offer_seconds,
      join_link_retries: body.join_link_retries ?? before.join_link_retries,
    };
    if (
      before.call_routing === after.call_routing &&
      before.offer_seconds === after.offer_seconds &&
      before.join_link_retries === after.join_link_retries
    )
      return before;
    await tx
      .update(companies)
      .set({
        callRouting: after.call_routing,
        offerSeconds: after.offer_seconds,
        joinLinkRetries: after.join_link_retries,
      })
      .where(eq(companies.id, companyId));
    await recordAudit(tx, {
      companyId,
      actorId,
      object: 'company',
      objectId: companyId,
      action: 'call_routing_changed',
      before,
      after,
    });
    return after;
  });
}

/** The company's Online agents among `ids`, with the languages they speak and their names (shown with an offer). */
export function onlineAgents(
  db: DbOrTx,
  companyId: number,
  ids: number[],
): Promise<{ id: number; languages: string[]; first: string; last: string }[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select({ id: users.id, languages: users.languages, first: users.firstName, last: users.lastName })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.agentStatus, 'Online'), inArray(users.id, ids)));
}

/**
 * The calls the company's agents among `agentIds` answered since `since` (id, agent, when it started): what
 * "calls in the last hour" counts, read through the company's calls by start time (an index range).
 */
export async function answeredSince(
  db: DbOrTx,
  companyId: number,
  agentIds: number[],
  since: Date,
): Promise<{ callId: number; agentId: number; startedAt: number }[]> {
  if (agentIds.length === 0) return [];
  const rows = await db
    .select({ callId: videoCalls.id, agentId: videoCalls.agentId, start: videoCalls.callStartTime })
    .from(videoCalls)
    .where(
      and(
        eq(videoCalls.companyId, companyId),
        gte(videoCalls.callStartTime, since),
        inArray(videoCalls.agentId, agentIds),
      ),
    );
  return rows.flatMap((r) =>
    r.agentId === null || r.start === null
      ? []
      : [{ callId: r.callId, agentId: r.agentId, startedAt: r.start.getTime() }],
  );
}

/** Records offers and why those agents (the choices are kept): one statement for a pass's offers. */
export async function recordOffers(db: DbOrTx, offers: (typeof callOffers.$inferInsert)[]): Promise<void> {
  if (offers.length > 0) await db.insert(callOffers).values(offers);
}
