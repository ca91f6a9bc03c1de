import { useCallback } from 'react';
import { useSearchParams } from 'wouter';

/** A change of the address's query: the next query from the one in the address now. */
export type QueryChange = (current: URLSearchParams) => URLSearchParams;

/**
 * The address's query (a list's filters, a screen's tab), and a way to change it in place (history replace).
 * A change is computed from the query in the address at that moment. wouter's own setter hands it the query of
 * the render it was made in, so two changes close together, with a render of the screen between them, could
 * build the second from a query without the first and drop it: two filters picked in quick succession kept
 * only the last (seen in the entities end-to-end test in CI).
 */
export function useAddressQuery(): [URLSearchParams, (change: QueryChange) => void] {
  const [query, setQuery] = useSearchParams();
  const changeQuery = useCallback(
    (change: QueryChange) => setQuery(change(new URLSearchParams(window.location.search)), { replace: true }),
    [setQuery],
  );
  return [query, changeQuery];
}
