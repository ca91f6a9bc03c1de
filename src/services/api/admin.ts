/** Administration (§7 /user, /group; the audit log): users, groups and the record of staff writes. */
import type { AuditEntry, AuditListQuery } from '../../contract/audit';
import type { Page } from '../../contract/common';
import type { Group } from '../../contract/companies';
import type { GroupCreateBody, GroupUpdateBody } from '../../contract/groups';
import type {
  ChangePasswordBody,
  User,
  UserCreateBody,
  UserListQuery,
  UserResetPasswordBody,
  UserUpdateBody,
} from '../../contract/users';
import { api } from './http';

type Options = { signal?: AbortSignal };

export type UserListParams = Partial<UserListQuery>;
export type AuditListParams = Partial<AuditListQuery>;

export const adminKeys = {
  users: ['admin', 'users'] as const,
  userList: (params: UserListParams) => ['admin', 'users', params] as const,
  groups: ['admin', 'groups'] as const,
  audit: ['admin', 'audit'] as const,
  auditList: (params: AuditListParams) => ['admin', 'audit', params] as const,
};

const searchParamsOf = (params: object) =>
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

export function listGroups({ signal }: Options = {}): Promise<Group[]> {
  return api.get('group', { signal }).json<Group[]>();
}

export function createGroup(body: GroupCreateBody, { signal }: Options = {}): Promise<Group> {
  return api.post('group', { json: body, signal }).json<Group>();
}

export function updateGroup(id: number, body: GroupUpdateBody, { signal }: Options = {}): Promise<Group> {
  return api.patch(`group/${id}`, { json: body, signal }).json<Group>();
}

export async function deleteGroup(id: number, { signal }: Options = {}): Promise<void> {
  await api.delete(`group/${id}`, { signal });
}

export function listAudit(params: AuditListParams, { signal }: Options = {}): Promise<Page<AuditEntry>> {
  return api.get('audit', { searchParams: searchParamsOf(params), signal }).json<Page<AuditEntry>>();
}

/** Every entry of a filter, page by page (at most `max`), for the CSV export. */
export async function allAudit(
  params: Omit<AuditListParams, 'limit' | 'offset'>,
  { signal, max = 10_000 }: Options & { max?: number } = {},
): Promise<AuditEntry[]> {
  const entries: AuditEntry[] = [];
  for (let offset = 0; offset < max; offset += 200) {
    const page = await listAudit({ ...params, limit: 200, offset }, { signal });
    entries.push(...page.results);
    if (!page.next || page.results.length === 0) break;
  }
  return entries.slice(0, max);
}
