import type { FastifyRequest } from 'fastify';
import type { KeysetPage, Page } from '#contract/common';
import type { ListCount } from '../domain/counting';
import type { KeysetLinks, PageLink } from '../domain/keyset';

function pageUrl(request: FastifyRequest, limit: number, offset: number): string {
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  url.searchParams.set('limit', String(limit));
  if (offset > 0) url.searchParams.set('offset', String(offset));
  else url.searchParams.delete('offset');
  return url.toString();
}

/** A Django REST style page with absolute next/previous addresses. */
export function toPage<T>(
  request: FastifyRequest,
  paging: { limit: number; offset: number },
  count: number,
  results: T[],
): Page<T> {
  const { limit, offset } = paging;
  return {
    count,
    next: offset + limit < count ? pageUrl(request, limit, offset + limit) : null,
    previous: offset > 0 ? pageUrl(request, limit, Math.max(0, offset - limit)) : null,
    results,
  };
}

/** A keyset list's link: `limit`, the position as `offset` and the cursor that finds the page. */
function linkUrl(request: FastifyRequest, limit: number, link: PageLink): string | null {
  if (!link) return null;
  const url = new URL(pageUrl(request, limit, link.offset));
  if (link.cursor) url.searchParams.set('cursor', link.cursor);
  else url.searchParams.delete('cursor');
  return url.toString();
}

/**
 * The page of a keyset list (docs/decisions/0164-keyset-lists.md): `next`/`previous` carry a cursor next to the offset, and
 * `count_is_estimate` says whether `count` is exact or the planner's estimate of a long list.
 */
export function toKeysetPage<T>(
  request: FastifyRequest,
  limit: number,
  count: ListCount,
  links: KeysetLinks,
  results: T[],
): KeysetPage<T> {
  return {
    count: count.count,
    count_is_estimate: count.estimated,
    next: linkUrl(request, limit, links.next),
    previous: linkUrl(request, limit, links.previous),
    results,
  };
}
