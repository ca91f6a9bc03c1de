/**
 * The customer's side of a guided call: the step the agent shows them, the serial
 * number they type, and the second-channel code the agent sends them and they type back. What the customer
 * types becomes a step result recorded by the server (`created_by` null) at its offset in the recording; the
 * agent still decides, and may record a later result of the same step.
 */
import { and, eq, isNull } from 'drizzle-orm';
import { CALL_STATUS_TALKING } from '#contract/constants';
import {
  CALL_GUIDE_LIMITS,
  type CallStep,
  type CodeSent,
  type CustomerGuide,
  type EntryReply,
  MAX_STEP_OFFSET_MS,
  type ProcedureStep,
  type StepKind,
} from '#contract/identProcedure';
import type { DbOrTx } from '../db/client';
import { documents, profiles, videoCallSteps, videoCalls } from '../db/schema';
import { badRequest, conflict, forbidden, notFound } from '../errors';
import type { MailOutbox } from '../integrations/mail';
import { sendTemplated } from '../integrations/mailTemplates/send';
import type { SmsSender } from '../integrations/sms';
import { iso } from './format';
import { identProcedure, STEP_DETAILS, toCallStep } from './identProcedure';
import { type CodeRules, codeState, issueCode, tryCode } from './oneTimeCodes';
import { lockCall, requireCall } from './videocalls/calls';

/** How long a second-channel code can be typed. */
export const CALL_CODE_TTL_MS = 10 * 60 * 1000;

export const GUIDE_DETAILS = {
  notTalking: 'The call is not in progress',
  noCode: 'No code was sent for this call, or it has expired: ask the agent for a new one',
  noTriesLeft: 'No tries left',
  sendsUsed: `The code was sent ${CALL_GUIDE_LIMITS.codeSends} times already`,
  noAddress: { email: 'The profile has no e-mail address', sms: 'The profile has no phone number' },
} as const;

/** What sending a code needs: the server secret its hash is bound to, and the two channels. */
export interface CodeChannels {
  secret: string;
  mail: MailOutbox;
  sms: SmsSender;
}

type CallRow = Awaited<ReturnType<typeof requireCall>>;
type CodeStep = Extract<ProcedureStep, { kind: 'second_channel_code' }>;

const codeKey = (callId: number) => `call:${callId}`;
const codeRules = (step: CodeStep): CodeRules => ({ ttlMs: CALL_CODE_TTL_MS, maxAttempts: step.max_tries });

/** The address or number, partly hidden: the customer recognises it, a bystander learns little. */
export function hideContact(value: string): string {
  const at = value.indexOf('@');
  if (at > 0) return `${value[0]}•••${value.slice(at)}`;
  const digits = value.replace(/\D/g, '');
  return `•••${digits.slice(-2)}`;
}

/** A document number as compared: letters upper-case, without spaces, dashes, dots or slashes. */
export const normalSerial = (value: string) => value.toUpperCase().replace(/[\s\-./]/g, '');

async function stepOf<K extends StepKind>(db: DbOrTx, companyId: number, kind: K) {
  const { steps } = await identProcedure(db, companyId);
  const step = steps.find((s) => s.kind === kind);
  if (!step) throw badRequest(STEP_DETAILS.notInProcedure(kind));
  return step as Extract<ProcedureStep, { kind: K }>;
}

/** The agent's own call, talking. */
async function agentsTalkingCall(db: DbOrTx, companyId: number, callId: number, agentId: number) {
  const call = await requireCall(db, companyId, callId);
  if (call.agentId !== agentId) throw forbidden(STEP_DETAILS.notAgent);
  if (call.status !== CALL_STATUS_TALKING) throw conflict(GUIDE_DETAILS.notTalking);
  return call;
}

/** The customer's own call (another profile's is 404, as another company's). */
async function customersCall(db: DbOrTx, who: { companyId: number; profileId: number }, callId: number) {
  const call = await requireCall(db, who.companyId, callId);
  if (call.profileId !== who.profileId) throw notFound();
  return call;
}

const offsetOf = (call: CallRow, now: Date) =>
  Math.min(MAX_STEP_OFFSET_MS, Math.max(0, now.getTime() - (call.callStartTime ?? now).getTime()));

async function recordByServer(
  db: DbOrTx,
  call: CallRow,
  step: { kind: StepKind; result: 'passed' | 'failed'; details: Record<string, unknown> },
  now: Date,
): Promise<CallStep> {
  const [row] = await db
    .insert(videoCallSteps)
    .values({ callId: call.id, ...step, offsetMs: offsetOf(call, now), createdBy: null, createdAt: now })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return toCallStep(row);
}

