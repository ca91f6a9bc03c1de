/** Pure helpers of the statistics views: durations, shares and the default ranges. */
import { addDays, type Bucket, dayOf } from '#contract/statsRange';

/** Call status codes the summaries name (docs/product/states.md#call-statuses). */
export const MISSED = 2;
export const COMPLETE = 3;

/** Whole seconds as hours, minutes and seconds (null stays null: no figure). */
export function durationParts(
  seconds: number | null,
):
  | { kind: 'seconds'; s: number }
  | { kind: 'minutes'; m: number; s: number }
  | { kind: 'hours'; h: number; m: number }
  | null {
  if (seconds === null || !Number.isFinite(seconds)) return null;
  const total = Math.round(seconds);
  if (total < 60) return { kind: 'seconds', s: total };
  if (total < 3600) return { kind: 'minutes', m: Math.floor(total / 60), s: total % 60 };
  return { kind: 'hours', h: Math.floor(total / 3600), m: Math.floor((total % 3600) / 60) };
}

/** `part` of `whole` in percent with one decimal (0 when the whole is 0). */
export const share = (part: number, whole: number): number =>
  whole === 0 ? 0 : Math.round((1000 * part) / whole) / 10;

/** The call report's default range: the last 30 days up to today. */
export function lastDays(now: Date, days = 30): { start: string; end: string } {
  const end = dayOf(now);
  return { start: addDays(end, -(days - 1)), end };
}

/** Label of a dashboard period: the month (`2026-05`) or the Monday of the week. */
export function periodLabel(period: string, bucket: Bucket, language: string): string {
  const date = new Date(`${period}T00:00:00Z`);
  return bucket === 'month'
    ? new Intl.DateTimeFormat(language, { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(date)
    : new Intl.DateTimeFormat(language, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(date);
}
