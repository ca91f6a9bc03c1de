/**
 * The quality of a call: samples of what each side received, sent by the agent's studio
 * (POST /videocall/{id}/quality) and the customer's page (…/quality/customer with the join token), kept per
 * call and side (at most MAX_QUALITY_SAMPLES each) and summarised with min / median / max and the issues.
 */
import { and, asc, count, eq, sql } from 'drizzle-orm';
import {
  type CallQuality,
  type LiveQuality,
  MAX_QUALITY_SAMPLES,
  type QualitySample,
  type QualitySide,
  summarizeQuality,
} from '#contract/callQuality';
import { CALL_STATUS_MISSED, CALL_STATUS_TALKING, CALL_STATUS_WAITING } from '#contract/constants';
import type { CustomerClaims } from '../auth/tokens';
import type { DbOrTx } from '../db/client';
import { videoCallQuality, type videoCalls } from '../db/schema';
import { conflict, forbidden } from '../errors';
import { iso } from './format';
import { requireCall } from './videocalls/calls';
import { callOfLink } from './videocalls/joinLinks';

/** How long after a call ended its last samples (still in flight at hang-up) are taken. */
export const QUALITY_GRACE_MS = 60 * 1000;

export const QUALITY_DETAILS = {
  notAgent: 'Only the agent of the call can send its quality',
  notAnswered: 'The call was not answered',
  ended: 'The call ended',
  full: `The call already has ${MAX_QUALITY_SAMPLES} quality samples of this side`,
} as const;

type CallRow = typeof videoCalls.$inferSelect;

async function addSamples(
  db: DbOrTx,
  call: CallRow,
  side: QualitySide,
  samples: readonly QualitySample[],
  now: Date,
): Promise<void> {
  if (call.status === CALL_STATUS_WAITING || call.status === CALL_STATUS_MISSED)
    throw conflict(QUALITY_DETAILS.notAnswered);
  if (
    call.status !== CALL_STATUS_TALKING &&
    (!call.callEndTime || now.getTime() - call.callEndTime.getTime() > QUALITY_GRACE_MS)
  )
    throw conflict(QUALITY_DETAILS.ended);
  await db.transaction(async (tx) => {
    // One writer per side of a call at a time, so the bound holds.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`call-quality:${call.id}:${side}`}))`);
    const [held] = await tx
      .select({ n: count() })
      .from(videoCallQuality)
      .where(and(eq(videoCallQuality.callId, call.id), eq(videoCallQuality.side, side)));
    if ((held?.n ?? 0) + samples.length > MAX_QUALITY_SAMPLES) throw conflict(QUALITY_DETAILS.full);
    await tx.insert(videoCallQuality).values(
      samples.map((s) => ({
        callId: call.id,
        side,
        width: s.width,
        height: s.height,
        fps: s.fps,
        lossPct: s.loss_pct,
        kbps: s.kbps,
        audioLevel: s.audio_level,
      })),
    );
  });
}

/** The call's agent sends what it received. Another company's call is 404, another agent's 403. */
export async function addAgentQuality(
  db: DbOrTx,
  companyId: number,
  callId: number,
  actorId: number,
  samples: readonly QualitySample[],
  now = new Date(),
): Promise<void> {
  const call = await requireCall(db, companyId, callId);
  if (call.agentId !== actorId) throw forbidden(QUALITY_DETAILS.notAgent);
  await addSamples(db, call, 'agent', samples, now);
}

/**
 * The customer sends what they received, with the join-link token the call was created with: any other call
 * (another link, profile or company) is 404, so a token tells nothing of calls that are not its own.
 * Answers what the call's agent is told live (`call.customer_quality`): the batch's last sample and the summary
 * of every customer sample of the call so far.
 */
export async function addCustomerQuality(
  db: DbOrTx,
  customer: CustomerClaims,
  token: string,
  callId: number,
  samples: readonly QualitySample[],
  now = new Date(),
): Promise<{ agentId: number | null; live: LiveQuality | null }> {
  const call = await callOfLink(db, customer, token, callId);
  await addSamples(db, call, 'customer', samples, now);
  const held = await db
    .select({
      width: videoCallQuality.width,
      height: videoCallQuality.height,
      fps: videoCallQuality.fps,
      loss_pct: videoCallQuality.lossPct,
      kbps: videoCallQuality.kbps,
      audio_level: videoCallQuality.audioLevel,
    })
    .from(videoCallQuality)
    .where(and(eq(videoCallQuality.callId, call.id), eq(videoCallQuality.side, 'customer')));
  const sample = samples.at(-1);
  const summary = summarizeQuality(held);
  return { agentId: call.agentId, live: sample && summary ? { sample, summary } : null };
}

/**
 * A call's quality: each side's summary and its samples, oldest first. No company check: the caller has one
 * (the route through requireCall; the evidence package builds only for its own company's call).
 */
export async function callQualityOf(db: DbOrTx, callId: number): Promise<CallQuality> {
  const rows = await db
    .select()
    .from(videoCallQuality)
    .where(eq(videoCallQuality.callId, callId))
    .orderBy(asc(videoCallQuality.id));
  const samples = rows.map((r) => ({
    side: r.side as QualitySide,
    at: iso(r.createdAt),
    width: r.width,
    height: r.height,
    fps: r.fps,
    loss_pct: r.lossPct,
    kbps: r.kbps,
    audio_level: r.audioLevel,
  }));
  const of = (side: QualitySide) => summarizeQuality(samples.filter((s) => s.side === side));
  return { agent: of('agent'), customer: of('customer'), samples };
}

/** GET /videocall/{id}/quality: the call of the company (404 otherwise). */
export async function companyCallQuality(
  db: DbOrTx,
  companyId: number,
  callId: number,
): Promise<CallQuality> {
  await requireCall(db, companyId, callId);
  return callQualityOf(db, callId);
}