/** The agent shows the customer another step (their page shows its instruction). */
export async function setCurrentStep(
  db: DbOrTx,
  companyId: number,
  callId: number,
  agentId: number,
  kind: StepKind,
): Promise<void> {
  await agentsTalkingCall(db, companyId, callId, agentId);
  await stepOf(db, companyId, kind);
  await db.update(videoCalls).set({ currentStep: kind }).where(eq(videoCalls.id, callId));
}

async function contactOf(db: DbOrTx, call: CallRow, channel: CodeStep['channel']): Promise<string | null> {
  const [profile] = await db
    .select({ email: profiles.email, phone: profiles.phone })
    .from(profiles)
    .where(eq(profiles.id, call.profileId));
  const value = channel === 'email' ? profile?.email : profile?.phone;
  return value?.trim() ? value.trim() : null;
}

function codeMessage(code: string, turkish: boolean) {
  return turkish
    ? {
        subject: 'Kimlik doğrulama kodunuz',
        body: `Görüntülü kimlik doğrulama kodunuz: ${code}. Görüşme sayfasına yazın. Kod 10 dakika geçerlidir.`,
      }
    : {
        subject: 'Your identification code',
        body: `Your video identification code is ${code}. Type it on the call page. It is valid for 10 minutes.`,
      };
}

/**
 * The agent sends the second-channel code to the profile's e-mail address or phone (the procedure's channel),
 * in the language the customer agreed in. A new code replaces the previous one; a call sends at most
 * CALL_GUIDE_LIMITS.codeSends.
 */
export async function sendCallCode(
  db: DbOrTx,
  channels: CodeChannels,
  companyId: number,
  callId: number,
  agentId: number,
  now = new Date(),
): Promise<CodeSent> {
  const { call, step, to, code } = await db.transaction(async (tx) => {
    await lockCall(tx, callId);
    const call = await agentsTalkingCall(tx, companyId, callId, agentId);
    const step = await stepOf(tx, companyId, 'second_channel_code');
    const to = await contactOf(tx, call, step.channel);
    if (!to) throw conflict(GUIDE_DETAILS.noAddress[step.channel]);
    const { issued } = await codeState(tx, codeRules(step), codeKey(callId), 'call_code', now);
    if (issued >= CALL_GUIDE_LIMITS.codeSends) throw conflict(GUIDE_DETAILS.sendsUsed);
    const code = await issueCode(tx, channels.secret, codeRules(step), codeKey(callId), 'call_code', now);
    return { call, step, to, code };
  });
  const turkish = call.consentLanguage === 'tr';
  if (step.channel === 'email')
    await sendTemplated(
      { mail: channels.mail, db },
      'call_code',
      { email: to, companyId },
      { code, minutes: CALL_CODE_TTL_MS / 60_000 },
      { codeValidMs: CALL_CODE_TTL_MS, language: turkish ? 'tr' : 'en' },
    );
  else await channels.sms.send({ to, body: codeMessage(code, turkish).body, code });
  return {
    channel: step.channel,
    to: hideContact(to),
    tries_left: step.max_tries,
    sent_at: now.toISOString(),
  };
}

/**
 * The customer types the code: right, it passes the step; the last wrong try fails it. Each try is claimed by
 * the statement that checks it (tryCode), so a burst of tries checks at most `max_tries` wrong ones and records
 * one result: passed or failed, never both.
 */
export async function enterCallCode(
  db: DbOrTx,
  secret: string,
  who: { companyId: number; profileId: number },
  callId: number,
  code: string,
  now = new Date(),
): Promise<{ reply: EntryReply; step: CallStep | null }> {
  const call = await customersCall(db, who, callId);
  if (call.status !== CALL_STATUS_TALKING) throw conflict(GUIDE_DETAILS.notTalking);
  const step = await stepOf(db, who.companyId, 'second_channel_code');
  const details = { channel: step.channel, source: 'join_page' };
  // The try and the result it records commit together: a spent try always has its result.
  return db.transaction(async (tx) => {
    const tried = await tryCode(tx, secret, codeRules(step), codeKey(callId), 'call_code', code, now);
    if (!tried) throw conflict(GUIDE_DETAILS.noCode);
    const reply = { accepted: tried.accepted, tries_left: tried.triesLeft };
    if (tried.accepted)
      return {
        reply,
        step: await recordByServer(tx, call, { kind: step.kind, result: 'passed', details }, now),
      };
    // Only the try that spent the last one gets here with none left: the step fails once.
    const failed =
      tried.triesLeft === 0
        ? await recordByServer(
            tx,
            call,
            { kind: step.kind, result: 'failed', details: { ...details, tries: step.max_tries } },
            now,
          )
        : null;
    return { reply, step: failed };
  });
}

