/**
 * Supervisors watching live calls (docs/decisions/0208-supervisors-watch-calls.md): the grant, who watches,
 * whispers, and the company's notice to customers.
 */
import type { CallQuality } from '#contract/callQuality';
import type { CallWatcher, CallWatchSettings, WatchGrant, Whisper } from '#contract/callWatch';
import { api } from './http';

type Options = { signal?: AbortSignal };

export const callWatchKeys = {
  settings: ['call_watch'] as const,
  watching: ['videocall', 'watching'] as const,
  whispers: (callId: number) => ['videocall', callId, 'whispers'] as const,
  watchers: (callId: number) => ['videocall', callId, 'watchers'] as const,
};

/** POST /videocall/{id}/watch: starts watching, or takes up this user's open watch (a reload). */
export const startWatch = (callId: number, { signal }: Options = {}) =>
  api.post(`videocall/${callId}/watch`, { signal }).json<WatchGrant>();

export const stopWatch = async (callId: number) => {
  await api.delete(`videocall/${callId}/watch`);
};

/** The calls this user watches now (the wall after a reload). */
export const getWatching = ({ signal }: Options = {}) =>
  api.get('videocall/watching', { signal }).json<{ call_id: number; started_at: string }[]>();

export const getWatchers = (callId: number, { signal }: Options = {}) =>
  api.get(`videocall/${callId}/watchers`, { signal }).json<CallWatcher[]>();

export const getWhispers = (callId: number, { signal }: Options = {}) =>
  api.get(`videocall/${callId}/whispers`, { signal }).json<Whisper[]>();

export const sendWhisper = (callId: number, text: string) =>
  api.post(`videocall/${callId}/whispers`, { json: { text } }).json<Whisper>();

export const getCallWatchSettings = ({ signal }: Options = {}) =>
  api.get('call_watch', { signal }).json<CallWatchSettings>();

/** PUT /call_watch (Admins). */
export const setCallWatchSettings = (body: CallWatchSettings) =>
  api.put('call_watch', { json: body }).json<CallWatchSettings>();

/** Both sides' quality as the call's agent reports it (GET /videocall/{id}/quality): the watcher's badge. */
export const getCallQuality = (callId: number, { signal }: Options = {}) =>
  api.get(`videocall/${callId}/quality`, { signal }).json<CallQuality>();
