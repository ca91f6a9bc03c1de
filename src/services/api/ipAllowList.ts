/** IP allow-list (/ip-whitelist): the list, the caller's address, add and delete. */
import type { IpAllowListEntry, IpAllowListMe } from '#contract/ipAllowList';
import { api, isApiError } from './http';

type Options = { signal?: AbortSignal };

export const ipAllowListKeys = {
  all: ['ipAllowList'] as const,
  list: () => ['ipAllowList', 'list'] as const,
  me: () => ['ipAllowList', 'me'] as const,
};

export function listAllowList({ signal }: Options = {}): Promise<IpAllowListEntry[]> {
  return api.get('ip-whitelist', { signal }).json<IpAllowListEntry[]>();
}

/** The address the server sees for this studio, and whether the list lets it in. */
export function getMyAddress({ signal }: Options = {}): Promise<IpAllowListMe> {
  return api.get('ip-whitelist/me', { signal }).json<IpAllowListMe>();
}

/** POST /ip-whitelist; `confirmLockout` only after the admin confirmed the lock-out warning. */
export function addAllowListEntry(
  entry: { address: string; label: string },
  confirmLockout = false,
): Promise<IpAllowListEntry> {
  const json = {
    address: entry.address.trim(),
    ...(entry.label.trim() ? { label: entry.label.trim() } : {}),
    ...(confirmLockout ? { confirm_lockout: true } : {}),
  };
  return api.post('ip-whitelist', { json }).json<IpAllowListEntry>();
}

/** DELETE /ip-whitelist/{id}; the lock-out confirmation travels as the query flag. */
export async function deleteAllowListEntry(id: number, confirmLockout = false): Promise<void> {
  await api.delete(`ip-whitelist/${id}`, confirmLockout ? { searchParams: { confirm_lockout: 'true' } } : {});
}

/** The caller's address named by a 409 of the lock-out guard, else null. */
export function lockoutAddressOf(error: unknown): string | null {
  if (!isApiError(error) || error.status !== 409) return null;
  const body = error.body as { address?: unknown } | null;
  return typeof body?.address === 'string' ? body.address : null;
}
