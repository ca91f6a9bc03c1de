/** Customer profiles (/profile). */
import type { KeysetPage } from '#contract/common';
import type { ProfileListQuery, ProfileSummary } from '#contract/profiles';
import { api } from './http';

type Options = { signal?: AbortSignal };

/** The list query as the customers screen keeps it (every field optional; absent means the default). */
export type ProfileListParams = Partial<ProfileListQuery>;

export const profileKeys = {
  all: ['profiles'] as const,
  list: (params: ProfileListParams) => ['profiles', 'list', params] as const,
};

export function listProfiles(
  params: ProfileListParams,
  { signal }: Options = {},
): Promise<KeysetPage<ProfileSummary>> {
  const searchParams = Object.fromEntries(
    Object.entries(params).filter(([, value]) => value !== undefined && value !== ''),
  ) as Record<string, string | number>;
  return api.get('profile', { searchParams, signal }).json<KeysetPage<ProfileSummary>>();
}
