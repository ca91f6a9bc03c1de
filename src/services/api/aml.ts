/** AML (docs/product/api.md): the result, running a check, approving, and one history entry with its records. */
import type { AmlCheck, AmlHistoryEntry, AmlResult } from '#contract/aml';
import { api } from './http';
import { stepKeys } from './profileDetail';

type Options = { signal?: AbortSignal };

export type AmlHistoryDetail = AmlHistoryEntry & { records: Record<string, unknown>[] };

export const amlKeys = {
  /** The same key as the verification steps' AML read, so a check refreshes both. */
  result: stepKeys.aml,
  entry: (profileId: number, checkId: number) =>
    ['profiles', 'detail', profileId, 'aml', 'history', checkId] as const,
};

export const getAmlResult = (profileId: number, { signal }: Options = {}) =>
  api.get(`profile/${profileId}/aml`, { signal }).json<AmlResult>();

/** GET /profile/{id}/aml/check runs a new screening (it may take a moment with a full list). */
export const runAmlCheck = (profileId: number, { signal }: Options = {}) =>
  api.get(`profile/${profileId}/aml/check`, { signal, timeout: 60_000 }).json<AmlCheck>();

export const approveAml = (profileId: number, { signal }: Options = {}) =>
  api.patch(`profile/${profileId}/aml/approve`, { signal }).json<AmlResult>();

export const getAmlHistoryEntry = (profileId: number, checkId: number, { signal }: Options = {}) =>
  api.get(`profile/${profileId}/aml/history/${checkId}`, { signal }).json<AmlHistoryDetail>();
