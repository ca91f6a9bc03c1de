/** If-Match on the write paths of profiles and documents (contract/versioning.ts). */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { BAD_IF_MATCH, etagOf, VERSION_CONFLICT, versionOfIfMatch } from '#contract/versioning';
import { type Seen, StaleVersionError } from '../domain/versions';
import { badRequest, HttpError } from '../errors';

/** The request headers of a versioned write (documented in OpenAPI; other headers pass untouched). */
export const ifMatchHeaders = z.looseObject({
  'if-match': z
    .string()
    .max(100)
    .optional()
    .describe(
      'The ETag (`"<version>"`) of the object as the caller last read it. A newer version answers 409 ' +
        '`{ detail, current }` and changes nothing. Without it the write is applied to whatever is there ' +
        '(API clients); the studio always sends it.',
    ),
});

/** The 409 answer: the detail and the object as it is now. */
export const conflictSchema = <T extends z.ZodType>(current: T) =>
  z
    .object({ detail: z.literal(VERSION_CONFLICT), current })
    .describe('The object changed since the caller read it (If-Match); nothing was changed.');

/** The version the caller saw (If-Match), or undefined when it sent none; 400 when unreadable. */
export function seenVersion(request: FastifyRequest): Seen {
  const header = request.headers['if-match'];
  const version = versionOfIfMatch(Array.isArray(header) ? header.join(',') : header);
  if (version === null) throw badRequest(BAD_IF_MATCH);
  return version;
}

/** Sets the ETag of the answered object. */
export function withEtag<T extends { version: number }>(reply: FastifyReply, object: T): T {
  reply.header('ETag', etagOf(object.version));
  return object;
}

/**
 * Runs a versioned write; a StaleVersionError becomes 409 with `current` (what `load` reads now, after
 * the write's transaction rolled back).
 */
export async function versioned<T>(
  run: () => Promise<T>,
  load: (stale: StaleVersionError) => Promise<unknown>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof StaleVersionError)) throw error;
    throw new HttpError(409, VERSION_CONFLICT, { current: await load(error) });
  }
}
