/** Users (/user): the signed-in user and their two-factor authentication. */
import type { Page } from '#contract/common';
import type {
  ChangePasswordBody,
  User,
  UserCreateBody,
  UserListQuery,
  UserResetPasswordBody,
  UserUpdateBody,
} from '#contract/users';
import { api, publicApi } from './http';

type Options = { signal?: AbortSignal };

/** A session other than the active account's: the forced two-factor setup's restricted token. */
export interface Session {
  server: string;
  token: string;
}

const client = (session?: Session) =>
  session ? publicApi(session.server).extend({ headers: { Authorization: `Bearer ${session.token}` } }) : api;

export const userKeys = {
  all: ['user'] as const,
  detail: (id: number) => ['user', id] as const,
};

export function getUser(id: number, { signal }: Options = {}): Promise<User> {
  return api.get(`user/${id}`, { signal }).json<User>();
}

/** POST /user/{id}/otp_reset: a new secret (disable false) or two-factor off (disable true). */
export async function resetOtp(
  id: number,
  body: { password: string; disable: boolean },
  { signal, session }: Options & { session?: Session } = {},
): Promise<string | null> {
  const answer = await client(session)
    .post(`user/${id}/otp_reset`, { json: body, signal })
    .json<{ base32_secret?: string | null }>();
  return answer.base32_secret ?? null;
}

/** POST /user/{id}/otp_verify: turns two-factor on when the code matches the secret. */
export async function verifyOtp(
  id: number,
  body: { base32_secret: string; code: string; password: string },
  { signal, session }: Options & { session?: Session } = {},
): Promise<void> {
  await client(session).post(`user/${id}/otp_verify`, { json: body, signal });
}

/** The otpauth:// address an authenticator app reads from the QR code. */
export function otpauthUri(email: string, secret: string, issuer = 'Verification Studio'): string {
  const label = encodeURIComponent(`${issuer}:${email}`);
  return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=6&period=30`;
}

/** POST /user/{id}/photo: the user's own sign-in photo (a JPEG data URL), confirmed with the password. */
export function uploadAuthPhoto(
  id: number,
  body: { password: string; photo: string },
  { signal }: Options = {},
): Promise<User> {
  return api.post(`user/${id}/photo`, { json: { id, ...body }, signal, timeout: 60_000 }).json<User>();
}

// ---------------------------------------------------------------- administration

export type UserListParams = Partial<UserListQuery>;

/** A list query without empty values. */
export const searchParamsOf = (params: object) =>
  Object.fromEntries(
    Object.entries(params).filter(([, value]) => value !== undefined && value !== ''),
  ) as Record<string, string | number>;

export function listUsers(params: UserListParams, { signal }: Options = {}): Promise<Page<User>> {
  return api.get('user', { searchParams: searchParamsOf(params), signal }).json<Page<User>>();
}

/** POST /user: invites the user (an e-mail with a link to set their password). */
export function createUser(body: UserCreateBody, { signal }: Options = {}): Promise<User> {
  return api.post('user', { json: body, signal }).json<User>();
}

/** PATCH /user/{id}: edit, enable / disable, force or reset two-factor, or one's own name and phone. */
export function updateUser(id: number, body: UserUpdateBody, { signal }: Options = {}): Promise<User> {
  return api.patch(`user/${id}`, { json: body, signal }).json<User>();
}

/** POST /user/{id}/reset_password: the user's next sign-in asks for a new password. */
export function forcePasswordReset(
  id: number,
  body: UserResetPasswordBody,
  { signal }: Options = {},
): Promise<User> {
  return api.post(`user/${id}/reset_password`, { json: body, signal }).json<User>();
}

/** POST /user/{id}/change_password: one's own password, with the current one. */
export async function changePassword(id: number, body: ChangePasswordBody, { signal }: Options = {}) {
  await api.post(`user/${id}/change_password`, { json: body, signal });
}
