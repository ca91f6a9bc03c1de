import { eq } from 'drizzle-orm';
import { type AgentStatus, agentStatusSchema } from '#contract/common';
import type { DbOrTx } from '../db/client';
import { users } from '../db/schema';

export const companyRoom = (companyId: number) => `company:${companyId}`;
export const userRoom = (userId: number) => `user:${userId}`;
/**
 * The staff sockets of a company that may take calls (mayTakeCalls): only they hear of waiting calls
 * (`call.incoming`, `call.taken`, `call.cancelled`).
 */
export const agentsRoom = (companyId: number) => `agents:${companyId}`;
/**
 * The staff sockets of a company whose user reviews profiles (`review_profiles`, not an API user): only they hear
 * of review cases (`review.case_changed`).
 */
export const reviewersRoom = (companyId: number) => `reviewers:${companyId}`;
/** The sockets of one sign-in session: ending the session disconnects them. */
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;
/** The customer's socket of one call. */
export const customerRoom = (callId: number) => `customer:${callId}`;
/** The sockets of one supervisor watching one call: the agent's browser signals to them alone. */
export const watchRoom = (companyId: number, callId: number, watcherId: number) =>
  `watch:${companyId}:${callId}:${watcherId}`;
/** The sockets of everyone watching one call (who watches, whispers, the call's end); never the customer's. */
export const watchersRoom = (companyId: number, callId: number) => `watchers:${companyId}:${callId}`;
/** Call rooms are scoped by company, so a room name never reaches another company's sockets. */
export const callRoom = (companyId: number, room: string) => `call:${companyId}:${room}`;

/** Persists an agent's availability; returns when it took effect. Only the call desk calls it (one path). */
export async function setAgentStatus(db: DbOrTx, userId: number, status: AgentStatus): Promise<Date> {
  const since = new Date();
  await db.update(users).set({ agentStatus: status, agentStatusSince: since }).where(eq(users.id, userId));
  return since;
}

export async function agentStatusOf(db: DbOrTx, userId: number): Promise<AgentStatus> {
  const [row] = await db.select({ status: users.agentStatus }).from(users).where(eq(users.id, userId));
  return statusOf(row?.status);
}

/** A stored availability as the product knows it (anything else, or no user, is Offline). */
export function statusOf(stored: string | undefined): AgentStatus {
  const parsed = agentStatusSchema.safeParse(stored);
  return parsed.success ? parsed.data : 'Offline';
}
