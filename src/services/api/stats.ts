/** Statistics (docs/product/api.md): the detailed call report and the dashboard's figures (bitool). */
import type { Bitool, CallReport } from '#contract/stats';
import { api } from './http';

type Options = { signal?: AbortSignal };

/** A range of UTC days `YYYY-MM-DD`, both included. */
export interface DayRange {
  start: string;
  end: string;
}

export const statsKeys = {
  report: (range: DayRange) => ['stats', 'report', range.start, range.end] as const,
  bitool: (range: DayRange | null) => ['stats', 'bitool', range?.start ?? null, range?.end ?? null] as const,
};

/** GET /videocall/report (start_date, end_date). */
export const getCallReport = (range: DayRange, { signal }: Options = {}) =>
  api
    .get('videocall/report', { searchParams: { start_date: range.start, end_date: range.end }, signal })
    .json<CallReport>();

/** GET /bitool; without a range the server answers the last 6 months (docs/product/constants.md). */
export const getBitool = (range: DayRange | null, { signal }: Options = {}) =>
  api
    .get('bitool', {
      searchParams: range ? { start_date: range.start, end_date: range.end } : {},
      signal,
    })
    .json<Bitool>();
