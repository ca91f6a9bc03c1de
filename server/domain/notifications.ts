/**
 * Notifications: a note's @mentions become notifications of colleagues of the same company.
 * Other companies' users, unknown handles, the author, inactive and API users are left as plain text and never
 * told. docs/decisions/0152-mentions-and-bell.md.
 */
import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  type Colleague,
  mentionHandle,
  NOTIFICATION_NOT_FOUND,
  type Notification,
  type NotificationListQuery,
  parseMentions,
  SNIPPET_MAX,
} from '#contract/notifications';
import type { DbOrTx } from '../db/client';
import { notes, notifications, profiles, reviewerSettings, users } from '../db/schema';
import { HttpError } from '../errors';
import { fullName, iso } from './format';

/** The staff who can be mentioned: active people (not API users) of the company. */
const mentionable = (companyId: number) =>
  and(eq(users.companyId, companyId), eq(users.isActive, true), eq(users.isApiUser, false));

const localPart = sql<string>`lower(split_part(${users.email}, '@', 1))`;

/** The colleagues the note editor offers after `@`, by name, with the handle that mentions each. */
export async function listColleagues(db: DbOrTx, companyId: number, selfId: number): Promise<Colleague[]> {
  const rows = await db
    .select({
      id: users.id,
      first: users.firstName,
      last: users.lastName,
      email: users.email,
      shared: sql<number>`count(*) over (partition by ${localPart})`.mapWith(Number),
    })
    .from(users)
    .where(mentionable(companyId));
  return rows
    .filter((r) => r.id !== selfId)
    .map((r) => ({
      id: r.id,
      name: fullName(r.first, r.last) || r.email,
      email: r.email,
      handle: mentionHandle(r.email, r.shared),
    }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

interface Mentioned {
  id: number;
  email: string;
}

/**
 * The users of the company a text mentions: `@local` names the one colleague with that e-mail local part (none
 * when two share it), `@local@domain` the colleague with that address. The author is left out.
 */
export async function resolveMentions(
  db: DbOrTx,
  companyId: number,
  authorId: number,
  text: string,
): Promise<Mentioned[]> {
  const handles = parseMentions(text);
  if (handles.length === 0) return [];
  const full = handles.filter((h) => h.includes('@'));
  const local = handles.filter((h) => !h.includes('@'));
  const found = new Map<number, Mentioned>();
  if (full.length > 0) {
    const rows = await db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(and(mentionable(companyId), inArray(sql`lower(${users.email})`, full)));
    for (const r of rows) found.set(r.id, r);
  }
  if (local.length > 0) {
    const rows = await db
      .select({ id: users.id, email: users.email, part: localPart })
      .from(users)
      .where(and(mentionable(companyId), inArray(localPart, local)));
    const shared = new Map<string, number>();
    for (const r of rows) shared.set(r.part, (shared.get(r.part) ?? 0) + 1);
    for (const r of rows) if (shared.get(r.part) === 1) found.set(r.id, { id: r.id, email: r.email });
  }
  found.delete(authorId);
  return [...found.values()];
}

export const snippetOf = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET_MAX ? `${flat.slice(0, SNIPPET_MAX - 1)}…` : flat;
};

/** Stores a mention notification per mentioned colleague; answers who was told (their ids and addresses). */
export async function recordMentions(
  tx: DbOrTx,
  note: { id: number; companyId: number; profileId: number; authorId: number; text: string },
): Promise<Array<Mentioned & { notificationId: number; away: boolean }>> {
  const people = await resolveMentions(tx, note.companyId, note.authorId, note.text);
  if (people.length === 0) return [];
  const rows = await tx
    .insert(notifications)
    .values(
      people.map((p) => ({
        companyId: note.companyId,
        userId: p.id,
        kind: 'mention',
        profileId: note.profileId,
        noteId: note.id,
        actorId: note.authorId,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: notifications.id, userId: notifications.userId });
  const away = await tx
    .select({ userId: reviewerSettings.userId })
    .from(reviewerSettings)
    .where(
      and(
        inArray(
          reviewerSettings.userId,
          people.map((p) => p.id),
        ),
        eq(reviewerSettings.away, true),
      ),
    );
  const awayIds = new Set(away.map((a) => a.userId));
  const byUser = new Map(rows.map((r) => [r.userId, r.id]));
  return people.flatMap((p) => {
    const notificationId = byUser.get(p.id);
    return notificationId ? [{ ...p, notificationId, away: awayIds.has(p.id) }] : [];
  });
}

const actorUser = alias(users, 'actor');

function selectNotifications(db: DbOrTx) {
  return db
    .select({
      id: notifications.id,
      profileId: notifications.profileId,
      profileName: profiles.name,
      noteId: notifications.noteId,
      note: notes.note,
      actorId: actorUser.id,
      actorFirst: actorUser.firstName,
      actorLast: actorUser.lastName,
      actorEmail: actorUser.email,
      createdAt: notifications.createdAt,
      readAt: notifications.readAt,
    })
    .from(notifications)
    .innerJoin(profiles, eq(profiles.id, notifications.profileId))
    .innerJoin(notes, eq(notes.id, notifications.noteId))
    .leftJoin(actorUser, eq(actorUser.id, notifications.actorId));
}

type Row = Awaited<ReturnType<ReturnType<typeof selectNotifications>['where']>>[number];

function toNotification(r: Row): Notification {
  return {
    id: r.id,
    kind: 'mention',
    profile: { id: r.profileId, name: r.profileName ?? '' },
    note: { id: r.noteId, snippet: snippetOf(r.note) },
    actor:
      r.actorId === null
        ? null
        : { id: r.actorId, name: fullName(r.actorFirst ?? '', r.actorLast ?? '') || (r.actorEmail ?? '') },
    created_at: iso(r.createdAt),
    read_at: iso(r.readAt),
  };
}

const mine = (userId: number, companyId: number) =>
  and(eq(notifications.userId, userId), eq(notifications.companyId, companyId));

export async function unreadCount(db: DbOrTx, userId: number, companyId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(mine(userId, companyId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/** The caller's notifications, newest first, with the unread count. */
export async function listNotifications(
  db: DbOrTx,
  userId: number,
  companyId: number,
  query: NotificationListQuery,
) {
  const where = and(mine(userId, companyId), query.unread ? isNull(notifications.readAt) : undefined);
  const [total] = await db.select({ n: count() }).from(notifications).where(where);
  const rows = await selectNotifications(db)
    .where(where)
    .orderBy(desc(notifications.id))
    .limit(query.limit)
    .offset(query.offset);
  return {
    count: total?.n ?? 0,
    results: rows.map(toNotification),
    unread: await unreadCount(db, userId, companyId),
  };
}

export async function readNotification(db: DbOrTx, userId: number, companyId: number, id: number) {
  const [row] = await selectNotifications(db).where(and(mine(userId, companyId), eq(notifications.id, id)));
  if (!row) throw new HttpError(404, NOTIFICATION_NOT_FOUND);
  return toNotification(row);
}

/** Marks one of the caller's notifications read (another user's or company's answers 404). */
export async function markRead(db: DbOrTx, userId: number, companyId: number, id: number) {
  const updated = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, now())` })
    .where(and(mine(userId, companyId), eq(notifications.id, id)))
    .returning({ id: notifications.id });
  if (updated.length === 0) throw new HttpError(404, NOTIFICATION_NOT_FOUND);
  return readNotification(db, userId, companyId, id);
}

export async function markAllRead(db: DbOrTx, userId: number, companyId: number) {
  const updated = await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(and(mine(userId, companyId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return { marked: updated.length, unread: await unreadCount(db, userId, companyId) };
}

// ---------------------------------------------------------------- the e-mail to an away colleague

/** The author's and profile's names for the e-mail and the socket event. */
export async function mentionContext(db: DbOrTx, authorId: number, profileId: number) {
  const [author] = await db
    .select({ first: users.firstName, last: users.lastName, email: users.email })
    .from(users)
    .where(eq(users.id, authorId));
  const [profile] = await db.select({ name: profiles.name }).from(profiles).where(eq(profiles.id, profileId));
  return {
    actor: author ? fullName(author.first, author.last) || author.email : '',
    profile: profile?.name ?? '',
  };
}
