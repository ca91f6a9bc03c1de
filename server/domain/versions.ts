/**
 * The version check of the write paths. A write that names the version it saw (If-Match) and
 * finds another one throws `StaleVersionError`; the route answers 409 with the object as it is now. The
 * rows are locked (`FOR UPDATE`) before the check, and the UPDATE itself is conditional
 * (`WHERE version = $seen`), so of two concurrent writes with the same version exactly one passes.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { documents, profiles } from '../db/schema';

export class StaleVersionError extends Error {
  override readonly name = 'StaleVersionError';
  constructor(
    readonly kind: 'profile' | 'document' | 'ident_procedure',
    readonly id: number,
  ) {
    super(`${kind} ${id} changed meanwhile`);
  }
}

/** The version the caller saw, when it sent one (undefined: no check, last writer wins). */
export type Seen = number | undefined;

/** Throws when the caller saw another version than the row holds. */
export function checkVersion(kind: 'profile' | 'document', row: { id: number; version: number }, seen: Seen) {
  if (seen !== undefined && row.version !== seen) throw new StaleVersionError(kind, row.id);
}

/** `version + 1`, for the `set` of a conditional UPDATE. */
export const nextProfileVersion = sql`${profiles.version} + 1`;
export const nextDocumentVersion = sql`${documents.version} + 1`;

/** The WHERE of a conditional UPDATE: this row, still at the version read under the lock. */
export const profileAt = (row: { id: number; version: number }) =>
  and(eq(profiles.id, row.id), eq(profiles.version, row.version));
export const documentAt = (row: { id: number; version: number }) =>
  and(eq(documents.id, row.id), eq(documents.version, row.version));

/** Throws when a conditional UPDATE touched no row (someone else's write got there first). */
export function mustHaveUpdated(kind: 'profile' | 'document', id: number, rows: readonly unknown[]) {
  if (rows.length === 0) throw new StaleVersionError(kind, id);
}

/** Bumps a profile's version for a write that changes what belongs to it but not its own row. */
export async function touchProfile(tx: Tx, row: { id: number; version: number }): Promise<number> {
  const updated = await tx
    .update(profiles)
    .set({ version: nextProfileVersion })
    .where(profileAt(row))
    .returning({ version: profiles.version });
  mustHaveUpdated('profile', row.id, updated);
  return row.version + 1;
}

/** Bumps a document's version for a write that changes what belongs to it (an alert). */
export async function touchDocument(tx: Tx, row: { id: number; version: number }): Promise<number> {
  const updated = await tx
    .update(documents)
    .set({ version: nextDocumentVersion })
    .where(documentAt(row))
    .returning({ version: documents.version });
  mustHaveUpdated('document', row.id, updated);
  return row.version + 1;
}
