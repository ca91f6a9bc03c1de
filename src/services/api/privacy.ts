/** A person's data: who read it, all of it as one ZIP, its erasure (docs/evidence.md). */
import type { AccessKind, AccessPage, Erasure } from '#contract/privacy';
import { saveBlob } from '../download';
import { api } from './http';

type Options = { signal?: AbortSignal };

export const privacyKeys = {
  access: (profileId: number) => ['profile', profileId, 'access_log'] as const,
  erasure: (profileId: number) => ['profile', profileId, 'erasure'] as const,
  company: (query: CompanyAccessQuery) => ['access_log', query] as const,
};

/** The company-wide access log's filters and page: `before` is the previous page's `next_before`. */
export interface CompanyAccessQuery {
  limit: number;
  before?: number;
  user?: number;
  profile?: number;
  kind?: AccessKind;
}

/** GET /access_log (Admins): a page of the company's reads of personal data, newest first. */
export const listCompanyAccess = (query: CompanyAccessQuery, { signal }: Options = {}) =>
  api
    .get('access_log', {
      searchParams: Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)),
      signal,
    })
    .json<AccessPage>();

/** GET /profile/{id}/access_log (Admins): a page of the reads of the person's data, newest first. */
export const getAccessLog = (profileId: number, before: number | undefined, { signal }: Options = {}) =>
  api
    .get(`profile/${profileId}/access_log`, {
      searchParams: before === undefined ? { limit: 50 } : { limit: 50, before },
      signal,
    })
    .json<AccessPage>();

/** Downloads everything held about the person and saves it as `profile-<id>-export.zip`. Not retried: audited. */
export async function downloadProfileExport(profileId: number, { signal }: Options = {}): Promise<void> {
  const blob = await api.get(`profile/${profileId}/export`, { signal, retry: 0, timeout: 300_000 }).blob();
  saveBlob(`profile-${profileId}-export.zip`, blob);
}

export const getErasure = (profileId: number, { signal }: Options = {}) =>
  api.get(`profile/${profileId}/erasure`, { signal }).json<Erasure>();

/** POST /profile/{id}/erasure (Admins): erases what may go now and schedules the rest. */
export const requestErasure = (profileId: number, reason: string) =>
  api.post(`profile/${profileId}/erasure`, { json: { reason }, retry: 0 }).json<Erasure>();

/** Tells the access log that the user took away a report the studio drew from the profile. */
export const noteReportExported = (
  profileId: number,
  body: { format: 'pdf' | 'csv'; report: 'basic' | 'expanded' | 'list' },
) => api.post(`profile/${profileId}/access_log`, { json: body, retry: 0 });
