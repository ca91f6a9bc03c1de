/** The quality of each call as both sides received it, sampled every few seconds. */
import { doublePrecision, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns';
import { videoCalls } from './videoCalls';

/** One sample of one side; at most MAX_QUALITY_SAMPLES per side of a call (contract/callQuality.ts). */
export const videoCallQuality = pgTable(
  'video_call_quality',
  {
    id: id(),
    callId: integer()
      .notNull()
      .references(() => videoCalls.id, { onDelete: 'cascade' }),
    /** agent or customer: whose reception it measures. */
    side: text().notNull(),
    width: integer().notNull(),
    height: integer().notNull(),
    fps: doublePrecision().notNull(),
    lossPct: doublePrecision().notNull(),
    kbps: doublePrecision().notNull(),
    audioLevel: doublePrecision().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('video_call_quality_call').on(t.callId, t.side, t.id)],
);
