/** Notifications of staff users: today the @mentions in profile notes. */
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, ts } from './columns';
import { companies, users } from './companies';
import { notes, profiles } from './profiles';

export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** Who is told. */
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'mention' */
    kind: text().notNull(),
    profileId: integer()
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    noteId: integer()
      .notNull()
      .references(() => notes.id, { onDelete: 'cascade' }),
    /** Who mentioned them (null once that user is deleted). */
    actorId: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    readAt: ts(),
  },
  (t) => [
    index('notifications_user').on(t.userId, t.id),
    index('notifications_user_unread').on(t.userId).where(sql`${t.readAt} is null`),
    uniqueIndex('notifications_one_per_note').on(t.noteId, t.userId, t.kind),
  ],
);
