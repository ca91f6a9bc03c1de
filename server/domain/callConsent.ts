/**
 * The customer's consent to being recorded and photographed (the procedure's consent step): asked on
 * the join page before the camera starts, in the customer's language, and stored on the call with the time, the
 * address and the very text agreed to. Where the procedure has a consent step, the step is recorded as passed at
 * the start of the recording, so a guided decision sees it like any other step.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { CallConsent } from '#contract/videocalls';
import type { DbOrTx } from '../db/client';
import { videoCallSteps, videoCalls } from '../db/schema';
import { identProcedure } from './identProcedure';

/** What the join page asks: the company's consent text, and whether its procedure asks for consent. */
export async function callConsent(db: DbOrTx, companyId: number): Promise<CallConsent> {
  const procedure = await identProcedure(db, companyId);
  return {
    required: procedure.steps.some((step) => step.kind === 'consent'),
    text: procedure.consent_text,
  };
}

/** Stores the consent on the call, once (a second join of the same call keeps the first consent). */
export async function recordConsent(
  db: DbOrTx,
  companyId: number,
  callId: number,
  given: { language: 'en-US' | 'tr'; ip: string },
  now = new Date(),
): Promise<void> {
  const procedure = await identProcedure(db, companyId);
  const text = given.language === 'tr' ? procedure.consent_text.tr : procedure.consent_text.en;
  const stored = await db
    .update(videoCalls)
    .set({ consentAt: now, consentIp: given.ip, consentLanguage: given.language, consentText: text })
    .where(and(eq(videoCalls.id, callId), eq(videoCalls.companyId, companyId), isNull(videoCalls.consentAt)))
    .returning({ id: videoCalls.id });
  if (stored.length === 0 || !procedure.steps.some((step) => step.kind === 'consent')) return;
  await db.insert(videoCallSteps).values({
    callId,
    kind: 'consent',
    result: 'passed',
    details: { language: given.language, source: 'join_page' },
    offsetMs: 0,
    createdBy: null,
  });
}
