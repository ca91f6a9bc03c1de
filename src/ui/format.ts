/**
 * The studio's one way of writing dates, times, numbers, amounts and durations: Intl, in the interface
 * language (i18next's). Every screen takes its formatters from here (`useFormat()`), so a delivery log, the
 * audit log and a profile write the same moment the same way ("Nov 25, 2026, 2:58 PM" / "25 Kas 2026 14:58").
 */
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { durationParts } from '../machines/statsFigures';

/** What is shown for a missing value. */
export const NO_VALUE = '–';

export interface Formats {
  language: string;
  /** A calendar day of a moment, in the viewer's time zone: "Nov 25, 2026". */
  date(value: string | Date): string;
  /** A moment to the minute: "Nov 25, 2026, 2:58 PM". */
  dateTime(value: string | Date): string;
  /** A moment to the second, for logs read by the technical reader: "Nov 25, 2026, 2:58:48 PM". */
  moment(value: string | Date): string;
  /** The time of day of a moment: "2:58 PM" / "14:58". */
  time(value: string | Date): string;
  /** A date without a time of day (a birth date, `YYYY-MM-DD`): the same day everywhere on Earth. */
  day(value: string | Date): string;
  /** A short day for chart axes: "Nov 25". */
  shortDay(value: string | Date): string;
  /** A count: "2,000" / "2.000". */
  number(value: number): string;
  /** An amount in minor units (cents): "$800.00" / "$800,00". */
  money(minor: number, currency: string): string;
  /** Seconds as "4 min 12 sec" / "4 dk. 12 sn." (a dash when there is no figure). */
  duration(seconds: number | null): string;
  /** A country by name, from its ISO 3166 code ("DE" → "Germany" / "Almanya"); anything else as it is. */
  country(code: string): string;
}

const asDate = (value: string | Date) => {
  if (value instanceof Date) return value;
  // A bare day is a calendar day, not midnight UTC.
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : new Date(value);
};

const cache = new Map<string, Formats>();

/** A value built on its first use, then kept. */
function once<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= build();
    return value;
  };
}

/**
 * The formatters of a language, cached, and each Intl formatter built on its first use: they are costly to build
 * (a list's first render used one of the dozen), and a screen of rows must not build them per row.
 */
export function formatsFor(language: string): Formats {
  const known = cache.get(language);
  if (known) return known;
  const dateTimeFormat = (options: Intl.DateTimeFormatOptions) =>
    once(() => new Intl.DateTimeFormat(language, options));
  const dateFormat = dateTimeFormat({ dateStyle: 'medium' });
  const dateAndTimeFormat = dateTimeFormat({ dateStyle: 'medium', timeStyle: 'short' });
  const momentFormat = dateTimeFormat({ dateStyle: 'medium', timeStyle: 'medium' });
  const timeFormat = dateTimeFormat({ timeStyle: 'short' });
  const dayFormat = dateTimeFormat({ dateStyle: 'medium', timeZone: 'UTC' });
  const shortDayFormat = dateTimeFormat({ day: 'numeric', month: 'short', timeZone: 'UTC' });
  const numberFormat = once(() => new Intl.NumberFormat(language));
  const unit = (name: 'hour' | 'minute' | 'second') =>
    once(() => new Intl.NumberFormat(language, { style: 'unit', unit: name, unitDisplay: 'short' }));
  const hours = unit('hour');
  const minutes = unit('minute');
  const seconds = unit('second');
  const regions = once(() => new Intl.DisplayNames([language], { type: 'region' }));
  const moneyFormats = new Map<string, Intl.NumberFormat>();
  const safe = (format: () => Intl.DateTimeFormat) => (value: string | Date) => {
    const date = asDate(value);
    return Number.isNaN(date.getTime()) ? String(value) : format().format(date);
  };
  const formats: Formats = {
    language,
    date: safe(dateFormat),
    dateTime: safe(dateAndTimeFormat),
    moment: safe(momentFormat),
    time: safe(timeFormat),
    day: safe(dayFormat),
    shortDay: safe(shortDayFormat),
    number: (value) => numberFormat().format(value),
    money: (minor, currency) => {
      let format = moneyFormats.get(currency);
      if (!format) {
        format = new Intl.NumberFormat(language, { style: 'currency', currency });
        moneyFormats.set(currency, format);
      }
      return format.format(minor / 100);
    },
    duration: (value) => {
      const parts = durationParts(value);
      if (!parts) return NO_VALUE;
      if (parts.kind === 'seconds') return seconds().format(parts.s);
      if (parts.kind === 'minutes') return `${minutes().format(parts.m)} ${seconds().format(parts.s)}`;
      return `${hours().format(parts.h)} ${minutes().format(parts.m)}`;
    },
    country: (code) => {
      if (!/^[A-Za-z]{2}$/.test(code)) return code;
      try {
        return regions().of(code.toUpperCase()) ?? code;
      } catch {
        return code;
      }
    },
  };
  cache.set(language, formats);
  return formats;
}

/** The formatters of the interface language; they change when the language does. */
export function useFormat(): Formats {
  const { i18n } = useTranslation();
  return useMemo(() => formatsFor(i18n.language), [i18n.language]);
}

/**
 * The date-fns pattern for typed dates in the interface language: the same medium date the studio shows
 * ("Nov 25, 2026" / "25 Kas 2026"), for Blueprint's date inputs.
 */
export const DATE_INPUT_PATTERN = 'PP';

/** A `YYYY-MM-DD` day as the local-midnight Date a date input shows (and back, `toDay`). */
export const toDate = (day: string): Date => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
};
export const toDay = (date: Date): string =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
