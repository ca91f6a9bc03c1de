/**
 * Navigations in a transition: the URL changes at once, the screen on show stays (with the 3px
 * loading bar) until everything the next route needs is in — its chunks, namespaces and first answers
 * (routeTable.ts) — and then the next screen shows complete, without a fallback. Back and forward restore the
 * scroll position the page had; the data comes from TanStack Query's cache.
 */
import {
  createContext,
  type ReactNode,
  startTransition,
  useContext,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useTransition,
} from 'react';
import { type BaseLocationHook, Router } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { LoadingBar } from './LoadingBar';
import { preloadRoute } from './preload';

interface Shown {
  path: string;
  search: string;
  /** How the browser got there: a push or replace of the studio, or the browser's back/forward. */
  via: 'push' | 'replace' | 'pop' | 'start';
}

const read = (via: Shown['via']): Shown => ({
  path: window.location.pathname,
  search: window.location.search,
  via,
});

const ShownContext = createContext<Shown | null>(null);

/** A navigation to another screen is under way: the screen on show is about to be replaced. */
const LeavingContext = createContext(false);

/**
 * Whether the screen on show is being left (the next screen's chunks and first answers are on their way). A part
 * whose unmounting sets state, as a Blueprint popover's target does, can step aside now: unmounted in the
 * commit that replaces the screen, it would make React run every effect of the new screen (its subscriptions
 * and a dozen requests) before that screen's first paint.
 */
export const useLeaving = () => useContext(LeavingContext);

/** wouter's location hook over the shown location (not the URL, which is ahead during a navigation). */
const useShownLocation: BaseLocationHook = () => {
  const shown = useContext(ShownContext);
  return [shown?.path ?? window.location.pathname, navigate];
};

const useShownSearch = () => useContext(ShownContext)?.search ?? window.location.search;

/** The location on show (path and query with its '?'): during a navigation the URL is already ahead of it. */
export function useShownUrl(): { path: string; search: string } {
  const shown = useContext(ShownContext);
  return shown ?? { path: window.location.pathname, search: window.location.search };
}

const HISTORY_EVENTS = ['pushState', 'replaceState', 'popstate'] as const;

/** Scroll positions by URL, kept while the page is open (back/forward restore them). */
const scrollPositions = new Map<string, number>();
const urlOf = (shown: Pick<Shown, 'path' | 'search'>) => `${shown.path}${shown.search}`;
const pathOf = (url: string) => new URL(url, window.location.origin).pathname;

export function NavigationRouter({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState<Shown>(() => read('start'));
  const [pending, startNavigation] = useTransition();
  const latest = useRef(0);
  const shownUrl = useRef(urlOf(shown));

  // A layout effect, and a catch-up: a Redirect of the first render changes the URL in its own layout effect,
  // before this one runs.
  useLayoutEffect(() => {
    const onChange = (event: Event) => {
      const via: Shown['via'] =
        event.type === 'popstate' ? 'pop' : event.type === 'pushState' ? 'push' : 'replace';
      const next = read(via);
      const id = ++latest.current;
      // The same screen with another query (filters, tabs, paging): shown as it is, in a transition.
      if (next.path === pathOf(shownUrl.current)) {
        startTransition(() => setShown(next));
        return;
      }
      startNavigation(async () => {
        await preloadRoute(urlOf(next));
        // A later navigation wins; it shows where the browser is then.
        if (id !== latest.current) return;
        startTransition(() => setShown(read(via)));
      });
    };
    for (const type of HISTORY_EVENTS) window.addEventListener(type, onChange);
    if (urlOf(read('start')) !== shownUrl.current) onChange(new Event('replaceState'));
    return () => {
      for (const type of HISTORY_EVENTS) window.removeEventListener(type, onChange);
    };
  }, []);

  // The studio restores scroll positions itself: the browser would try before the screen is back.
  useEffect(() => {
    const previous = window.history.scrollRestoration;
    window.history.scrollRestoration = 'manual';
    const remember = () => scrollPositions.set(shownUrl.current, window.scrollY);
    window.addEventListener('scroll', remember, { passive: true });
    return () => {
      window.removeEventListener('scroll', remember);
      window.history.scrollRestoration = previous;
    };
  }, []);

  useLayoutEffect(() => {
    const before = shownUrl.current;
    shownUrl.current = urlOf(shown);
    if (shown.via === 'pop') window.scrollTo(0, scrollPositions.get(shownUrl.current) ?? 0);
    else if (shown.via === 'push' && pathOf(before) !== shown.path) window.scrollTo(0, 0);
  }, [shown]);

  return (
    <ShownContext.Provider value={shown}>
      {pending && <LoadingBar />}
      <LeavingContext.Provider value={pending}>
        <Router hook={useShownLocation} searchHook={useShownSearch}>
          {children}
        </Router>
      </LeavingContext.Provider>
    </ShownContext.Provider>
  );
}
