/**
 * Who watches a call and what they whispered (docs/decisions/0208-supervisors-watch-calls.md): the shapes the
 * socket events and the HTTP answers share. The grant and the settings are in ./callWatch.ts.
 */
import { z } from 'zod';
import { isoDateTime, lineText } from './common';

/** How a watch ended: the watcher stopped, the call ended, no socket of the watcher came back, access was lost. */
export const WATCH_END_REASONS = ['stopped', 'call_ended', 'left', 'access'] as const;
export type WatchEndReason = (typeof WATCH_END_REASONS)[number];

/** 409 of POST /videocall/{id}/watch: only a call in progress can be watched. */
export const WATCH_NOT_TALKING = 'The call is not in progress';
/** 409: the agent of a call does not watch it (they are in it). */
export const WATCH_OWN_CALL = 'You are the agent of this call';
/** 409 of a whisper: only a supervisor watching the call now may whisper in it. */
export const WATCH_NOT_WATCHING = 'You are not watching this call';
/** How many calls one supervisor watches at once (the wall). */
export const MAX_WATCHED_CALLS = 4;
export const WATCH_TOO_MANY = `You can watch up to ${MAX_WATCHED_CALLS} calls at once`;

export const callWatcherSchema = z.object({
  /** The watch (one per watcher and start). */
  id: z.number().int(),
  /** The user; null once the user was deleted (the name stays as it was). */
  user_id: z.number().int().nullable(),
  name: z.string(),
  started_at: isoDateTime,
  /** Null while the watch goes on. */
  ended_at: isoDateTime.nullable(),
  end_reason: z.enum(WATCH_END_REASONS).nullable(),
});
export type CallWatcher = z.infer<typeof callWatcherSchema>;

export const whisperSchema = z.object({
  id: z.number().int(),
  call_id: z.number().int(),
  author: z.object({ id: z.number().int().nullable(), name: z.string() }),
  text: z.string(),
  created_at: isoDateTime,
});
export type Whisper = z.infer<typeof whisperSchema>;

/** POST /videocall/{id}/whispers: one line of 1 to 500 characters after trimming. */
export const whisperBodySchema = z.strictObject({ text: lineText.trim().min(1).max(500) });

/** `watch.ended`: a watched call ended (its final status, if set yet, and why) or the watch was ended. */
export interface WatchEnded {
  call_id: number;
  reason: WatchEndReason;
  /** The call's status code now (contract/constants CALL_STATUSES). */
  status: number;
  /** A CALL_END_REASONS code when the server or an admin closed it. */
  end_reason: string | null;
}
