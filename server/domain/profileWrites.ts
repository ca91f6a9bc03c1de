import { and, desc, eq, getTableColumns, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { ProfileStatus } from '#contract/common';
import { PROFILE_LOG_EVENTS, type ProfileLogCode, type ProfileLogParams } from '#contract/logEvents';
import type { Note } from '#contract/notes';
import type { Profile } from '#contract/profiles';
import {
  ADDRESS_MESSAGE,
  type checklistAnswerBodySchema,
  type contactUsBodySchema,
  DUPLICATE_ID_CARD_MESSAGE,
  type profileCreateBodySchema,
  type profileEditBodySchema,
  REJECT_REASON_MESSAGE,
  REJECT_REASON_MIN,
  STATUS_CHANGE_FAILED,
  STATUSES_NEEDING_REASON,
  type StatusChangeBody,
  type StatusChangeHeld,
  type StatusChangeResponse,
} from '#contract/profileWrites';
import { REVIEW_DETAILS, withRules } from '#contract/review';
import type { DbOrTx, Tx } from '../db/client';
import {
  amlHistory,
  amlResults,
  checklistAnswers,
  checklistGroups,
  checklistQuestions,
  companies,
  documentAlerts,
  documents,
  documentTypes,
  notes,
  profileLogs,
  profiles,
  supportMessages,
  users,
  videoCalls,
} from '../db/schema';
import { badRequest, notFound } from '../errors';
import type { ProfileFacts } from '../integrations/summariser';
import { auditInsert, changedFields, recordAudit } from './audit';
import { rowsOf } from './callReport';
import { fullName, iso } from './format';
import { englishLogMessage } from './logText';
import { toProfile } from './profiles';
import { type ReviewedDecision, statusGate } from './review/fourEyes';
import { openCase } from './review/open';
import { riskScores } from './riskScores';
import {
  checkVersion,
  mustHaveUpdated,
  nextProfileVersion,
  profileAt,
  type Seen,
  touchProfile,
} from './versions';
import { enqueueWebhookEvent, webhookEventInsert } from './webhooks';

type ProfileRow = typeof profiles.$inferSelect;
type CreateBody = z.output<typeof profileCreateBodySchema>;
type EditBody = z.output<typeof profileEditBodySchema>;
type AnswerBody = z.output<typeof checklistAnswerBodySchema>;
type ContactBody = z.output<typeof contactUsBodySchema>;

/** Who does a write: the caller's user and company. */
export interface Actor {
  userId: number;
  companyId: number;
}

/** A review case's company, profile and the staff user whose write opened it. */
export const caseOf = (actor: Actor, profileId: number) => ({
  companyId: actor.companyId,
  profileId,
  actorId: actor.userId,
});

// ---------------------------------------------------------------- status transitions

const REVIEW_EXITS: ProfileStatus[] = ['Rejected', 'Blacklisted', 'Inactive'];

/**
 * Which status may follow which (docs/server.md "Profile write paths"). Rules: nothing returns to
 * Created (only new profiles are Created); Approved and Temporarily Approved are reached only from a
 * review state (Pending Review, Pending Approval, Temporarily Approved, Temp. Approval Expired), never
 * straight from collection (Created, Incomplete, Pending Upload) or from a closed state; Rejected,
 * Blacklisted and Inactive are reachable from every open state; a closed state (Rejected, Inactive)
 * reopens only into Pending Review (or Incomplete for Inactive); Blacklisted only into Pending Review.
 */
export const STATUS_TRANSITIONS: Readonly<Record<ProfileStatus, readonly ProfileStatus[]>> = {
  Created: ['Incomplete', 'Pending Upload', 'Pending Review', ...REVIEW_EXITS],
  Incomplete: ['Pending Upload', 'Pending Review', ...REVIEW_EXITS],
  'Pending Upload': ['Incomplete', 'Pending Review', ...REVIEW_EXITS],
  'Pending Review': [
    'Incomplete',
    'Pending Upload',
    'Pending Approval',
    'Temporarily Approved',
    'Approved',
    ...REVIEW_EXITS,
  ],
  'Pending Approval': ['Pending Review', 'Temporarily Approved', 'Approved', ...REVIEW_EXITS],
  'Temporarily Approved': ['Pending Review', 'Temp. Approval Expired', 'Approved', ...REVIEW_EXITS],
  'Temp. Approval Expired': [
    'Pending Upload',
    'Pending Review',
    'Temporarily Approved',
    'Approved',
    ...REVIEW_EXITS,
  ],
  Approved: ['Pending Review', ...REVIEW_EXITS],
  Rejected: ['Pending Review', 'Blacklisted', 'Inactive'],
  Blacklisted: ['Pending Review'],
  Inactive: ['Incomplete', 'Pending Review'],
};

export function canTransition(from: string, to: ProfileStatus): boolean {
  return (STATUS_TRANSITIONS[from as ProfileStatus] ?? []).includes(to);
}

export const needsReason = (status: ProfileStatus) =>
  (STATUSES_NEEDING_REASON as readonly string[]).includes(status);

/** The reject reason rule (docs/product/validation.md): the trimmed reason, or a 400. */
export function checkedReason(body: StatusChangeBody): string | null {
  if (!needsReason(body.status)) return null;
  const reason = (body.reject_reason ?? '').trim();
  if (reason.length < REJECT_REASON_MIN) throw badRequest(REJECT_REASON_MESSAGE);
  return reason;
}

/** The company's profile, locked for the rest of the transaction; 404 for another company's id. */
export async function lockProfile(tx: Tx, companyId: number, profileId: number): Promise<ProfileRow> {
  const [row] = await tx
    .select()
    .from(profiles)
    .where(and(eq(profiles.id, profileId), eq(profiles.companyId, companyId)))
    .for('update');
  if (!row) throw notFound();
  return row;
}

/**
 * One entry of the profile's activity log (profile_logs): an event code of the catalogue
 * (contract/logEvents.ts) with its parameters, checked against the code's schema. No sentence is stored:
 * the studio words it in the reader's language.
 */
export async function writeLog<C extends ProfileLogCode>(
  tx: DbOrTx,
  profileId: number,
  actorId: number | null,
  code: C,
  params: ProfileLogParams<C>,
  createdAt?: Date,
): Promise<void> {
  await tx
    .insert(profileLogs)
    .values({ profileId, actorId, action: code, data: logData(code, params), createdAt });
}

/** An entry's parameters, checked against its code's schema. */
const logData = <C extends ProfileLogCode>(code: C, params: ProfileLogParams<C>) =>
  PROFILE_LOG_EVENTS[code].parse(params) as Record<string, unknown>;

/** writeLog's entry as an INSERT a write path sends inside a statement of its own, written only when `when` holds. */
function logInsert<C extends ProfileLogCode>(
  profileId: number,
  actorId: number | null,
  code: C,
  params: ProfileLogParams<C>,
  when: SQL,
): SQL {
  return sql`
    insert into ${profileLogs} (profile_id, actor_id, action, data)
    select ${profileId}::integer, ${actorId}::integer, ${code}::text, ${JSON.stringify(logData(code, params))}::jsonb
    where ${when}`;
}

/**
 * Changes a profile's status when the table allows it; otherwise `result: false` and nothing changes.
 * The reason rule is checked first (400); a stale `seen` version throws StaleVersionError (409). Every status
 * change goes through here, so the four-eyes gate (review/fourEyes.statusGate) is asked here: a change its rules
 * catch waits for a second review (the held answer) or is refused (409). Only the review desk's own final
 * decision passes `reviewed`.
 */
export async function changeStatus(
  tx: Tx,
  actor: Actor,
  profileId: number,
  body: StatusChangeBody,
  seen?: Seen,
  reviewed?: ReviewedDecision,
): Promise<StatusChangeResponse | StatusChangeHeld> {
  const reason = checkedReason(body);
  const row = await lockProfile(tx, actor.companyId, profileId);
  checkVersion('profile', row, seen);
  const from = row.status as ProfileStatus;
  if (!canTransition(from, body.status)) return { result: false, status: from, detail: STATUS_CHANGE_FAILED };
  const held = await statusGate(tx, actor, profileId, { status: body.status, reason }, reviewed);
  if (held)
    return {
      result: false,
      status: from,
      detail: withRules(REVIEW_DETAILS.changeWaits, held.rules),
      second_review: held,
    };
  const now = new Date();
  const updated = await tx
    .update(profiles)
    .set({
      status: body.status,
      rejectReason: reason,
      lastStatusDate: now,
      updatedAt: now,
      version: nextProfileVersion,
    })
    .where(profileAt(row))
    .returning({ id: profiles.id });
  mustHaveUpdated('profile', profileId, updated);
  await writeLog(tx, profileId, actor.userId, 'status_changed', {
    from,
    to: body.status,
    ...(reason ? { reject_reason: reason } : {}),
  });
  await enqueueWebhookEvent(tx, actor.companyId, 'profile.status_changed', {
    profile_id: profileId,
    from,
    to: body.status,
  });
  await recordAudit(tx, {
    companyId: actor.companyId,
    actorId: actor.userId,
    object: 'profile',
    objectId: profileId,
    action: 'status_changed',
    before: { status: from, reject_reason: row.rejectReason },
    after: { status: body.status, reject_reason: reason },
  });
  if (body.status === 'Pending Review')
    await openCase(tx, { ...caseOf(actor, profileId), kind: 'pending_review', source: 'status_changed' });
  return { result: true, status: body.status };
}

// ---------------------------------------------------------------- create and edit

/** Serialises creations per company, so two equal id card numbers cannot both pass the check. */
export const CREATE_LOCK = 6_001;

/**
 * A new profile with its activity log entry, its `profile.created` event and its audit entry, in two statements,
 * since every trip to the database is one the company's other creations wait for: the lock (with the new row's id
 * drawn, so every entry can name it), then one statement of CTEs: the duplicate check and the insert, and the
 * three entries, written only when the profile was. The check is not in the lock's statement: a statement sees the
 * data as it was when it started, so only a statement begun after the lock sees every creation committed before.
 */
export async function createProfile(tx: Tx, actor: Actor, body: CreateBody): Promise<Profile> {
  const [locked] = rowsOf<{ id: number | string }>(
    await tx.execute(sql`select pg_advisory_xact_lock(${CREATE_LOCK}, ${actor.companyId}),
               nextval(pg_get_serial_sequence('profiles', 'id')) as id`),
  );
  const id = Number(locked?.id);
  if (!Number.isSafeInteger(id)) throw new Error('no profile id was drawn');
  const now = new Date().toISOString();
  const name = body.name ?? null;
  const gender = body.gender ?? null;
  const created = tx.$with('created', getTableColumns(profiles)).as(sql`
    insert into ${profiles} (id, company_id, id_card_number, name, gender, status, risk_level, source,
                             created_at, updated_at, last_status_date)
    select ${id}::integer, ${actor.companyId}::integer, ${body.id_card_number}::text, ${name}::text,
           ${gender}::text, 'Created', 'Unknown', 'studio', ${now}::timestamptz, ${now}::timestamptz,
           ${now}::timestamptz
    where not exists (
      select 1 from ${profiles}
      where company_id = ${actor.companyId} and id_card_number = ${body.id_card_number}
    )
    returning *`);
  const inserted = sql`exists (select 1 from created)`;
  const event = webhookEventInsert(
    tx,
    actor.companyId,
    'profile.created',
    { profile_id: id, status: 'Created' },
    inserted,
  );
  const entries = [
    logInsert(id, actor.userId, 'profile_created', { id_card_number: body.id_card_number }, inserted),
    auditInsert(
      [
        {
          companyId: actor.companyId,
          actorId: actor.userId,
          object: 'profile',
          objectId: id,
          action: 'profile_created',
          after: { id_card_number: body.id_card_number, name, gender },
        },
      ],
      inserted,
    ),
  ].map((statement, n) => tx.$with(`entry_${n}`, {}).as(statement));
  const queued = event.ctes.map(({ name, body }) => tx.$with(name, {}).as(body));
  const [row] = await tx
    .with(created, ...entries, ...queued)
    .select({ ...created._.selectedFields, webhookClaims: event.claims ?? sql`null` })
    .from(created);
  if (!row) throw badRequest(DUPLICATE_ID_CARD_MESSAGE);
  const { webhookClaims, ...profile } = row;
  event.handOver(webhookClaims);
  return toProfile(profile);
}

const EDIT_COLUMNS = {
  name: 'name',
  gender: 'gender',
  email: 'email',
  phone: 'phone',
  nationality: 'nationality',
  date_of_birth: 'dateOfBirth',
} as const satisfies Record<string, keyof ProfileRow>;

/**
 * Applies the given fields; only real changes count. A changed address needs all three parts
 * ("Please enter address details"). Logs the changed field names (not their values).
 */
export async function editProfile(
  tx: Tx,
  actor: Actor,
  profileId: number,
  body: EditBody,
  seen?: Seen,
): Promise<Profile> {
  const row = await lockProfile(tx, actor.companyId, profileId);
  checkVersion('profile', row, seen);
  const changes: Partial<typeof profiles.$inferInsert> = {};
  const changed: string[] = [];
  for (const [field, column] of Object.entries(EDIT_COLUMNS) as [
    keyof typeof EDIT_COLUMNS,
    keyof ProfileRow,
  ][]) {
    const value = body[field];
    if (value === undefined || value === row[column]) continue;
    Object.assign(changes, { [column]: value });
    changed.push(field);
  }
  if (body.address) {
    const next = {
      province: body.address.province ?? null,
      city: body.address.city ?? null,
      street: body.address.street ?? null,
    };
    const differs =
      next.province !== row.addressProvince ||
      next.city !== row.addressCity ||
      next.street !== row.addressStreet;
    if (differs) {
      if (!next.province || !next.city || !next.street) throw badRequest(ADDRESS_MESSAGE);
      Object.assign(changes, {
        addressProvince: next.province,
        addressCity: next.city,
        addressStreet: next.street,
      });
      changed.push('address');
    }
  }
  if (changed.length === 0) return toProfile(row);
  // The e-mail and phone scores follow the new details; the IP score is the device's and stays.
  const merged = { ...row, ...changes };
  const scores = {
    ...riskScores({ email: merged.email, phone: merged.phone, nationality: merged.nationality, ip: null }),
    ip: row.riskScores?.ip ?? null,
  };
  const [updated] = await tx
    .update(profiles)
    .set({ ...changes, riskScores: scores, updatedAt: new Date(), version: nextProfileVersion })
    .where(profileAt(row))
    .returning();
  mustHaveUpdated('profile', profileId, updated ? [updated] : []);
  if (!updated) throw notFound();
  await writeLog(tx, profileId, actor.userId, 'profile_updated', {
    fields: changed,
  });
  await enqueueWebhookEvent(tx, actor.companyId, 'profile.updated', {
    profile_id: profileId,
    fields: changed,
  });
  await recordAudit(tx, {
    companyId: actor.companyId,
    actorId: actor.userId,
    object: 'profile',
    objectId: profileId,
    action: 'profile_updated',
    ...changedFields(row, changes),
  });
  return toProfile(updated);
}

// ---------------------------------------------------------------- notes and checklist

export async function addNote(
  tx: Tx,
  actor: Actor,
  profileId: number,
  kind: Note['kind'],
  text: string,
): Promise<Note> {
  await lockProfile(tx, actor.companyId, profileId);
  const [row] = await tx
    .insert(notes)
    .values({ profileId, authorId: actor.userId, kind, note: text })
    .returning();
  if (!row) throw new Error('note insert returned nothing');
  const [author] = await tx
    .select({ first: users.firstName, last: users.lastName })
    .from(users)
    .where(eq(users.id, actor.userId));
  await writeLog(tx, profileId, actor.userId, 'note_added', {
    note_id: row.id,
    kind,
  });
  return {
    id: row.id,
    profile: profileId,
    kind,
    note: row.note,
    author: { id: actor.userId, name: fullName(author?.first ?? '', author?.last ?? '') },
    created_at: iso(row.createdAt),
  };
}

/** Saves this profile's answer to a checklist question of the caller's company (404 otherwise). */
export async function answerChecklist(
  tx: Tx,
  actor: Actor,
  profileId: number,
  body: AnswerBody,
  seen?: Seen,
) {
  const profile = await lockProfile(tx, actor.companyId, profileId);
  checkVersion('profile', profile, seen);
  const [question] = await tx
    .select({
      id: checklistQuestions.id,
      question: checklistQuestions.question,
      questionTr: checklistQuestions.questionTr,
      sortOrder: checklistQuestions.sortOrder,
    })
    .from(checklistQuestions)
    .innerJoin(checklistGroups, eq(checklistGroups.id, checklistQuestions.groupId))
    .where(and(eq(checklistQuestions.id, body.question), eq(checklistGroups.companyId, actor.companyId)));
  if (!question) throw notFound();
  const now = new Date();
  const set = {
    value: body.value,
    answeredBy: actor.userId,
    createdAt: now,
    ...(body.note !== undefined ? { note: body.note } : {}),
  };
  const [answer] = await tx
    .insert(checklistAnswers)
    .values({ profileId, questionId: question.id, note: null, ...set })
    .onConflictDoUpdate({ target: [checklistAnswers.profileId, checklistAnswers.questionId], set })
    .returning();
  if (!answer) throw new Error('answer upsert returned nothing');
  await touchProfile(tx, profile);
  await writeLog(tx, profileId, actor.userId, 'checklist_answered', {
    question: question.id,
    text: { 'en-US': question.question, tr: question.questionTr ?? question.question },
    value: body.value,
  });
  return {
    id: question.id,
    question: question.question,
    texts: { 'en-US': question.question, tr: question.questionTr ?? question.question },
    sort_order: question.sortOrder,
    answer: answer.value,
    note: answer.note,
    created_at: iso(answer.createdAt),
  };
}

// ---------------------------------------------------------------- summary facts

/** Everything the summariser is given about one profile of the company (404 otherwise). */
export async function loadProfileFacts(
  db: DbOrTx,
  companyId: number,
  profileId: number,
): Promise<ProfileFacts> {
  const [p] = await db
    .select()
    .from(profiles)
    .where(and(eq(profiles.id, profileId), eq(profiles.companyId, companyId)));
  if (!p) throw notFound();
  const [docRows, amlRows, historyRows, callRows, logRows, noteRows] = await Promise.all([
    db
      .select({ doc: documents, typeName: documentTypes.name })
      .from(documents)
      .leftJoin(documentTypes, eq(documentTypes.id, documents.documentTypeId))
      .where(and(eq(documents.profileId, profileId), isNull(documents.deletedAt)))
      .orderBy(documents.createdAt, documents.id),
    db.select().from(amlResults).where(eq(amlResults.profileId, profileId)),
    db
      .select()
      .from(amlHistory)
      .where(eq(amlHistory.profileId, profileId))
      .orderBy(desc(amlHistory.createdAt), desc(amlHistory.id))
      .limit(1),
    db
      .select({ status: videoCalls.status, startedAt: videoCalls.callStartTime })
      .from(videoCalls)
      .where(eq(videoCalls.profileId, profileId))
      .orderBy(desc(videoCalls.createdAt), desc(videoCalls.id)),
    db
      .select({ action: profileLogs.action, data: profileLogs.data, createdAt: profileLogs.createdAt })
      .from(profileLogs)
      .where(eq(profileLogs.profileId, profileId))
      .orderBy(desc(profileLogs.id))
      .limit(10),
    db
      .select({ kind: notes.kind, note: notes.note, createdAt: notes.createdAt })
      .from(notes)
      .where(eq(notes.profileId, profileId))
      .orderBy(desc(notes.createdAt), desc(notes.id))
      .limit(5),
  ]);
  const docIds = docRows.map((d) => d.doc.id);
  const alertRows =
    docIds.length > 0
      ? await db
          .select({
            documentId: documentAlerts.documentId,
            name: documentAlerts.name,
            result: documentAlerts.result,
            overridden: documentAlerts.overridden,
          })
          .from(documentAlerts)
          .where(inArray(documentAlerts.documentId, docIds))
      : [];
  const aml = amlRows[0];
  const latest = historyRows[0];
  const [company] = await db
    .select({ amlProvider: companies.amlProvider })
    .from(companies)
    .where(eq(companies.id, companyId));
  return {
    profile: {
      id: p.id,
      name: p.name,
      idCardNumber: p.idCardNumber,
      status: p.status,
      riskLevel: p.riskLevel,
      rejectReason: p.rejectReason,
      nationality: p.nationality,
      dateOfBirth: p.dateOfBirth,
      email: p.email,
      phone: p.phone,
      source: p.source,
      createdAt: p.createdAt,
      lastStatusDate: p.lastStatusDate,
    },
    documents: docRows.map(({ doc, typeName }) => ({
      id: doc.id,
      documentClass: doc.documentClass,
      typeName,
      status: doc.status,
      archived: doc.archived,
      expiryDate: doc.expiryDate,
      checks: doc.checks,
      alerts: alertRows
        .filter((a) => a.documentId === doc.id)
        .map((a) => ({ name: a.name, result: a.result, overridden: a.overridden })),
    })),
    aml: aml
      ? {
          provider: company?.amlProvider ?? null,
          score: aml.score,
          lists: aml.lists,
          matches: aml.records.length,
          approved: aml.approved,
          lastScreening: latest
            ? { status: latest.status, date: latest.createdAt, database: latest.scannedDatabase }
            : null,
        }
      : null,
    calls: callRows,
    logs: logRows.map((l) => ({
      action: l.action,
      message: englishLogMessage(l.action, l.data),
      createdAt: l.createdAt,
    })),
    notes: noteRows,
  };
}

// ---------------------------------------------------------------- support

export const SUPPORT_ADDRESS = 'support@idv-studio.local';

/** Stores a help desk message; the caller mails it to the support outbox. */
export async function storeSupportMessage(
  db: DbOrTx,
  body: ContactBody,
  userId: number | null,
): Promise<number> {
  const [row] = await db
    .insert(supportMessages)
    .values({ email: body.email, message: body.message, page: body.page ?? null, userId })
    .returning({ id: supportMessages.id });
  if (!row) throw new Error('support message insert returned nothing');
  return row.id;
}
