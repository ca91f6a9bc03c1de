/** Video calls (docs/product/api.md): join links, availability, call statuses, questions, answers, notes and recordings. */
import type { AgentStatusName } from '#contract/constants';
import type { CallAnswer, CallEntry, ProfileUrl, VideoCall } from '#contract/videocalls';
import { api } from './http';
import { progressFetch } from './progressFetch';

type Options = { signal?: AbortSignal };

export interface CallStatusEntry {
  code: number;
  name: string;
  labels: { 'en-US': string; tr: string };
}
export interface CallQuestion {
  id: number;
  question: string;
  sort_order: number;
}

export const callKeys = {
  statusList: ['videocall', 'status_list'] as const,
  questions: (callId: number, lang: string) => ['videocall', callId, 'questions', lang] as const,
  /** Every language's list of a call's answers and notes (invalidated together after a save). */
  entriesOf: (callId: number) => ['videocall', callId, 'answers'] as const,
  entries: (callId: number, lang: string) => ['videocall', callId, 'answers', lang] as const,
};

/** POST /profile/url: a join link for the profile's customer. */
export const createJoinLink = (profile: number) =>
  api.post('profile/url', { json: { profile } }).json<ProfileUrl>();

/** The caller's availability, or (admins) another agent's. */
export const setAgentStatus = (status: AgentStatusName, user?: number) =>
  api
    .post('videocall/agent_status', { json: user === undefined ? { status } : { status, user } })
    .json<{ status: AgentStatusName }>();

export const getCallStatusList = ({ signal }: Options = {}) =>
  api.get('videocall/status_list', { signal }).json<CallStatusEntry[]>();

export const getCallQuestions = (callId: number, lang: 'EN' | 'TR', { signal }: Options = {}) =>
  api.get(`videocall/${callId}/questions`, { searchParams: { lang }, signal }).json<CallQuestion[]>();

/** The answers and notes given during a call, oldest first, with the question texts in `lang`. */
export const getCallEntries = (callId: number, lang: 'EN' | 'TR', { signal }: Options = {}) =>
  api.get(`videocall/${callId}/answers`, { searchParams: { lang }, signal }).json<CallEntry[]>();

export const answerCallQuestion = (callId: number, question: number, value: string) =>
  api.post(`videocall/${callId}/answers`, { json: { question, value } }).json<CallAnswer>();

export const addCallNote = (callId: number, note: string, question: number | null = null) =>
  api.post(`videocall/${callId}/notes`, { json: { note, question } }).json<CallAnswer>();

/** GET /videocall/{id}: one call as the server holds it (the studio checks its own call after a reconnect). */
export const getVideoCall = (callId: number, { signal }: Options = {}) =>
  api.get(`videocall/${callId}`, { signal }).json<VideoCall>();

/** POST /videocall/{id}/close (manage_calls): closes another agent's call with a status and a reason. */
export const closeCall = (callId: number, status: number, reason: string) =>
  api.post(`videocall/${callId}/close`, { json: { status, reason } }).json<VideoCall>();

/** PUT /videocall/{callID}: the status the call ended with. */
export const setCallStatus = (callId: number, status: number, outcomeReason: string | null = null) =>
  api
    .put(`videocall/${callId}`, {
      json: outcomeReason === null ? { status } : { status, outcome_reason: outcomeReason },
    })
    .json<VideoCall>();

/**
 * PATCH /videocall/{id} with the webm recording as `file`. Chromium labels recordings
 * `video/webm;codecs=vp8,opus`, which the server's multipart parser cannot read: the blob is re-typed
 * (browser-tests note, pitfall 1).
 */
export const uploadRecording = (
  callId: number,
  recording: Blob,
  { signal, onProgress }: Options & { onProgress?: (fraction: number) => void } = {},
) => {
  const form = new FormData();
  form.append('file', new Blob([recording], { type: 'video/webm' }), `call-${callId}.webm`);
  return api
    .patch(`videocall/${callId}`, {
      body: form,
      signal,
      timeout: 30 * 60_000,
      retry: 0,
      ...(onProgress ? { fetch: progressFetch(onProgress) } : {}),
    })
    .json<VideoCall>();
};

/** DELETE /videocall/{id}: deletes the call's recording. */
export const deleteRecording = async (callId: number) => {
  await api.delete(`videocall/${callId}`);
};

/** POST /user/socket_token with the access token given explicitly (docs/product/api.md). */
export const getSocketToken = (access: string) =>
  api
    .post('user/socket_token', { json: { studio: true }, headers: { Authorization: `Bearer ${access}` } })
    .json<{ token: string }>();
