/**
 * Supervisors watching live calls (docs/decisions/0208-supervisors-watch-calls.md): the grant a watcher receives
 * and the company's notice to customers; who watches and the whispers are in ./callWatchers.ts.
 */
import { z } from 'zod';
import { callWatcherSchema, whisperSchema } from './callWatchers';
import { isoDateTime } from './common';
import { callIceSchema } from './socket';

export * from './callWatchers';

/**
 * What a watcher receives with POST /videocall/{id}/watch: the call it may watch, its own STUN/TURN servers and
 * credentials for this call only, and who else watches. The call's room is not in it: a watcher never joins the
 * agent–customer connection.
 */
export const watchGrantSchema = z.object({
  call_id: z.number().int(),
  profile: z.number().int(),
  profile_name: z.string().nullable(),
  agent: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** When the agent answered (ISO): the elapsed time counts from it. */
  call_start_time: isoDateTime.nullable(),
  /** This watch. */
  watch: callWatcherSchema,
  watchers: z.array(callWatcherSchema),
  whispers: z.array(whisperSchema),
  ice: callIceSchema,
});
export type WatchGrant = z.infer<typeof watchGrantSchema>;

/** A call a supervisor watches, as the wall lists it after a reload. */
export const watchedCallSchema = z.object({ call_id: z.number().int(), started_at: isoDateTime });

/** GET/PUT /call_watch: the company's setting. */
export const callWatchSettingsSchema = z.object({
  /** The customer's page says that a supervisor may join the call for quality purposes (default on). */
  customer_notice: z.boolean(),
});
export type CallWatchSettings = z.infer<typeof callWatchSettingsSchema>;
export const callWatchSettingsBodySchema = z.strictObject({ customer_notice: z.boolean() });

/** GET /videocall/watch_notice (the customer's join link): whether its page shows the notice. */
export const watchNoticeSchema = z.object({ customer_notice: z.boolean() });
