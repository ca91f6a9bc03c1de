import i18next from 'i18next';
import { type ComponentType, createElement, lazy, useState } from 'react';
import { loadChunk } from '../../services/chunks';
import { loadNamespaces, type Namespace } from '../../services/i18n';
import type { DeclareQueries } from './routeQueries';

export interface ScreenNeeds {
  /** The first queries, started by the navigation (and by a preload on intent). */
  queries?: DeclareQueries;
}

/** A promise that tells whether it has settled (status fields as React sets them on the promises it reads). */
type Tracked<T> = Promise<T> & { status?: 'pending' | 'fulfilled' | 'rejected'; value?: T; reason?: unknown };

function track<T>(promise: Promise<T>): Tracked<T> {
  const tracked = promise as Tracked<T>;
  tracked.status = 'pending';
  tracked.then(
    (value) => {
      tracked.status = 'fulfilled';
      tracked.value = value;
    },
    (reason: unknown) => {
      tracked.status = 'rejected';
      tracked.reason = reason;
    },
  );
  return tracked;
}

/** i18next started (main.tsx): a route's chunk can start before, its namespaces only after. */
const i18nStarted = () =>
  i18next.isInitialized
    ? Promise.resolve()
    : new Promise<void>((resolve) => i18next.on('initialized', () => resolve()));

export type LazyScreen = ComponentType & {
  /** Starts (once) the chunk and the namespaces; a failed load starts again. Resolves when both are in. */
  preload: () => Promise<unknown>;
  readonly needs: ScreenNeeds;
  readonly displayName: string;
};

/**
 * A screen in its own chunk, loaded with the chunk time-out and errors of docs/product/errors.md#chunk-loading, together with the text
 * namespaces it uses beyond the ones loaded at start, and (optional) the first queries it reads.
 * Unlike React.lazy alone the chunk can be started before the screen renders (navigation, hover), and a
 * screen whose chunk is in renders at once, without suspending (no fallback, no reveal throttle).
 */
export function lazyScreen<M extends Record<string, unknown>, K extends keyof M & string>(
  load: () => Promise<M>,
  name: K,
  namespaces: readonly Namespace[] = [],
  needs: ScreenNeeds = {},
): LazyScreen {
  let loading: Tracked<ComponentType> | undefined;
  /** Starts the chunk and namespaces once; a failed load starts again on the next navigation or preload. */
  const start = (): Tracked<ComponentType> => {
    if (!loading || loading.status === 'rejected') {
      loading = track(
        Promise.all([loadChunk(load), i18nStarted().then(() => loadNamespaces(namespaces))]).then(
          ([module]) => module[name] as ComponentType,
        ),
      );
    }
    return loading;
  };
  // While the chunk is on its way the screen suspends as React.lazy does (its failure reaches the error boundary).
  const Pending = lazy(() => (loading ?? start()).then((Component) => ({ default: Component })));
  // biome-ignore lint/correctness/noComponentHookFactories: a factory of screen components (as React.lazy), called once per screen when screens.ts loads
  function Screen(props: object) {
    const current = loading ?? start();
    // Loaded (a navigation or a preload waited for it): the screen renders at once, without suspending. The
    // choice is kept for the life of this element: switching from Pending to the component on a later render
    // would be a new element type, and React would mount the screen again (for the main layout: a new socket,
    // and the call in progress gone).
    const [ready] = useState(() => current.status === 'fulfilled' && current.value !== undefined);
    if (ready && current.value) return createElement(current.value, props);
    return createElement(Pending, props);
  }
  Screen.displayName = `Lazy(${name})`;
  return Object.assign(Screen, { preload: () => start(), needs }) as LazyScreen;
}
