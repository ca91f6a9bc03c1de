import { z } from 'zod';
import { isoDateTime } from './common';

/** One active session of the signed-in user (GET /session). */
export const sessionInfoSchema = z.object({
  id: z.string().describe('The session id (the access token’s `jti`)'),
  user_agent: z.string().describe('The browser’s User-Agent at sign-in'),
  ip: z.string().nullable().describe('The address of the latest request'),
  created_at: isoDateTime,
  last_seen_at: isoDateTime,
  current: z.boolean().describe('True for the session of the token that asks'),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

export const sessionListSchema = z.array(sessionInfoSchema);

export const sessionIdParams = z.strictObject({ id: z.uuid() });
