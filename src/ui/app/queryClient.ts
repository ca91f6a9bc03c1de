import { QueryClient } from '@tanstack/react-query';

/** Cached server data of the CRUD screens (DESIGN: TanStack Query over the api modules). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false },
  },
});
