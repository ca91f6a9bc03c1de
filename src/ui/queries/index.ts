/**
 * Query options shared by the route table and the screens: navigation starts a screen's first
 * queries with these, and the screen reads the same entries from TanStack Query's cache.
 */
import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query';
import { documentKeys, getDocuments } from '../../services/api/documents';
import {
  getCompanyConfig,
  getProfile,
  listChecklists,
  listLogs,
  profileDetailKeys,
  sidebarKeys,
} from '../../services/api/profileDetail';
import { listProfiles, type ProfileListParams, profileKeys } from '../../services/api/profiles';
import {
  type CaseListParams,
  listCases,
  listQueues,
  profileCases,
  reviewKeys,
} from '../../services/api/review';
import { readView, toRequest } from '../screens/customers/useListParams';

// The desk's first request, for the route table's declaration (screens.ts loads nothing of the api itself: the
// sign-in page carries screens.ts, and the api modules bring zod, whose eval probe the CSP reports).
export { FIRST_CASES } from '../../services/api/review';

const isId = (id: number) => Number.isInteger(id) && id > 0;

/** The customers list (/customers) for one request. */
export const customersListQuery = (request: ProfileListParams) =>
  queryOptions({
    queryKey: profileKeys.list(request),
    queryFn: ({ signal }) => listProfiles(request, { signal }),
    placeholderData: keepPreviousData,
  });

/** The customers list for a URL query (what the list screen reads from it). */
export const customersListForSearch = (search: string) =>
  customersListQuery(toRequest(readView(new URLSearchParams(search))));

export const profileQuery = (id: number) =>
  queryOptions({
    queryKey: profileDetailKeys.profile(id),
    queryFn: ({ signal }) => getProfile(id, { signal }),
    enabled: isId(id),
  });

export const companyConfigQuery = (companyId: number) =>
  queryOptions({
    queryKey: profileDetailKeys.config(companyId),
    queryFn: ({ signal }) => getCompanyConfig(companyId, { signal }),
    enabled: companyId > 0,
    staleTime: 5 * 60_000,
  });

/**
 * A profile's check lists: the first card of its sidebar, so the profile shows once they are in (and its logs),
 * and the cards below never jump down under a pointer about to click.
 */
export const profileChecklistsQuery = (profileId: number) =>
  queryOptions({
    queryKey: sidebarKeys.checklists(profileId),
    queryFn: ({ signal }) => listChecklists(profileId, { signal }),
    enabled: isId(profileId),
  });

/** A profile's logs, newest first, a page at a time: the sidebar's second card, waited for like the first. */
export const profileLogsQuery = (profileId: number) =>
  infiniteQueryOptions({
    queryKey: profileDetailKeys.logs(profileId),
    queryFn: ({ pageParam, signal }) => listLogs(profileId, pageParam, { signal }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last.has_more ? last.results.at(-1)?.id : undefined),
    enabled: isId(profileId),
  });

/** A profile's documents, active and archived (the Documents tab and the document screen). */
export const documentsQuery = (profileId: number) =>
  queryOptions({
    queryKey: documentKeys.list(profileId),
    queryFn: ({ signal }) => getDocuments(profileId, { signal }),
    enabled: isId(profileId),
  });

/**
 * A profile's open review cases, for those who review: their panel sits above the profile's tabs, so the profile
 * shows once they are in, and the tabs never move under a pointer about to click.
 */
export const profileCasesQuery = (profileId: number, mayReview: boolean) =>
  queryOptions({
    queryKey: reviewKeys.ofProfile(profileId),
    queryFn: ({ signal }) => profileCases(profileId, { signal }),
    enabled: mayReview && isId(profileId),
  });

/** One page of the reviewers' desk; the navigation to /review starts the first one. */
export const reviewCasesQuery = (params: CaseListParams) =>
  queryOptions({
    queryKey: reviewKeys.list(params),
    queryFn: ({ signal }) => listCases(params, { signal }),
    placeholderData: keepPreviousData,
  });

/** The company's review queues (the desk's filter, its SLA column, the case panel). */
export const reviewQueuesQuery = () =>
  queryOptions({ queryKey: reviewKeys.queues(), queryFn: ({ signal }) => listQueues({ signal }) });
