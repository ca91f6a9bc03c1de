/**
 * The comparison behind the conflict dialog: when a write is refused with 409 because someone
 * else changed the profile or document meanwhile, the studio shows, field by field, what it was when the
 * reviewer opened it (`before`), what it is now (`theirs`) and what the reviewer wants (`mine`), and which
 * of those clash. Re-applying sends only the fields the reviewer changed, so the other reviewer's changes to
 * the fields they left alone are kept. Pure: no request, no DOM.
 */
import { CONTENT_FIELDS } from '#contract/constants';
import type { Document } from '#contract/documents';
import type { Profile } from '#contract/profiles';

/** How to read each compared field of an object, as text (null: empty). */
export type FieldReaders<T> = Readonly<Record<string, (value: T) => string | null>>;

/** The values of the fields a reviewer wants, by field name (only the fields they touch). */
export type Wanted = Readonly<Record<string, string | null>>;

export interface FieldChange {
  field: string;
  before: string | null;
  theirs: string | null;
  /** What the reviewer wants in this field, when their change touches it. */
  mine: string | null;
  touchedByMe: boolean;
  /** Both changed the field, to different values: re-applying replaces theirs. */
  clash: boolean;
}

const blank = (value: string | null | undefined): string | null => {
  const text = value?.trim() ?? '';
  return text === '' ? null : text;
};

/** The fields the reviewer changed compared with what they opened (their edit, reduced to its real changes). */
export function myChanges<T>(readers: FieldReaders<T>, base: T, wanted: Wanted): Wanted {
  return Object.fromEntries(
    Object.entries(wanted).filter(([field, value]) => {
      const read = readers[field];
      return read ? blank(read(base)) !== blank(value) : false;
    }),
  );
}

/**
 * The fields someone else changed between `base` (what the reviewer saw) and `current` (the 409's
 * `current`), plus the fields the reviewer changes that now differ from the current value. Ordered as the
 * readers are.
 */
export function changesMeanwhile<T>(
  readers: FieldReaders<T>,
  base: T,
  current: T,
  wanted: Wanted = {},
): FieldChange[] {
  const mine = myChanges(readers, base, wanted);
  const changes: FieldChange[] = [];
  for (const [field, read] of Object.entries(readers)) {
    const before = blank(read(base));
    const theirs = blank(read(current));
    const touchedByMe = field in mine;
    const wants = touchedByMe ? blank(mine[field]) : null;
    if (before === theirs) continue;
    changes.push({
      field,
      before,
      theirs,
      mine: wants,
      touchedByMe,
      clash: touchedByMe && wants !== theirs,
    });
  }
  return changes;
}

/** What a 409 answer says is there now, when it is one (`{ detail, current }`). */
export function conflictCurrent<T>(error: unknown): T | null {
  if (typeof error !== 'object' || error === null) return null;
  const { status, body } = error as { status?: unknown; body?: unknown };
  if (status !== 409 || typeof body !== 'object' || body === null || !('current' in body)) return null;
  const current = (body as { current: unknown }).current;
  return typeof current === 'object' && current !== null ? (current as T) : null;
}

/** The compared fields of a profile (the edit form's, then status and risk). */
export const PROFILE_FIELDS: FieldReaders<Profile> = {
  name: (p) => p.name,
  gender: (p) => p.gender,
  email: (p) => p.email,
  phone: (p) => p.phone,
  nationality: (p) => p.nationality,
  date_of_birth: (p) => p.date_of_birth,
  province: (p) => p.address.province,
  city: (p) => p.address.city,
  street: (p) => p.address.street,
  status: (p) => p.status,
  reject_reason: (p) => p.reject_reason,
  risk_level: (p) => p.risk_level,
};

/** The compared fields of a document: its decision, archive flag, type, fields and alerts. */
export const DOCUMENT_FIELDS: FieldReaders<Document> = {
  status: (d) => d.status,
  review_reason: (d) => d.review_reason,
  archived: (d) => String(d.archived),
  type: (d) => d.type?.name ?? null,
  ...Object.fromEntries(
    CONTENT_FIELDS.map((field) => [field, (d: Document) => d.content[field] ?? null] as const),
  ),
  alerts: (d) =>
    d.alerts
      .filter((a) => a.overridden)
      .map((a) => a.name)
      .join(', '),
};
