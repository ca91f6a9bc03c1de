/** Supervisors watching live calls, and what they whispered to the agent (docs/decisions/0208-supervisors-watch-calls.md). */

import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, ts } from './columns';
import { users } from './companies';
import { videoCalls } from './videoCalls';

/**
 * One watch of one call by one supervisor, from the server's grant to its end. At most one open (ended_at null)
 * per call and watcher: a reload of the watcher's page takes up the open one. The name is kept as it was then,
 * so the evidence still says who watched after the user is renamed or deleted.
 */
export const videoCallWatches = pgTable(
  'video_call_watches',
  {
    id: id(),
    companyId: integer().notNull(),
    callId: integer()
      .notNull()
      .references(() => videoCalls.id, { onDelete: 'cascade' }),
    watcherId: integer().references(() => users.id, { onDelete: 'set null' }),
    watcherName: text().notNull(),
    startedAt: createdAt(),
    endedAt: ts(),
    /** stopped (by the watcher), call_ended, left (no socket of the watcher came back), access (permission lost). */
    endReason: text(),
  },
  (t) => [
    index('video_call_watches_call').on(t.callId, t.id),
    uniqueIndex('video_call_watches_open').on(t.callId, t.watcherId).where(sql`${t.endedAt} IS NULL`),
  ],
);

/** A short text a watching supervisor sent to the call's agent alone; kept with the call as evidence. */
export const videoCallWhispers = pgTable(
  'video_call_whispers',
  {
    id: id(),
    callId: integer()
      .notNull()
      .references(() => videoCalls.id, { onDelete: 'cascade' }),
    authorId: integer().references(() => users.id, { onDelete: 'set null' }),
    authorName: text().notNull(),
    text: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('video_call_whispers_call').on(t.callId, t.id)],
);
