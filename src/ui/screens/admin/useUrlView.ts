import { useCallback, useMemo } from 'react';
import { useAddressQuery } from '../../app/useAddressQuery';

/**
 * A list's view (search, filters, sort, page) kept in the URL beside other parameters (the admin tab):
 * `read` turns the query into a view, defaults are left out of the URL, and any change but paging goes
 * back to page 1.
 */
export function useUrlView<V extends { page: number }>(
  read: (query: URLSearchParams) => V,
  defaults: V,
): [V, (change: Partial<V>) => void] {
  const [query, changeQuery] = useAddressQuery();
  const view = useMemo(() => read(query), [query, read]);
  const update = useCallback(
    (change: Partial<V>) => {
      changeQuery((current) => {
        const next = { ...read(current), page: 1, ...change };
        const params = new URLSearchParams(current);
        for (const [key, value] of Object.entries(next)) {
          if ((value as unknown) === '' || value === defaults[key as keyof V]) params.delete(key);
          else params.set(key, String(value));
        }
        return params;
      });
    },
    [changeQuery, read, defaults],
  );
  return [view, update];
}

export const PAGE_SIZES = [20, 50, 100] as const;

export function pageOf(query: URLSearchParams): { page: number; size: number } {
  const page = Number(query.get('page'));
  const size = Number(query.get('size'));
  return {
    page: Number.isInteger(page) && page > 0 ? page : 1,
    size: PAGE_SIZES.includes(size as (typeof PAGE_SIZES)[number]) ? size : PAGE_SIZES[0],
  };
}
