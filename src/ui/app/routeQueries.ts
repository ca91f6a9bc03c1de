/**
 * The query side of a navigation, in a chunk of its own with the query client: the sign-in page
 * does not load TanStack Query. The route table (routeTable.ts) loads it when a navigation or a preload needs
 * a screen's first queries.
 */
import type { QueryKey, UseQueryOptions } from '@tanstack/react-query';
import * as factories from '../queries';
import { queryClient } from './queryClient';

/** The factories a route declares its first queries with. */
export const routeQueries = factories;
export type RouteQueries = typeof factories;

/** What a route's first queries are computed from: the matched path's parameters, the query and the account. */
export interface RouteContext {
  params: Readonly<Record<string, string | undefined>>;
  /** The URL's query, without the '?'. */
  search: string;
  companyId: number;
  /** The account's permissions: a first query only some roles may make is declared for them alone. */
  permissions: readonly string[];
}

/**
 * A screen's first queries: query options from the shared factories (`q`, loaded with the query
 * client in a chunk of its own so the sign-in page does not carry it). Navigation starts them together with
 * the screen's chunk; the screen reads the same queries from the cache.
 */
export type DeclareQueries = (q: RouteQueries, context: RouteContext) => readonly unknown[];

type Options = UseQueryOptions<unknown, Error, unknown, QueryKey>;

/**
 * Starts the declared queries that have nothing in the cache yet (a cached one, even stale, shows at once;
 * the screen refreshes it). Resolves when they have answered (or failed: the screen shows the error), or
 * after `waitMs`, whichever comes first: a slow answer then shows the screen with its own loading state.
 */
export function startQueries(declare: DeclareQueries, context: RouteContext, waitMs: number): Promise<void> {
  const started: Promise<void>[] = [];
  for (const options of declare(factories, context) as Options[]) {
    if (options.enabled === false) continue;
    const cached = queryClient.getQueryState(options.queryKey);
    if (cached?.data !== undefined) continue;
    started.push(
      'initialPageParam' in options
        ? queryClient.prefetchInfiniteQuery(
            options as Parameters<typeof queryClient.prefetchInfiniteQuery>[0],
          )
        : queryClient.prefetchQuery(options as Parameters<typeof queryClient.prefetchQuery>[0]),
    );
  }
  if (started.length === 0) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, waitMs);
    void Promise.all(started).then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