async function serialEntries(db: DbOrTx, callId: number): Promise<number> {
  const rows = await db
    .select({ id: videoCallSteps.id })
    .from(videoCallSteps)
    .where(
      and(
        eq(videoCallSteps.callId, callId),
        eq(videoCallSteps.kind, 'serial_number'),
        isNull(videoCallSteps.createdBy),
      ),
    );
  return rows.length;
}

/**
 * The customer types their ID's serial number: compared with the document numbers on file for the profile and
 * recorded as passed when one matches, failed otherwise (the agent sees what was typed and decides). The entries
 * are counted and the new one added under the call's lock, so a burst of entries stores at most
 * CALL_GUIDE_LIMITS.serialTries.
 */
export async function enterSerialNumber(
  db: DbOrTx,
  who: { companyId: number; profileId: number },
  callId: number,
  typed: string,
  now = new Date(),
): Promise<{ reply: EntryReply; step: CallStep }> {
  return db.transaction(async (tx) => {
    await lockCall(tx, callId);
    const call = await customersCall(tx, who, callId);
    if (call.status !== CALL_STATUS_TALKING) throw conflict(GUIDE_DETAILS.notTalking);
    await stepOf(tx, who.companyId, 'serial_number');
    const used = await serialEntries(tx, callId);
    if (used >= CALL_GUIDE_LIMITS.serialTries) throw conflict(GUIDE_DETAILS.noTriesLeft);
    const step = await recordByServer(tx, call, await serialResult(tx, call, typed), now);
    return { reply: { accepted: true, tries_left: CALL_GUIDE_LIMITS.serialTries - used - 1 }, step };
  });
}

/** The document numbers on file for the call's profile (its documents' read or corrected `DocumentNumber`). */
export async function documentNumbersOnFile(
  db: DbOrTx,
  call: { profileId: number; companyId: number },
): Promise<string[]> {
  const onFile = await db
    .select({ content: documents.content, overrides: documents.contentOverrides })
    .from(documents)
    .where(
      and(
        eq(documents.profileId, call.profileId),
        eq(documents.companyId, call.companyId),
        isNull(documents.deletedAt),
      ),
    );
  return onFile
    .map((d) => ({ ...d.content, ...d.overrides }).DocumentNumber)
    .filter((n): n is string => typeof n === 'string' && n.trim() !== '');
}

/** What a typed serial number records: whether it matches a document number on file for the profile. */
async function serialResult(db: DbOrTx, call: CallRow, typed: string) {
  const numbers = await documentNumbersOnFile(db, call);
  const matches = numbers.some((n) => normalSerial(n) === normalSerial(typed));
  return {
    kind: 'serial_number' as const,
    result: matches ? ('passed' as const) : ('failed' as const),
    details: { typed, matches, numbers_on_file: numbers.length, source: 'join_page' },
  };
}

/** What the customer page shows again after a reload: the step, the code sent, the serial tries left. */
export async function customerGuide(
  db: DbOrTx,
  who: { companyId: number; profileId: number },
  callId: number,
  now = new Date(),
): Promise<CustomerGuide> {
  const call = await customersCall(db, who, callId);
  const { steps } = await identProcedure(db, who.companyId);
  const codeStep = steps.find((s): s is CodeStep => s.kind === 'second_channel_code');
  let code: CodeSent | null = null;
  if (codeStep && call.status === CALL_STATUS_TALKING) {
    const { triesLeft, issuedAt } = await codeState(
      db,
      codeRules(codeStep),
      codeKey(callId),
      'call_code',
      now,
    );
    const to = triesLeft > 0 && issuedAt ? await contactOf(db, call, codeStep.channel) : null;
    if (to && issuedAt)
      code = {
        channel: codeStep.channel,
        to: hideContact(to),
        tries_left: triesLeft,
        sent_at: iso(issuedAt),
      };
  }
  return {
    step: call.status === CALL_STATUS_TALKING ? ((call.currentStep as StepKind | null) ?? null) : null,
    code,
    serial_tries_left: Math.max(0, CALL_GUIDE_LIMITS.serialTries - (await serialEntries(db, callId))),
  };
}
