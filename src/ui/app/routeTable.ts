/**
 * What each route needs, next to the route table (routes.tsx renders the same screens): the chunks
 * of its layouts and screen, their namespaces and the screen's first queries (declared with the screen in
 * screens.ts). A navigation, a preload on intent and the first page load start all of them at once.
 */
import { accounts } from '../../services/accounts';
import { canVisit } from '../../services/permissions';
import { homePath } from '../../services/startPage';
import type { LazyScreen } from './lazyScreen';
import type { PreloadOptions } from './preload';
import type { RouteContext } from './routeQueries';
import { Layouts, Screens } from './screens';

export interface RouteEntry {
  /** wouter pattern of the full path (`:name` is one segment). */
  path: string;
  /** Outermost first: the layouts, then the screen (its first queries are declared in screens.ts). */
  chunks: readonly LazyScreen[];
  /** Signed-out pages (/login …): preloaded only when no account is active. */
  public?: boolean;
  /** Hover or focus on a link to it preloads it (profiles, documents, calls, list pages). */
  intent?: boolean;
}

const main = (screen: LazyScreen) => [Layouts.Main as LazyScreen, screen];
const profile = (screen: LazyScreen) => [Layouts.Main as LazyScreen, Layouts.Profile as LazyScreen, screen];
const entity = (screen: LazyScreen) => [Layouts.Main as LazyScreen, Layouts.Entity as LazyScreen, screen];

export const ROUTE_TABLE: readonly RouteEntry[] = [
  { path: '/login', chunks: [Screens.Login], public: true },
  { path: '/reset-password', chunks: [Screens.ResetPassword], public: true },
  { path: '/create-account', chunks: [Screens.CreateAccount], public: true },
  { path: '/', chunks: main(Screens.Customers), intent: true },
  { path: '/customers', chunks: main(Screens.Customers), intent: true },
  { path: '/review', chunks: main(Screens.Review), intent: true },
  { path: '/settings', chunks: main(Screens.Settings) },
  { path: '/company-settings', chunks: main(Screens.CompanySettings) },
  { path: '/return', chunks: main(Screens.Return) },
  { path: '/admin', chunks: main(Screens.Admin) },
  { path: '/entities', chunks: main(Screens.Entities), intent: true },
  { path: '/pdf-basic/:id', chunks: [Screens.PdfBasic] },
  { path: '/pdf-expand/:id', chunks: [Screens.PdfExpand] },
  { path: '/calls', chunks: main(Screens.Calls), intent: true },
  { path: '/call/:customerID/:roomID/:callID', chunks: main(Screens.Call), intent: true },
  { path: '/watch', chunks: main(Screens.Watch) },
  { path: '/landing', chunks: main(Screens.Landing) },
  { path: '/dashboard', chunks: main(Screens.Dashboard) },
  { path: '/smart-modules', chunks: main(Screens.SmartModules) },
  { path: '/swagger-documentation', chunks: main(Screens.Swagger) },
  { path: '/profile/:profileID', chunks: profile(Screens.Profile), intent: true },
  { path: '/profile/:profileID/document/:docID', chunks: profile(Screens.Document), intent: true },
  { path: '/profile/:profileID/video/:videoID', chunks: profile(Screens.Video), intent: true },
  { path: '/profile/:profileID/amlHistory', chunks: profile(Screens.AmlHistory) },
  { path: '/profile/:profileID/amlRecordDetail/:checkID', chunks: profile(Screens.AmlRecordDetail) },
  { path: '/entity/:id', chunks: entity(Screens.Entity), intent: true },
  { path: '/entity/:id/documents', chunks: entity(Screens.EntityDocuments) },
];

/** The entry for a path and its parameters, or null (paths the table does not know load as they render). */
export function matchPath(pathname: string): { entry: RouteEntry; params: Record<string, string> } | null {
  const parts = pathname.replace(/\/+$/, '').split('/').slice(1);
  for (const entry of ROUTE_TABLE) {
    const pattern = entry.path === '/' ? [] : entry.path.split('/').slice(1);
    if (pattern.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((segment, n) => {
      const part = parts[n] as string;
      if (!segment.startsWith(':')) return segment === part;
      if (!part) return false;
      params[segment.slice(1)] = decodeURIComponent(part);
      return true;
    });
    if (matches) return { entry, params };
  }
  return null;
}

/** How long a navigation keeps the current screen while the next one's first answers are on their way. */
export const DATA_WAIT_MS = 300;

/**
 * Splits `/path?query#hash` (relative to this origin) into its path and query. `/` is the active account's
 * start page (homePath, as `Index` in routes.tsx redirects), so what is preloaded is what opens; `/` with a
 * payment `session_id` is left alone (it forwards to /return).
 */
function split(href: string): { pathname: string; search: string } {
  const url = new URL(href, window.location.origin);
  const search = url.search.replace(/^\?/, '');
  const account = url.pathname === '/' && !url.searchParams.has('session_id') ? accounts.active() : null;
  return { pathname: account ? homePath(account) : url.pathname, search };
}

/**
 * Whether the active account may open the route: the guards' own checks (RequireAuth, PublicOnly,
 * RequirePermission with canVisit).
 */
export function allowedFor(entry: RouteEntry, pathname: string): boolean {
  const account = accounts.active();
  if (entry.public) return account === null;
  return account !== null && canVisit(pathname, account);
}

/**
 * The query side once loaded: a navigation's requests then go out in the click's own task. import() of a
 * module already in resolves a task or a frame later (about 15 ms on a busy page), and that delay came
 * before every request of the next screen.
 */
let routeQueries: typeof import('./routeQueries') | undefined;

/**
 * Starts everything the route of `href` needs, at once: every chunk with its namespaces and the screen's
 * first queries. Resolves when the chunks are in and the queries answered (or `waitMs` passed); never
 * rejects (a failure shows when the screen renders). Nothing starts for a route the account may not open.
 */
export function preloadRoute(
  href: string,
  { waitMs = DATA_WAIT_MS, chunksOnly = false }: PreloadOptions = {},
) {
  const { pathname, search } = split(href);
  const match = matchPath(pathname);
  if (!match || !allowedFor(match.entry, pathname)) return Promise.resolve();
  const work: Promise<unknown>[] = match.entry.chunks.map((chunk) => chunk.preload());
  const declare = match.entry.chunks.at(-1)?.needs.queries;
  const account = accounts.active();
  if (declare && !chunksOnly && account) {
    const context: RouteContext = {
      params: match.params,
      search,
      companyId: account.company_id,
      permissions: account.permissions,
    };
    work.push(
      routeQueries
        ? routeQueries.startQueries(declare, context, waitMs)
        : import('./routeQueries').then((m) => {
            routeQueries = m;
            return m.startQueries(declare, context, waitMs);
          }),
    );
  }
  return Promise.allSettled(work).then(() => undefined);
}

/** Whether a hover or focus on a link to `href` preloads it (and the account may open it). */
export function isIntentTarget(href: string): boolean {
  const { pathname } = split(href);
  const match = matchPath(pathname);
  return match?.entry.intent === true && allowedFor(match.entry, pathname);
}
