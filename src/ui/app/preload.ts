/**
 * The route table's preload, loaded on first use (issue 19): the table is a chunk of its own, so the
 * signed-out sign-in page does not carry it. Signed in, the first page load fetches it beside the languages.
 */
import type { PreloadOptions } from './routeTable';

export const preloadRoute = (href: string, options?: PreloadOptions): Promise<void> =>
  import('./routeTable').then(
    (table) => table.preloadRoute(href, options),
    () => undefined,
  );
