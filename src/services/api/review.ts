/** The reviewers' desk (`/review/*`): cases, assignment, decisions, four-eyes, waiting, queues. */
import type { KeysetPage } from '#contract/common';
import type {
  DecisionAnswer,
  ReasonCode,
  ReviewCase,
  ReviewCaseDetail,
  ReviewDecision,
  Reviewer,
  ReviewQueue,
} from '#contract/review';
import { api, isApiError } from './http';

type Options = { signal?: AbortSignal };

export type ReviewView = 'all' | 'mine' | 'unassigned' | 'overdue' | 'escalated' | 'awaiting_second_review';

export interface CaseListParams {
  view: ReviewView;
  queue: number | null;
  ordering: 'due_at' | '-due_at';
  limit: number;
  offset: number;
}

/** The page sizes of the desk's list, and the request it opens with (the navigation starts it). */
export const CASE_PAGE_SIZES = [25, 50, 100] as const;
export const FIRST_CASES: CaseListParams = {
  view: 'all',
  queue: null,
  ordering: 'due_at',
  limit: CASE_PAGE_SIZES[0],
  offset: 0,
};

export const reviewKeys = {
  all: ['review'] as const,
  cases: () => ['review', 'cases'] as const,
  list: (params: CaseListParams) => ['review', 'cases', 'list', params] as const,
  ofProfile: (profileId: number) => ['review', 'cases', 'profile', profileId] as const,
  detail: (id: number) => ['review', 'cases', 'detail', id] as const,
  queues: () => ['review', 'queues'] as const,
  next: () => ['review', 'next'] as const,
  reviewers: () => ['review', 'reviewers'] as const,
  reasonCodes: () => ['review', 'reason_codes'] as const,
};

export function listCases(params: CaseListParams, { signal }: Options = {}): Promise<KeysetPage<ReviewCase>> {
  const searchParams: Record<string, string | number> = {
    ordering: params.ordering,
    limit: params.limit,
    offset: params.offset,
  };
  if (params.view !== 'all') searchParams.view = params.view;
  if (params.queue !== null) searchParams.queue = params.queue;
  return api.get('review/cases', { searchParams, signal }).json<KeysetPage<ReviewCase>>();
}

/** The open cases of one profile (the profile screen's case panel). */
export function profileCases(profileId: number, { signal }: Options = {}): Promise<KeysetPage<ReviewCase>> {
  return api
    .get('review/cases', { searchParams: { profile: profileId, limit: 20 }, signal })
    .json<KeysetPage<ReviewCase>>();
}

export function getCase(id: number, { signal }: Options = {}): Promise<ReviewCaseDetail> {
  return api.get(`review/cases/${id}`, { signal }).json<ReviewCaseDetail>();
}

export function listQueues({ signal }: Options = {}): Promise<ReviewQueue[]> {
  return api.get('review/queues', { signal }).json<ReviewQueue[]>();
}

export function listReviewers({ signal }: Options = {}): Promise<Reviewer[]> {
  return api.get('review/reviewers', { signal }).json<Reviewer[]>();
}

export async function getReasonCodes({ signal }: Options = {}): Promise<ReasonCode[]> {
  return (await api.get('review/reason_codes', { signal }).json<{ codes: ReasonCode[] }>()).codes;
}

/** `user` absent: take the case yourself. */
export function assignCase(id: number, user?: number): Promise<ReviewCase> {
  return api
    .post(`review/cases/${id}/assign`, { json: user === undefined ? {} : { user } })
    .json<ReviewCase>();
}

export function unassignCase(id: number): Promise<ReviewCase> {
  return api.post(`review/cases/${id}/unassign`).json<ReviewCase>();
}

export function moveCase(id: number, queue: number): Promise<ReviewCase> {
  return api.post(`review/cases/${id}/move`, { json: { queue } }).json<ReviewCase>();
}

export function snoozeCase(id: number, until: string, note: string | null = null): Promise<ReviewCase> {
  return api.post(`review/cases/${id}/snooze`, { json: { until, note } }).json<ReviewCase>();
}

export function awaitCustomer(id: number, note: string | null = null): Promise<ReviewCase> {
  return api.post(`review/cases/${id}/await_customer`, { json: { note } }).json<ReviewCase>();
}

export function resumeCase(id: number): Promise<ReviewCase> {
  return api.post(`review/cases/${id}/resume`).json<ReviewCase>();
}

export function decideCase(
  id: number,
  body: { decision: ReviewDecision; reason_code: string | null; note: string | null },
): Promise<DecisionAnswer> {
  return api.post(`review/cases/${id}/decision`, { json: body }).json<DecisionAnswer>();
}

export function confirmDecision(id: number, note: string | null = null): Promise<ReviewCase> {
  return api.post(`review/cases/${id}/confirm`, { json: { note } }).json<ReviewCase>();
}

export function returnDecision(id: number, note: string): Promise<ReviewCase> {
  return api.post(`review/cases/${id}/return`, { json: { note } }).json<ReviewCase>();
}

/** GET /review/next: the case Next case would give me now, not assigned; null when none waits. */
export async function peekNextCase({ signal }: Options = {}): Promise<ReviewCase | null> {
  try {
    return await api.get('review/next', { signal }).json<ReviewCase>();
  } catch (error) {
    if (isApiError(error) && error.status === 404) return null;
    throw error;
  }
}

/** POST /review/next: the next case of my queues, assigned to me; rejects with a 404 ApiError when none waits. */
export function nextCase(): Promise<ReviewCase> {
  return api.post('review/next').json<ReviewCase>();
}
