/** Administration (/group; the audit log): groups and the record of staff writes. Users: users.ts. */
import type { AuditEntry, AuditListQuery } from '#contract/audit';
import type { KeysetPage } from '#contract/common';
import type { Group } from '#contract/companies';
import type { GroupCreateBody, GroupUpdateBody } from '#contract/groups';
import { api } from './http';
import { searchParamsOf, type UserListParams } from './users';

type Options = { signal?: AbortSignal };

export type AuditListParams = Partial<AuditListQuery>;

export const adminKeys = {
  users: ['admin', 'users'] as const,
  userList: (params: UserListParams) => ['admin', 'users', params] as const,
  groups: ['admin', 'groups'] as const,
  audit: ['admin', 'audit'] as const,
  auditList: (params: AuditListParams) => ['admin', 'audit', params] as const,
};

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

export function listAudit(
  params: AuditListParams,
  { signal }: Options = {},
): Promise<KeysetPage<AuditEntry>> {
  return api.get('audit', { searchParams: searchParamsOf(params), signal }).json<KeysetPage<AuditEntry>>();
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
