/**
 * The reviewers' desk seen by Admins and supervisors: four-eyes rules, queues, reason
 * codes, reviewers, and the desk's metrics with their CSV. Their reads are the desk's (`./review`).
 */
import type { FourEyesRules, QueueBody, ReasonCode, Reviewer, ReviewQueue } from '#contract/review';
import type { ReviewMetrics } from '#contract/reviewMetrics';
import { saveBlob } from '../download';
import { api } from './http';
import type { DayRange } from './stats';

type Options = { signal?: AbortSignal };

export const reviewAdminKeys = {
  rules: ['review', 'rules'] as const,
  queues: ['review', 'queues'] as const,
  reasonCodes: ['review', 'reason_codes'] as const,
  reviewers: ['review', 'reviewers'] as const,
  metrics: (range: DayRange) => ['review', 'metrics', range.start, range.end] as const,
};

/** GET /review/rules (Admins). */
export const getReviewRules = ({ signal }: Options = {}) =>
  api.get('review/rules', { signal }).json<FourEyesRules>();

/** PUT /review/rules (Admins): all four rules. */
export const setReviewRules = (rules: FourEyesRules) =>
  api.put('review/rules', { json: rules }).json<FourEyesRules>();

/** PUT /review/queues/{id} (Admins): SLA hours and auto-assignment. */
export const setReviewQueue = (id: number, body: QueueBody) =>
  api.put(`review/queues/${id}`, { json: body }).json<ReviewQueue>();

/** PUT /review/reason_codes (Admins): the whole list replaces the stored one. */
export const setReasonCodes = (codes: ReasonCode[]) =>
  api.put('review/reason_codes', { json: { codes } }).json<{ codes: ReasonCode[] }>();

/** PUT /review/reviewers/{id}: Admins set capacity and away; a reviewer their own away status. */
export const setReviewer = (id: number, body: { capacity?: number; away?: boolean }) =>
  api.put(`review/reviewers/${id}`, { json: body }).json<Reviewer>();

const rangeParams = (range: DayRange) => ({ from: range.start, to: range.end });

/** GET /review/metrics (from, to). */
export const getReviewMetrics = (range: DayRange, { signal }: Options = {}) =>
  api.get('review/metrics', { searchParams: rangeParams(range), signal }).json<ReviewMetrics>();

/** GET /review/metrics.csv, saved as a file. */
export async function downloadReviewMetrics(range: DayRange): Promise<void> {
  const blob = await api.get('review/metrics.csv', { searchParams: rangeParams(range) }).blob();
  saveBlob(`review-metrics-${range.start}-${range.end}.csv`, blob);
}
