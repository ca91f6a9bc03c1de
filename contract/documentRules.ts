/**
 * Rules of the document write paths shared by the server and the studio, without zod (the studio's bundles
 * stay zod-free): upload limits, accepted file kinds, reason lengths and the date rules of field overrides.
 */
import { CONTENT_FIELDS } from './constants';

type ContentField = (typeof CONTENT_FIELDS)[number];

/**
 * Largest page file of an upload (docs/decisions/0027-document-upload-and-review.md): a phone photo or a
 * scanned PDF fits.
 */
export const MAX_PAGE_BYTES = 15 * 1024 * 1024;
export const MAX_PAGE_MB = MAX_PAGE_BYTES / 1024 / 1024;
/** Most pages in one upload. */
export const MAX_PAGES = 10;

/** The file kinds a page may be, recognised by their first bytes (the declared type is never trusted). */
export const PAGE_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'application/pdf'] as const;
export type PageContentType = (typeof PAGE_CONTENT_TYPES)[number];

/** The kind of a file from its first bytes (at least 12 are needed for WebP), or null. */
export function sniffContentType(head: Uint8Array): PageContentType | null {
  const starts = (bytes: number[], offset = 0) =>
    head.length >= offset + bytes.length && bytes.every((b, i) => head[offset + i] === b);
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  return null;
}

/** A reject reason and an alert override reason: at least 10 characters after trimming (docs/product/validation.md). */

/** Fields of a document that hold dates (YYYY-MM-DD). */
export const DATE_FIELDS = [
  'BirthDate',
  'ExpiryDate',
  'IssueDate',
] as const satisfies readonly ContentField[];
export const isDateField = (field: string): boolean => (DATE_FIELDS as readonly string[]).includes(field);
/** Longest text of an overridden field. */
export const FIELD_MAX_LENGTH = 200;

/** Why an overridden field is refused. */
export type FieldProblem = 'invalidDate' | 'futureDate' | 'expiryBeforeIssue' | 'tooLong';

/** A real calendar date written YYYY-MM-DD, from 1900 on. */
export function isRealDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1900 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day
  );
}

/**
 * Checks a document's fields after an override (blank values count as cleared). Dates must be real dates;
 * a birth or issue date cannot be after `today` (YYYY-MM-DD, UTC); an expiry date cannot be before the issue
 * date. Answers the problem of each refused field; an empty object means the fields may be saved.
 */
export function fieldProblems(
  fields: Partial<Record<ContentField, string | null>>,
  today: string,
): Partial<Record<ContentField, FieldProblem>> {
  const problems: Partial<Record<ContentField, FieldProblem>> = {};
  for (const field of CONTENT_FIELDS) {
    const value = fields[field]?.trim();
    if (!value) continue;
    if (value.length > FIELD_MAX_LENGTH) problems[field] = 'tooLong';
    else if (isDateField(field)) {
      if (!isRealDate(value)) problems[field] = 'invalidDate';
      else if (field !== 'ExpiryDate' && value > today) problems[field] = 'futureDate';
    }
  }
  const issue = fields.IssueDate?.trim();
  const expiry = fields.ExpiryDate?.trim();
  if (issue && expiry && !problems.IssueDate && !problems.ExpiryDate && expiry < issue)
    problems.ExpiryDate = 'expiryBeforeIssue';
  return problems;
}

/** Server details of the document write paths (their English texts; the studio shows them as given). */
export const DOCUMENT_DETAILS = {
  reasonTooShort: 'Reject reason must be at least 10 characters',
  overrideReasonTooShort: 'Override reason must be at least 10 characters',
  noPages: 'Add at least one page',
  tooManyPages: `At most ${MAX_PAGES} pages can be uploaded at once`,
  pageTooLarge: `Each page must be at most ${MAX_PAGE_MB} MB`,
  pageType: 'Pages must be JPEG, PNG, WebP or PDF files',
  unknownType: 'Unknown document type',
  unknownProfile: 'Unknown profile',
  noFields: 'Send at least one field',
  alreadyOverridden: 'This alert is already overridden',
  idMismatch: 'The id in the body does not match the address',
} as const;

/** The detail of one refused field, e.g. `ExpiryDate: the date is before the issue date`. */
export const FIELD_PROBLEM_TEXT: Record<FieldProblem, string> = {
  invalidDate: 'not a real date (YYYY-MM-DD)',
  futureDate: 'the date cannot be in the future',
  expiryBeforeIssue: 'the expiry date is before the issue date',
  tooLong: `at most ${FIELD_MAX_LENGTH} characters`,
};
