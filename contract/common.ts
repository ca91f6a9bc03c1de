import { z } from 'zod';
import {
  AGENT_STATUSES,
  CALL_STATUSES,
  DOCUMENT_CLASSES,
  PERMISSIONS,
  PROFILE_STATUSES,
  RISK_LEVELS,
  ROLES,
  SERVICES,
} from './constants';

import { isIsoDate } from './statsRange';

export * from './constants';

/** Every error body of the server (docs/product/errors.md). */
export const errorSchema = z.object({ detail: z.string() });
export type ApiErrorBody = z.infer<typeof errorSchema>;

export const permissionSchema = z.enum(PERMISSIONS);

export const roleSchema = z.enum(ROLES);

export const serviceSchema = z.enum(SERVICES);

export const profileStatusSchema = z.enum(PROFILE_STATUSES);

export const riskLevelSchema = z.enum(RISK_LEVELS);

export const documentClassSchema = z.enum(DOCUMENT_CLASSES);
export type DocumentClass = z.infer<typeof documentClassSchema>;

export type CallStatusName = (typeof CALL_STATUSES)[number];
export const callStatusCodeSchema = z
  .number()
  .int()
  .min(0)
  .max(CALL_STATUSES.length - 1);

export const agentStatusSchema = z.enum(AGENT_STATUSES);
export type AgentStatus = z.infer<typeof agentStatusSchema>;

/** Django REST style page. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });
}
export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

/**
 * A keyset list's page (docs/decisions/0164-keyset-lists.md): `count` is exact up to the server's counting cap, above it the
 * planner's estimate (`count_is_estimate`, the studio writes "about N"); `next`/`previous` carry a cursor.
 */
export function keysetPageSchema<T extends z.ZodType>(item: T) {
  return pageSchema(item).extend({
    count_is_estimate: z.boolean().describe('true: `count` is an estimate (the list is long), not exact'),
  });
}
export interface KeysetPage<T> extends Page<T> {
  count_is_estimate: boolean;
}

/** limit/offset query of paged lists. */
export const pagingQuery = {
  limit: z.coerce.number().int().min(1).max(200).default(20),
  offset: z.coerce.number().int().min(0).default(0),
};

/**
 * Paging of the keyset lists (docs/decisions/0164-keyset-lists.md): the `cursor` of a page's `next`/`previous` address, checked
 * by the server (a forged one is a 400); `offset` still works without one.
 */
export const keysetPagingQuery = {
  ...pagingQuery,
  cursor: z
    .string()
    .min(1)
    .max(2_048)
    .regex(/^[A-Za-z0-9_-]+$/, 'Expected the cursor of a next or previous address')
    .optional(),
};

/** The largest id a PostgreSQL integer column holds (every id column of server/db/schema.ts is `integer`). */
export const MAX_ID = 2_147_483_647;
const ID_DESCRIPTION = `An id: a positive integer up to ${MAX_ID}`;

/** An id in a JSON body: a positive integer that fits the id columns (2^31 − 1), not merely 2^53. */
export const idSchema = z.number().int().positive().max(MAX_ID).describe(ID_DESCRIPTION);
/** The same id written as text: a path parameter, a query string, a multipart field. */
export const idText = z.coerce.number().int().positive().max(MAX_ID).describe(ID_DESCRIPTION);

/** Path parameter `{id}`: a positive integer that fits the id columns. */
export const idParams = z.strictObject({ id: idText });

/**
 * Control characters (C0, DEL, C1) have no place in what people type, and PostgreSQL text cannot hold NUL.
 * Written as character classes so the OpenAPI `pattern` says the same.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const NO_CONTROL = /^[^\u0000-\u001f\u007f-\u009f]*$/;
/** The same with tabs and line breaks (CR, LF) allowed. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const NO_CONTROL_BUT_LINES = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$/;
export const CONTROL_CHARACTERS_MESSAGE = 'Must not contain control characters';
export const CONTROL_CHARACTERS_IN_LINES_MESSAGE =
  'Must not contain control characters other than line breaks and tabs';

/** One line of text (names, labels, e-mail addresses, codes, search words): no control character. */
export const lineText = z.string().regex(NO_CONTROL, CONTROL_CHARACTERS_MESSAGE);
/** Text of several lines (notes, reasons, messages): line breaks and tabs, no other control character. */
export const multilineText = z.string().regex(NO_CONTROL_BUT_LINES, CONTROL_CHARACTERS_IN_LINES_MESSAGE);

/** Free text of a query (search): no control character, trimmed, at most 200 characters. */
export const searchText = lineText.trim().max(200);

/** A query flag written as true/false. */
export const queryBoolean = z.enum(['true', 'false']).transform((v) => v === 'true');

export const isoDateTime = z.string().describe('ISO 8601 date-time');
export const isoDate = z.string().describe('ISO 8601 date (YYYY-MM-DD)');

export const CALENDAR_DATE_MESSAGE = 'Expected a real date YYYY-MM-DD';
/**
 * A day that exists, written YYYY-MM-DD: month 1–12, a day of that month (leap years counted), year 1 or
 * later (PostgreSQL has no year 0). `2026-13-01`, `2026-02-30` and `0000-00-00` are refused.
 */
export const calendarDate = z.iso
  .date({ error: CALENDAR_DATE_MESSAGE, abort: true })
  .refine(isIsoDate, CALENDAR_DATE_MESSAGE)
  .describe('ISO 8601 date (YYYY-MM-DD)');
/** A calendar date, or a date-time with an offset whose day is a calendar date (a filter's bound). */
export const calendarDateOrTime = calendarDate.or(
  z.iso.datetime({ offset: true }).refine((value) => isIsoDate(value.slice(0, 10)), CALENDAR_DATE_MESSAGE),
);
