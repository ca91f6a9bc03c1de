import type { PGlite, QueryOptions } from '@electric-sql/pglite';

/**
 * Types that drizzle reads as PostgreSQL's text (it parses dates itself): timestamp, timestamptz,
 * interval, date, and arrays of numeric, timestamp, timestamptz, interval and date.
 */
const RAW_TEXT_TYPES = [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182];
const rawText = (value: string) => value;
const PROBE = '2026-01-01 00:00:00+00';

/** A parser table that reads drizzle's raw-text types as text, as `readDatesAsText` makes a client's. */
export const RAW_TEXT_PARSERS: Readonly<Record<number, typeof rawText>> = Object.fromEntries(
  RAW_TEXT_TYPES.map((oid) => [oid, rawText]),
);

/**
 * Makes the client itself read drizzle's raw-text types as text (call once it is ready: PGlite sets
 * its array parsers while starting). Only drizzle uses this client, and it asks for the same anyway.
 */
export function readDatesAsText(client: PGlite): void {
  Object.assign(client.parsers, RAW_TEXT_PARSERS);
}

/**
 * Drizzle passes its raw-text parsers with every query, and PGlite merges them into a copy of its
 * whole parser table (hundreds of types) for each result: about 0.1 ms a query. When every given
 * parser returns its text unchanged and the client's table (`parsers`) already does the same for that type,
 * the result is the same without them: the options without them, else null.
 */
export function withoutRedundantParsers(
  parsers: Readonly<Record<number, unknown>>,
  options: QueryOptions | undefined,
): QueryOptions | undefined | null {
  if (!options?.parsers) return options;
  for (const [oid, parser] of Object.entries(options.parsers)) {
    if (parsers[Number(oid)] !== rawText || parser(PROBE, Number(oid)) !== PROBE) return null;
  }
  const { parsers: _, ...rest } = options;
  return rest;
}
