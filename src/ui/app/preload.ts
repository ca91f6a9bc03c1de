/**
 * The route table's preload, loaded on first use: the table is a chunk of its own, so the
 * signed-out sign-in page does not carry it. Signed in, the first page load fetches it beside the languages.
 *
 * The table (routeTable.ts) knows every screen, and screens, layouts and the navigation preload routes: so
 * nothing below the app imports the table. The app hands its loader in here (App.tsx, `provideRouteTable`),
 * and everyone else reaches the table through this module (no import circle).
 */

export interface PreloadOptions {
  /** Wait at most this long for the first queries (the chunks are always waited for). */
  waitMs?: number;
  /** Start only the chunks (an idle preload). */
  chunksOnly?: boolean;
}

/** What the route table offers the rest of the studio. */
export interface RouteTable {
  preloadRoute: (href: string, options?: PreloadOptions) => Promise<void>;
  isIntentTarget: (href: string) => boolean;
}

let loadTable: (() => Promise<RouteTable>) | null = null;
let table: RouteTable | null = null;

/** The app says how the table loads (a dynamic import, so it stays a chunk of its own). */
export function provideRouteTable(load: () => Promise<RouteTable>): void {
  loadTable = load;
}

function routeTable(): Promise<RouteTable> {
  if (table) return Promise.resolve(table);
  if (!loadTable) return Promise.reject(new Error('No route table provided'));
  return loadTable().then((loaded) => {
    table = loaded;
    return loaded;
  });
}

/**
 * Starts everything the route of `href` needs (routeTable.ts `preloadRoute`); never rejects. Once the table is in,
 * it starts in the caller's own task: a click's requests then go out before React renders what the click changed
 * (the loading bar, the screen being left), not after it.
 */
export const preloadRoute = (href: string, options?: PreloadOptions): Promise<void> =>
  table
    ? table.preloadRoute(href, options)
    : routeTable().then(
        (loaded) => loaded.preloadRoute(href, options),
        () => undefined,
      );

/**
 * Whether a hover or focus on a link to `href` preloads it (routeTable.ts `isIntentTarget`). The signed-in
 * pages that listen for intents have loaded the table with their own route; until it is in, no link is one.
 */
export function isIntentTarget(href: string): boolean {
  if (table) return table.isIntentTarget(href);
  void routeTable().catch(() => undefined);
  return false;
}
