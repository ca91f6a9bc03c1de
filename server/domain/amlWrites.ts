/**
 * AML writes (docs/product/api.md): running a screening of a profile and approving its result. Each runs in one
 * transaction with the profile row locked and writes the profile's activity log.
 */
import { and, eq } from 'drizzle-orm';
import { AML_NO_NAME, AML_NOTHING_TO_APPROVE, type AmlCheck } from '#contract/aml';
import type { AmlMatch } from '#contract/amlMatch';
import type { Tx } from '../db/client';
import { amlHistory, amlResults, profiles } from '../db/schema';
import { badRequest, notFound } from '../errors';
import type { Screener } from '../integrations/aml';
import { recordAudit } from './audit';
import { iso } from './format';
import { caseOf, writeLog } from './profileWrites';
import { openCase } from './review/open';
import { enqueueWebhookEvent } from './webhooks';

/** Who does a write: the caller's user and company. */
export interface AmlActor {
  userId: number;
  companyId: number;
}

async function lockProfile(tx: Tx, companyId: number, profileId: number) {
  const [row] = await tx
    .select({
      name: profiles.name,
      aliases: profiles.aliases,
      dateOfBirth: profiles.dateOfBirth,
      nationality: profiles.nationality,
    })
    .from(profiles)
    .where(and(eq(profiles.id, profileId), eq(profiles.companyId, companyId)))
    .for('update');
  if (!row) throw notFound();
  return row;
}

/**
 * Screens the profile's name and aliases with its birth date and nationality; per listed person the best
 * of those names counts. Hits best first.
 */
export function screenProfile(
  screener: Screener,
  profile: { name: string; aliases: string[]; dateOfBirth: string | null; nationality: string | null },
): AmlMatch[] {
  const best = new Map<string, AmlMatch>();
  for (const name of [profile.name, ...profile.aliases]) {
    const { matches } = screener.screen({
      name,
      birthDate: profile.dateOfBirth,
      nationality: profile.nationality,
    });
    for (const match of matches) {
      const kept = best.get(match.entry_id);
      if (!kept || match.score > kept.score) best.set(match.entry_id, match);
    }
  }
  return [...best.values()].sort((a, b) => b.score - a.score || a.name.localeCompare(b.name));
}

/**
 * Runs a new check: stores the result (replacing the previous one, so it waits for approval again) and a
 * history entry, and logs `aml_checked`. A profile without a name cannot be screened (400).
 */
export async function runAmlCheck(
  tx: Tx,
  actor: AmlActor,
  profileId: number,
  provider: string,
  screener: Screener,
): Promise<AmlCheck> {
  const profile = await lockProfile(tx, actor.companyId, profileId);
  const name = profile.name?.trim();
  if (!name) throw badRequest(AML_NO_NAME);
  const matches = screenProfile(screener, { ...profile, name });
  const lists = [...new Set(matches.flatMap((m) => m.lists))];
  const score = matches[0]?.score ?? 0;
  const status = matches.length > 0 ? 'hit' : 'clear';
  const now = new Date();
  const records = matches as unknown as Record<string, unknown>[];
  const result = {
    lists,
    score,
    records,
    approved: null,
    approvedBy: null,
    approvedAt: null,
    updatedAt: now,
  };
  await tx
    .insert(amlResults)
    .values({ profileId, ...result })
    .onConflictDoUpdate({ target: amlResults.profileId, set: result });
  const [entry] = await tx
    .insert(amlHistory)
    .values({
      profileId,
      provider,
      status,
      scannedDatabase: screener.database,
      matches: matches.length,
      records,
      createdAt: now,
    })
    .returning({ id: amlHistory.id });
  if (!entry) throw new Error('aml_history insert returned nothing');
  await writeLog(
    tx,
    profileId,
    actor.userId,
    'aml_checked',
    {
      check_id: entry.id,
      status,
      matches: matches.length,
      score,
      database: screener.database,
      lists,
    },
    now,
  );
  await enqueueWebhookEvent(tx, actor.companyId, 'aml.checked', {
    profile_id: profileId,
    check_id: entry.id,
    status,
  });
  await recordAudit(tx, {
    companyId: actor.companyId,
    actorId: actor.userId,
    object: 'aml',
    objectId: profileId,
    action: 'aml_checked',
    after: { check_id: entry.id, status, matches: matches.length, score },
  });
  if (status === 'hit')
    await openCase(tx, { ...caseOf(actor, profileId), kind: 'aml_hit', source: 'aml_checked' });
  return {
    profile: profileId,
    provider,
    checked: true,
    id: entry.id,
    status,
    scanned_database: screener.database,
    matches: matches.length,
    score,
    records,
    date: iso(now),
  };
}

/**
 * Approves the profile's AML result: records who and when, and logs `aml_approved`. Approving an approved
 * result changes nothing; a profile never checked has nothing to approve (400).
 */
export async function approveAml(tx: Tx, actor: AmlActor, profileId: number): Promise<void> {
  await lockProfile(tx, actor.companyId, profileId);
  const [result] = await tx
    .select({ approved: amlResults.approved, matches: amlResults.records })
    .from(amlResults)
    .where(eq(amlResults.profileId, profileId));
  if (!result) throw badRequest(AML_NOTHING_TO_APPROVE);
  if (result.approved === true) return;
  const now = new Date();
  await tx
    .update(amlResults)
    .set({ approved: true, approvedBy: actor.userId, approvedAt: now })
    .where(eq(amlResults.profileId, profileId));
  await writeLog(tx, profileId, actor.userId, 'aml_approved', { matches: result.matches.length }, now);
  await enqueueWebhookEvent(tx, actor.companyId, 'aml.approved', { profile_id: profileId });
  await recordAudit(tx, {
    companyId: actor.companyId,
    actorId: actor.userId,
    object: 'aml',
    objectId: profileId,
    action: 'aml_approved',
    before: { approved: result.approved },
    after: { approved: true },
  });
}
