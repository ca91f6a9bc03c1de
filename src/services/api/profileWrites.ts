/** Changes to a profile (docs/product/api.md): status, details, notes, checklist answers, summary; new profiles; support. */
import type { ProfileStatus } from '#contract/constants';
import type { Note } from '#contract/notes';
import type { Profile } from '#contract/profiles';
import type { StatusAnswer } from '../../machines/profileStatus.machine';
import { api, ifMatch } from './http';

type Options = { signal?: AbortSignal };

export interface ProfileChanges {
  name?: string | null;
  gender?: string | null;
  email?: string | null;
  phone?: string | null;
  nationality?: string | null;
  date_of_birth?: string | null;
  address?: { province: string | null; city: string | null; street: string | null };
}

/** PATCH /profile/{id}/status with the version the screen holds (If-Match; 409 when it is stale). */
export const changeStatus = (
  {
    profileId,
    status,
    reject_reason,
    version,
  }: { profileId: number; status: ProfileStatus; reject_reason: string | null; version: number },
  { signal }: Options = {},
) =>
  api
    .patch(`profile/${profileId}/status`, {
      json: reject_reason ? { status, reject_reason } : { status },
      headers: ifMatch(version),
      signal,
    })
    .json<StatusAnswer>();

/** PATCH /profile/{id} with the version the edit started from (If-Match; 409 when it is stale). */
export const updateProfile = (
  id: number,
  changes: ProfileChanges,
  version: number,
  { signal }: Options = {},
) => api.patch(`profile/${id}`, { json: changes, headers: ifMatch(version), signal }).json<Profile>();

export const createProfile = (
  body: { id_card_number: string; name: string | null; gender: string | null },
  { signal }: Options = {},
) => api.post('profile', { json: body, signal }).json<Profile>();

export const addNote = (id: number, note: string, { signal }: Options = {}) =>
  api.post(`profile/${id}/note`, { json: { note }, signal }).json<Note>();

export const askSummary = (id: number, question: string, { signal }: Options = {}) =>
  api
    .post(`profile/${id}/generate_summary`, { json: { question }, signal, timeout: 60_000 })
    .json<{ summary: string }>();

/** POST /support/contact-us (the help desk of the profile sidebar). */
export const contactSupport = (
  body: { email: string; message: string; page: string },
  { signal }: Options = {},
) => api.post('support/contact-us', { json: body, signal }).json<{ id: number }>();

const QUICK_ADD_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Quick add: `qa_` and 10 to 20 random letters and digits. */
export function quickAddId(random: () => number = Math.random): string {
  const length = 10 + Math.floor(random() * 11);
  let suffix = '';
  for (let i = 0; i < length; i++)
    suffix += QUICK_ADD_ALPHABET[Math.floor(random() * QUICK_ADD_ALPHABET.length)];
  return `qa_${suffix}`;
}
