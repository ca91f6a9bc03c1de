/**
 * What the end screen offers when the call was poor: the status and the company's abort
 * reason matching the first issue (picture, then sound, then connection) of either side: the samples the agent
 * received, or the summary of what the customer received (the server's, told live).
 * Pure; the view shows it and sends STATUS.PICK / REASON.PICK when the agent takes it.
 */
import {
  callIssues,
  type QualityIssue,
  type QualitySample,
  type QualitySummary,
  summarizeQuality,
} from '#contract/callQualityRules';
import { CALL_STATUSES } from '#contract/constants';
import type { ProcedureReason } from '#contract/identProcedure';

export const CALL_STATUS_BAD_QUALITY = CALL_STATUSES.indexOf('BAD QUALITY');
export const CALL_STATUS_CONNECTION_ERROR = CALL_STATUSES.indexOf('CONNECTION ERROR');

export interface QualitySuggestion {
  issue: QualityIssue;
  /** BAD QUALITY for picture and sound, CONNECTION ERROR for the connection. */
  status: number;
  /** The company's abort reason of the same id ('picture', 'sound', 'connection'); null when it has none. */
  reason: ProcedureReason | null;
}

/**
 * The suggestion for a call's samples (the agent's) and the customer's summary, or null when neither side was
 * poor (or the call was too short to tell).
 */
export function qualitySuggestion(
  samples: readonly QualitySample[],
  abortReasons: readonly ProcedureReason[],
  customer: QualitySummary | null = null,
): QualitySuggestion | null {
  const issue = callIssues(summarizeQuality(samples), customer)[0];
  if (!issue) return null;
  return {
    issue,
    status: issue === 'connection' ? CALL_STATUS_CONNECTION_ERROR : CALL_STATUS_BAD_QUALITY,
    reason: abortReasons.find((reason) => reason.id === issue) ?? null,
  };
}

/** The reasons with the suggested one first (the others in the company's order). */
export function suggestedFirst(
  reasons: readonly ProcedureReason[],
  suggestion: QualitySuggestion | null,
): readonly ProcedureReason[] {
  const first = suggestion?.reason;
  if (!first) return reasons;
  return [first, ...reasons.filter((reason) => reason.id !== first.id)];
}
