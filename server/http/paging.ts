import type { FastifyRequest } from 'fastify';
import type { Page } from '#contract/common';

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
