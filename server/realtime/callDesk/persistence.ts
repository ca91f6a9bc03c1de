/** The call desk's reads of calls and agents in the database (the writes are server/domain/videocalls/lifecycle.ts). */
import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
import { CALL_STATUS_TALKING, CALL_STATUS_WAITING } from '#contract/constants';
import type { DbOrTx } from '../../db/client';
import { companies, profiles, users, videoCalls } from '../../db/schema';
import { routingOf } from '../../domain/callRouting';
import type { CallRoute } from './routing';

export type CallRow = typeof videoCalls.$inferSelect;

/** The talking call an agent is in, as the database holds it. */
export async function talkingCallOf(db: DbOrTx, userId: number): Promise<number | undefined> {
  const [row] = await db
    .select({ id: videoCalls.id })
    .from(videoCalls)
    .where(
      and(
        eq(videoCalls.agentId, userId),
        eq(videoCalls.status, CALL_STATUS_TALKING),
        isNull(videoCalls.callEndTime),
      ),
    )
    .limit(1);
  return row?.id;
}

/** The agents of the company in a talking call. */
export async function talkingAgentsOf(db: DbOrTx, companyId: number): Promise<number[]> {
  const rows = await db
    .select({ agent: videoCalls.agentId })
    .from(videoCalls)
    .where(
      and(
        eq(videoCalls.companyId, companyId),
        eq(videoCalls.status, CALL_STATUS_TALKING),
        isNull(videoCalls.callEndTime),
      ),
    );
  return rows.flatMap((r) => (r.agent === null ? [] : [r.agent]));
}

/** The talking calls of an agent, hung up (without a status) or not. */
export function talkingCallsOfAgent(db: DbOrTx, userId: number): Promise<{ id: number; end: Date | null }[]> {
  return db
    .select({ id: videoCalls.id, end: videoCalls.callEndTime })
    .from(videoCalls)
    .where(and(eq(videoCalls.agentId, userId), eq(videoCalls.status, CALL_STATUS_TALKING)));
}

/** When the agent became free or busy last (their board "time in state"). */
export async function agentSince(db: DbOrTx, userId: number): Promise<string | null> {
  const [row] = await db.select({ since: users.agentStatusSince }).from(users).where(eq(users.id, userId));
  return row?.since?.toISOString() ?? null;
}

/** An agent's name, availability and its moment (what an answer tells the customer, the company and the stats). */
export async function agentCard(
  db: DbOrTx,
  userId: number,
): Promise<{ first: string; last: string; status: string; since: Date | null } | undefined> {
  const [agent] = await db
    .select({
      first: users.firstName,
      last: users.lastName,
      status: users.agentStatus,
      since: users.agentStatusSince,
    })
    .from(users)
    .where(eq(users.id, userId));
  return agent;
}

/** The company's staff users with their availability. */
export function agentsOf(db: DbOrTx, companyId: number): Promise<{ id: number; status: string }[]> {
  return db
    .select({ id: users.id, status: users.agentStatus })
    .from(users)
    .where(eq(users.companyId, companyId));
}

/** Every agent not Offline, of every company. */
export function availableAgents(db: DbOrTx): Promise<{ id: number; companyId: number }[]> {
  return db
    .select({ id: users.id, companyId: users.companyId })
    .from(users)
    .where(ne(users.agentStatus, 'Offline'));
}

export async function callById(db: DbOrTx, callId: number): Promise<CallRow | undefined> {
  const [call] = await db.select().from(videoCalls).where(eq(videoCalls.id, callId));
  return call;
}

/**
 * A call with its customer's name and how it is to be offered: the company's routing as it is now (a call keeps
 * the routing it joined with) and the customer's language. One statement: a join waits on the database once
 * before it rings.
 */
export async function callWithName(
  db: DbOrTx,
  callId: number,
): Promise<{ call: CallRow; name: string | null; route: CallRoute } | undefined> {
  const [row] = await db
    .select({
      call: videoCalls,
      name: profiles.name,
      routing: companies.callRouting,
      offerSeconds: companies.offerSeconds,
    })
    .from(videoCalls)
    .innerJoin(profiles, eq(profiles.id, videoCalls.profileId))
    .innerJoin(companies, eq(companies.id, videoCalls.companyId))
    .where(eq(videoCalls.id, callId));
  if (!row) return undefined;
  return {
    call: row.call,
    name: row.name,
    route: {
      routing: routingOf(row.routing),
      offerSeconds: row.offerSeconds,
      language: row.call.consentLanguage ?? null,
    },
  };
}

/** The waiting and talking calls of every company. */
export function openCalls(db: DbOrTx): Promise<{ id: number; companyId: number; agentId: number | null }[]> {
  return db
    .select({ id: videoCalls.id, companyId: videoCalls.companyId, agentId: videoCalls.agentId })
    .from(videoCalls)
    .where(inArray(videoCalls.status, [CALL_STATUS_WAITING, CALL_STATUS_TALKING]));
}

/** Whether the user is the agent of the call talking in the company's room `room`. */
export async function talksInRoom(
  db: DbOrTx,
  companyId: number,
  userId: number,
  room: string,
): Promise<boolean> {
  const [call] = await db
    .select({ id: videoCalls.id })
    .from(videoCalls)
    .where(
      and(
        eq(videoCalls.companyId, companyId),
        eq(videoCalls.roomId, room),
        eq(videoCalls.agentId, userId),
        eq(videoCalls.status, CALL_STATUS_TALKING),
        isNull(videoCalls.callEndTime),
      ),
    )
    .limit(1);
  return call !== undefined;
}

/** The room of an open (waiting or talking) call of the company; null once it is over. */
export async function openRoomOf(db: DbOrTx, companyId: number, callId: number): Promise<string | null> {
  const [call] = await db
    .select({ room: videoCalls.roomId })
    .from(videoCalls)
    .where(
      and(
        eq(videoCalls.id, callId),
        eq(videoCalls.companyId, companyId),
        inArray(videoCalls.status, [CALL_STATUS_WAITING, CALL_STATUS_TALKING]),
        isNull(videoCalls.callEndTime),
      ),
    );
  return call?.room ?? null;
}
