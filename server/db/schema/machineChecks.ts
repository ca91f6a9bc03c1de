/** The machine checks of a call's screenshots (face match, MRZ): hints beside the agent, kept as evidence. */
import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import type { CheckEngine } from '#contract/machineChecks';
import { createdAt, id, ts } from './columns';
import { videoCalls } from './videoCalls';

/** One run of a check, written once when it ends (a new screenshot runs it again: a new row). */
export const videoCallChecks = pgTable(
  'video_call_checks',
  {
    id: id(),
    callId: integer()
      .notNull()
      .references(() => videoCalls.id, { onDelete: 'cascade' }),
    /** face_match or mrz (MACHINE_CHECK_KINDS). */
    kind: text().notNull(),
    /** The screenshots it looked at. */
    screenshotIds: jsonb().$type<number[]>().notNull().default([]),
    /** done, or failed (the engine broke: `error` says how). */
    status: text().notNull(),
    engine: jsonb().$type<CheckEngine>().notNull(),
    /** FaceMatchResult or MrzResult (contract/machineChecks.ts). */
    result: jsonb().$type<Record<string, unknown>>(),
    error: text(),
    createdAt: createdAt(),
    finishedAt: ts(),
    durationMs: integer(),
  },
  (t) => [index('video_call_checks_call').on(t.callId, t.id)],
);
