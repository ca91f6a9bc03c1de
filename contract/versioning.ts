/**
 * Optimistic concurrency of profiles and documents (docs/server.md "Versions"). Every profile and
 * document carries a `version` that each write bumps; GET answers it as `version` and as a strong `ETag`
 * (`"3"`); a write sends the version the reviewer saw as `If-Match`. A write against a newer version is
 * refused with 409 `{ detail: VERSION_CONFLICT, current }`. Shared by the server and the studio (no zod).
 */

/** The 409 detail of a stale write. */
export const VERSION_CONFLICT = 'Changed by someone else meanwhile';

/** The detail of an If-Match header that is not an ETag of ours. */
export const BAD_IF_MATCH = 'If-Match must be the ETag of the object (e.g. "3")';

/** The ETag of a version: a strong entity tag, `"3"`. */
export const etagOf = (version: number): string => `"${version}"`;

/**
 * The version an If-Match header names: `"3"`, `W/"3"` or a bare `3`. `undefined` when there is no header
 * or it is `*` (no check); `null` when it cannot be read (the server answers 400).
 */
export function versionOfIfMatch(header: string | undefined | null): number | undefined | null {
  if (header === undefined || header === null) return undefined;
  const value = header.trim();
  if (value === '' || value === '*') return undefined;
  const match = /^(?:W\/)?"?(\d{1,9})"?$/.exec(value);
  if (!match?.[1]) return null;
  const version = Number(match[1]);
  return version >= 1 ? version : null;
}

/** The object a 409 answers: what it is now. */
export interface VersionConflictBody<T> {
  detail: string;
  current: T;
}
