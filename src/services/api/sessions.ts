/** The signed-in user's server-side sessions (GET /session, DELETE /session/{id}). */
import type { SessionInfo } from '#contract/sessions';
import { api } from './http';

type Options = { signal?: AbortSignal };

export type { SessionInfo };

export const sessionKeys = {
  list: (server: string, userId: number) => ['sessions', server, userId] as const,
};

export function listSessions({ signal }: Options = {}): Promise<SessionInfo[]> {
  return api.get('session', { signal }).json<SessionInfo[]>();
}

/** Ends one of the user's sessions: its token gets 401 from now on. */
export async function endSession(id: string, { signal }: Options = {}): Promise<void> {
  await api.delete(`session/${encodeURIComponent(id)}`, { signal });
}
