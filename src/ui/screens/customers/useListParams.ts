import { useCallback, useMemo } from 'react';
import { PROFILE_STATUSES, type ProfileStatus, RISK_LEVELS, type RiskLevel } from '#contract/constants';
import type { ProfileListParams } from '../../../services/api/profiles';
import { useAddressQuery } from '../../app/useAddressQuery';

export const PAGE_SIZES = [20, 50, 100] as const;
export const DEFAULT_ORDERING = '-created_at';

/** The customers list's search, filters, sort and page, kept in the URL so a view can be shared and reloaded. */
export interface ListView {
  search: string;
  status: ProfileStatus | '';
  risk_level: RiskLevel | '';
  source: string;
  created_after: string;
  created_before: string;
  ordering: string;
  page: number;
  size: number;
}

const oneOf = <T extends string>(value: string | null, allowed: readonly T[]): T | '' =>
  allowed.includes(value as T) ? (value as T) : '';

const isDate = (value: string | null) => (value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : '');

export function readView(query: URLSearchParams): ListView {
  const size = Number(query.get('size'));
  const page = Number(query.get('page'));
  return {
    search: query.get('search')?.slice(0, 200) ?? '',
    status: oneOf(query.get('status'), PROFILE_STATUSES),
    risk_level: oneOf(query.get('risk_level'), RISK_LEVELS),
    source: query.get('source')?.slice(0, 50) ?? '',
    created_after: isDate(query.get('created_after')),
    created_before: isDate(query.get('created_before')),
    ordering: /^-?[a-z_]+$/.test(query.get('ordering') ?? '')
      ? (query.get('ordering') as string)
      : DEFAULT_ORDERING,
    page: Number.isInteger(page) && page > 0 ? page : 1,
    size: PAGE_SIZES.includes(size as (typeof PAGE_SIZES)[number]) ? size : PAGE_SIZES[0],
  };
}

/** The request for a view: paging becomes limit/offset; empty filters are left out. */
export function toRequest(view: ListView): ProfileListParams {
  return {
    search: view.search || undefined,
    status: view.status || undefined,
    risk_level: view.risk_level || undefined,
    source: view.source || undefined,
    created_after: view.created_after || undefined,
    created_before: view.created_before || undefined,
    ordering: view.ordering,
    limit: view.size,
    offset: (view.page - 1) * view.size,
  };
}

/**
 * The cursor of page `page` when it is next to the shown one (its next/previous link), else none (record
 * 0164): the adjacent page is a keyset read however deep; a page jump reads by offset.
 */
export function cursorFor(
  page: number,
  view: ListView,
  links: { next: string | null; previous: string | null } | undefined,
): string | undefined {
  const link = page === view.page + 1 ? links?.next : page === view.page - 1 ? links?.previous : null;
  const cursor = link ? new URL(link).searchParams.get('cursor') : null;
  return cursor ?? undefined;
}

/** A view as a key that tells whether a remembered cursor still finds its page (same filters, sort, size, page). */
export const viewKey = (view: ListView): string => JSON.stringify(view);

export function useListView(): [ListView, (change: Partial<ListView>) => void] {
  const [query, changeQuery] = useAddressQuery();
  const view = useMemo(() => readView(query), [query]);
  const update = useCallback(
    (change: Partial<ListView>) => {
      changeQuery((current) => {
        const next = { ...readView(current), page: 1, ...change };
        const params = new URLSearchParams();
        for (const [key, value] of Object.entries(next)) {
          const isDefault =
            value === '' ||
            (key === 'page' && value === 1) ||
            (key === 'size' && value === PAGE_SIZES[0]) ||
            (key === 'ordering' && value === DEFAULT_ORDERING);
          if (!isDefault) params.set(key, String(value));
        }
        return params;
      });
    },
    [changeQuery],
  );
  return [view, update];
}
