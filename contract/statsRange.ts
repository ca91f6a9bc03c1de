/**
 * Date ranges of the statistics (GET /videocall/report, GET /bitool), without zod so the studio can use
 * them too. Dates are calendar days `YYYY-MM-DD` in UTC; a range includes both its days.
 */
import { DAY_MS } from './time';

/** The longest range the detailed call report accepts, in days (both ends included): one leap year. */
export const REPORT_MAX_DAYS = 366;
/** The longest range the dashboard (bitool) accepts, in days: about two years. */
export const BITOOL_MAX_DAYS = 732;
/** The dashboard shows the last 6 months by default. */
export const BITOOL_DEFAULT_MONTHS = 6;
/** Ranges up to this many days are bucketed by ISO week (Monday), longer ones by month. */
export const WEEKLY_UP_TO_DAYS = 92;

export const RANGE_MESSAGES = {
  invalidDate: 'Enter a real date as YYYY-MM-DD',
  startAfterEnd: 'start_date must not be after end_date',
  reportTooLong: `The range can span at most ${REPORT_MAX_DAYS} days`,
  bitoolTooLong: `The range can span at most ${BITOOL_MAX_DAYS} days`,
} as const;

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Whether `value` is a real calendar date written `YYYY-MM-DD` (2026-02-30 is not, nor is the year 0). */
export function isIsoDate(value: string): boolean {
  if (!DATE_PATTERN.test(value) || value < '0001') return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return Number.isFinite(time) && new Date(time).toISOString().slice(0, 10) === value;
}

/** Midnight UTC of a `YYYY-MM-DD` day, in milliseconds. */
export const dayStart = (day: string): number => Date.parse(`${day}T00:00:00Z`);

/** The `YYYY-MM-DD` day (UTC) of a time. */
export const dayOf = (time: number | Date): string => new Date(time).toISOString().slice(0, 10);

/** `day` moved by `days` (may be negative). */
export const addDays = (day: string, days: number): string => dayOf(dayStart(day) + days * DAY_MS);

/** Days in a range, both ends included (1 for a single day). */
export const daysInRange = (start: string, end: string): number =>
  Math.round((dayStart(end) - dayStart(start)) / DAY_MS) + 1;

/** Every day of the range, in order. */
export function eachDay(start: string, end: string): string[] {
  const count = daysInRange(start, end);
  return Array.from({ length: Math.max(0, count) }, (_, i) => addDays(start, i));
}

/** `day` moved back by whole months; the day of month is kept, or the month's last day when it has fewer. */
export function monthsBefore(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const monthIndex = y * 12 + (m - 1) - months;
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return dayOf(Date.UTC(year, month, Math.min(d, lastDay)));
}

/**
 * The dashboard's default range (the last 6 months): from the same day 6 months before `today` to
 * `today`, e.g. 2026-05-22 … 2026-11-22.
 */
export function lastMonths(today: string, months = BITOOL_DEFAULT_MONTHS): { start: string; end: string } {
  return { start: monthsBefore(today, months), end: today };
}

export type Bucket = 'week' | 'month';

/** The bucket of a dashboard range: weeks up to WEEKLY_UP_TO_DAYS days, months beyond. */
export const bucketOf = (start: string, end: string): Bucket =>
  daysInRange(start, end) <= WEEKLY_UP_TO_DAYS ? 'week' : 'month';

/** First day of the bucket holding `day` (Monday of its ISO week, or the 1st of its month). */
export function bucketStart(day: string, bucket: Bucket): string {
  if (bucket === 'month') return `${day.slice(0, 7)}-01`;
  const weekday = (new Date(dayStart(day)).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return addDays(day, -weekday);
}

/** The first day of every bucket that meets the range, in order. */
export function eachBucket(start: string, end: string, bucket: Bucket): string[] {
  const periods: string[] = [];
  let period = bucketStart(start, bucket);
  while (period <= end) {
    periods.push(period);
    period = bucket === 'week' ? addDays(period, 7) : monthsBefore(period, -1); // the 1st stays the 1st
  }
  return periods;
}
