/**
 * Rules of the Documents tab (docs/product/README.md, docs/product/entities.md, docs/product/constants.md): grouping by class, the expiry flags and the client-side
 * checks of an upload and of field overrides. Pure: no fetch, no DOM.
 */
import { type CONTENT_FIELDS, DOCUMENT_CLASSES } from '#contract/constants';
import { fieldProblems, MAX_PAGE_BYTES, MAX_PAGES, PAGE_CONTENT_TYPES } from '#contract/documentRules';

export { fieldProblems, MAX_PAGE_BYTES, MAX_PAGES };
export type DocumentClass = (typeof DOCUMENT_CLASSES)[number];
export type ContentField = (typeof CONTENT_FIELDS)[number];

/** What the rules need of a document. */
export interface DocumentFacts {
  document_class: string;
  expiry_date: string | null;
  created_at: string;
  content: Partial<Record<string, string | null>>;
}

/** Documents grouped by `document_class` in their order (ID, DL, SE, …, XX); unknown classes last. */
export function groupByClass<T extends { document_class: string }>(
  documents: readonly T[],
): { documentClass: string; documents: T[] }[] {
  const rank = (c: string) => {
    const index = (DOCUMENT_CLASSES as readonly string[]).indexOf(c);
    return index === -1 ? DOCUMENT_CLASSES.length : index;
  };
  const groups = new Map<string, T[]>();
  for (const document of documents) {
    const group = groups.get(document.document_class) ?? [];
    group.push(document);
    groups.set(document.document_class, group);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([documentClass, list]) => ({ documentClass, documents: list }));
}

/** A utility bill must be no older than 3 months (docs/product/constants.md). */
export const UTILITY_BILL_MAX_MONTHS = 3;

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** The same calendar day `months` earlier (clamped to the month's last day), as YYYY-MM-DD (UTC). */
export function monthsBefore(today: Date, months: number): string {
  const year = today.getUTCFullYear();
  const month = today.getUTCMonth() - months;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return dayOf(new Date(Date.UTC(year, month, Math.min(today.getUTCDate(), last))));
}

export interface DocumentFlags {
  /** The expiry date (the document's, or the extracted ExpiryDate) is before today. */
  expired: boolean;
  /** A utility bill (UB) issued (or, without an issue date, uploaded) more than 3 months ago. */
  staleBill: boolean;
}

export function documentFlags(document: DocumentFacts, today: Date): DocumentFlags {
  const todayDay = dayOf(today);
  const expiry = document.expiry_date ?? document.content.ExpiryDate ?? null;
  const expired = !!expiry && /^\d{4}-\d{2}-\d{2}$/.test(expiry) && expiry < todayDay;
  let staleBill = false;
  if (document.document_class === 'UB') {
    const issued = document.content.IssueDate;
    const since = issued && /^\d{4}-\d{2}-\d{2}$/.test(issued) ? issued : document.created_at.slice(0, 10);
    staleBill = since < monthsBefore(today, UTILITY_BILL_MAX_MONTHS);
  }
  return { expired, staleBill };
}

/** Why a chosen page file is refused before sending. */
export type PageFileProblem = 'type' | 'size' | 'empty';

const EXTENSIONS = /\.(jpe?g|png|webp|pdf)$/i;

/** A page file the studio accepts: JPEG, PNG, WebP or PDF (by type or, without one, by name), 1 byte to the limit. */
export function pageFileProblem(file: { name: string; type: string; size: number }): PageFileProblem | null {
  const typeOk = file.type
    ? (PAGE_CONTENT_TYPES as readonly string[]).includes(file.type)
    : EXTENSIONS.test(file.name);
  if (!typeOk) return 'type';
  if (file.size === 0) return 'empty';
  if (file.size > MAX_PAGE_BYTES) return 'size';
  return null;
}

/** The `accept` list of the file input. */
export const PAGE_ACCEPT = [...PAGE_CONTENT_TYPES, '.jpg', '.jpeg', '.png', '.webp', '.pdf'].join(',');

/** Today's date (UTC) as the field rules want it. */
export const todayOf = (now: Date) => dayOf(now);
