/**
 * `npm run bench:profiles`: the studio in headless Chromium against 10,000 seeded profiles. Builds the studio
 * when dist/ is missing or older than its sources (as scripts/start.ts), seeds a fresh PGlite in a temporary
 * folder, gives the newest Acme profile (the first row of the default list) 20 documents, starts the server
 * on a free port (a child process), signs in once and then, after warm-up runs, measures per run:
 *
 *   list      a fresh page load of /customers (a returning user: signed in, session in localStorage) until
 *             the first row of the Customers table is in the DOM and the next frame has been painted;
 *   profile   a click on that profile's row until its header (h2 with the name) and the Profile Info tab
 *             are in the DOM and painted (same document: a client-side route change);
 *   document  on that profile, a click on the first document of its sidebar lists until the document
 *             screen's first page image has loaded and been painted;
 *   back      the browser's back from the profile to the list (popstate) until the list's first row is
 *             painted again (from the cache);
 *   hover     on the list, the pointer rests on the second row's link (300 ms: a preload on intent), then
 *             a click until that profile is painted.
 *
 * All are measured inside the page with performance.now() (a MutationObserver, then requestAnimationFrame
 * and a posted message for "after the next paint"), so Playwright's round trips do not count: the list
 * from the navigation's time origin, the others from the click's (or popstate's) event timeStamp. Two series: "warm" (the
 * browser's HTTP cache as a returning user has it; hashed assets are sent immutable for a year, so they
 * come from the cache unasked) and "cold" (HTTP cache disabled through the DevTools protocol; session still there).
 * Prints median, p90, min and max, and a breakdown from Resource Timing. Nothing is asserted.
 *
 * Env: BENCH_PROFILES (10000), BENCH_RUNS (15), BENCH_WARMUP (3), CHROMIUM_PATH (/usr/bin/chromium),
 * BENCH_PROFILES_DATABASE_URL (seed into that PostgreSQL instead of PGlite: its data is replaced; with
 * BENCH_PROFILES=1000000 the studio's list at a million profiles), BENCH_PROFILES_SEED=0 (with
 * BENCH_PROFILES_DATABASE_URL: that database as it is, seeded before, since a million takes 7–17 minutes to seed;
 * BENCH_PROFILES_DATA_DIR names the seed's DATA_DIR, whose stored files, the documents' images, are copied, and
 * BENCH_JWT_SECRET the seed's JWT_SECRET, from which those files' keys were derived),
 * BENCH_ROUNDS (1: with two sides, measure them this many times in turns, the order swapped each round, and pool
 * the runs), BENCH_COLD=0 (the warm series only), BENCH_DETAIL=1 (also print the request timeline of each series'
 * last run, for finding where time goes), BENCH_TRACE_DIR (a Chromium trace with CPU samples of one more list load
 * and click per series, not counted, written there),
 * BENCH_CONSOLE=1 (print the page's console messages, e.g. of a build instrumented by hand).
 * `--no-build` (`npm run bench:profiles -- --no-build`) measures dist/ as it is; BENCH_STUDIO_DIST=<folder> measures
 * that build instead (e.g. `npx vite build --outDir /tmp/x`), to compare two builds. BENCH_ACCESS_LOG: both (the
 * default) measures every series twice in one run, against the server as deployed (every read of a person's data
 * noted in the access log) and against `bench/serverWithoutAccessLog.ts` (not noted), and compares the medians;
 * on or off measures one side. BENCH_BASELINE_REV=<rev> instead measures before and after in one run: the server
 * and the studio (built from its own sources) of that revision, then the working tree's, on the same data.
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { and, asc, count, desc, eq, inArray, isNull, ne } from 'drizzle-orm';
import { buildStudioIfStale } from '../scripts/studioBuild';
import { openDatabase } from '../server/db/client';
import { companies, documentPages, documents, profiles } from '../server/db/schema';
import { inTurns, runIn, type ServerTree, serverTrees } from './baseline';
import {
  benchServerEnv,
  finished,
  freePort,
  launchChromium,
  percentile,
  run,
  signInAs,
  stop,
  waitForServer,
} from './support';

const PROFILES = Number(process.env.BENCH_PROFILES ?? 10_000);
const DATABASE_URL = process.env.BENCH_PROFILES_DATABASE_URL;
const SEED = process.env.BENCH_PROFILES_SEED !== '0';
const SEEDED_DATA_DIR = process.env.BENCH_PROFILES_DATA_DIR;
if (!SEED && !(DATABASE_URL && SEEDED_DATA_DIR))
  throw new Error('BENCH_PROFILES_SEED=0 needs BENCH_PROFILES_DATABASE_URL and BENCH_PROFILES_DATA_DIR');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const DETAIL = process.env.BENCH_DETAIL === '1';
/** BENCH_ROUNDS: measure the sides this many times in turns (1), the runs of all rounds pooled. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
/** BENCH_COLD=0: the warm series only (the targets are on it). */
const COLD = process.env.BENCH_COLD !== '0';
/** BENCH_STUDIO_DIST: serve that build of the studio instead of dist/ (then nothing is built). */
const STUDIO_DIST = process.env.BENCH_STUDIO_DIST;
/** BENCH_TRACE_DIR: a Chromium trace (CPU samples included) of one more list load and click per series, there. */
const TRACE_DIR = process.env.BENCH_TRACE_DIR;
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'disabled-by-default-v8.cpu_profiler',
  'blink.user_timing',
  'loading',
];
const DOCUMENTS = 20;
// Targets of instant navigation (medians, warm cache): the list from navigation start, the others from
// the click.
const TARGET_LIST_MS = 200;
const TARGET_PROFILE_MS = 100;
const TARGET_BACK_MS = 100;
const TARGET_DOCUMENT_MS = 400;
const HOVER_MS = 300;
const EMAIL = 'admin@acme.test';
const PASSWORD = 'Admin@2026';

// ---------------------------------------------------------------------------------------------------
// Build, server, seed

/**
 * Gives the newest Acme Bank profile (the first row of the default `-created_at` list) at least
 * DOCUMENTS documents: copies of other Acme profiles' documents with their pages (the seed gives 0 to 3).
 * Runs before the server starts (PGlite has one process at a time).
 */
async function addDocuments(dataDir: string): Promise<{ id: number; name: string; documents: number }> {
  const database = await openDatabase({ databaseUrl: DATABASE_URL, pgliteDir: join(dataDir, 'pg') });
  try {
    const { db } = database;
    const [acme] = await db.select().from(companies).where(eq(companies.name, 'Acme Bank'));
    if (!acme) throw new Error('no Acme Bank in the seeded data');
    const [profile] = await db
      .select({ id: profiles.id, name: profiles.name, createdAt: profiles.createdAt })
      .from(profiles)
      .where(eq(profiles.companyId, acme.id))
      .orderBy(desc(profiles.createdAt), desc(profiles.id))
      .limit(1);
    if (!profile) throw new Error('no Acme Bank profile');
    const documentCount = async () =>
      (
        await db
          .select({ n: count() })
          .from(documents)
          .where(and(eq(documents.profileId, profile.id), isNull(documents.deletedAt)))
      )[0]?.n ?? 0;
    const missing = DOCUMENTS - (await documentCount());
    if (missing > 0) {
      const templates = await db
        .select()
        .from(documents)
        .where(and(eq(documents.companyId, acme.id), ne(documents.profileId, profile.id)))
        .orderBy(asc(documents.id))
        .limit(missing);
      const copies = await db
        .insert(documents)
        .values(
          templates.map(({ id: _id, ...document }, n) => ({
            ...document,
            profileId: profile.id,
            createdAt: new Date(new Date(profile.createdAt).getTime() + (n + 10) * 60_000),
          })),
        )
        .returning({ id: documents.id });
      const copyOf = new Map(templates.map((t, n) => [t.id, copies[n]?.id as number]));
      const pages = await db
        .select()
        .from(documentPages)
        .where(
          inArray(
            documentPages.documentId,
            templates.map((t) => t.id),
          ),
        );
      if (pages.length > 0)
        await db.insert(documentPages).values(
          pages.map(({ id: _id, ...page }) => ({
            ...page,
            documentId: copyOf.get(page.documentId) as number,
          })),
        );
    }
    return { id: profile.id, name: profile.name ?? '', documents: await documentCount() };
  } finally {
    await database.close();
  }
}

// ---------------------------------------------------------------------------------------------------
// In-page instrumentation (a string, so the bundler's helpers never end up in the page)

/**
 * On every document: window.__bench.marks gets performance.now() values:
 *   listRow / listPainted         first Customers row in the DOM / after the next paint;
 *   profile / profilePainted      after a click: h2 in .studio-profile-header and the Profile Info
 *                                 fields in the tab panel / after the next paint;
 *   settled                       after a click: no spinner left in the profile screen or its sidebar;
 *   list|profileBarShown/BarGone  the route's Suspense fallback (.studio-loading-bar) first shown / last
 *                                 removed, before / after the click.
 *   document / documentPainted    after a click: the document screen's first page image loaded / painted;
 *   back / backPainted            after a popstate: the list's first row back, no profile header / painted.
 * and window.__bench.clickAt the last click's (or popstate's) event.timeStamp (same clock).
 */
const INSTRUMENT = `(() => {
  const bench = { clickAt: null, marks: {} };
  window.__bench = bench;
  // A mark the bench waits for is also told to it (a binding): waiting by polling from Playwright's script would
  // load that script into the page while the studio boots.
  const told = (name) => {
    bench.marks[name] = performance.now();
    if (typeof window.__benchMark === 'function') window.__benchMark(name);
  };
  const afterPaint = (name) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => told(name);
    channel.port2.postMessage(null);
  });
  let barVisible = false;
  const check = () => {
    const m = bench.marks;
    const phase = bench.clickAt === null ? 'list' : 'profile';
    const bar = document.querySelector('.studio-loading-bar') !== null;
    if (bar && m[phase + 'BarShown'] === undefined) m[phase + 'BarShown'] = performance.now();
    if (!bar && barVisible) m[phase + 'BarGone'] = performance.now();
    barVisible = bar;
    if (m.listRow === undefined && document.querySelector('table[aria-label="Customers"] tbody tr')) {
      m.listRow = performance.now();
      afterPaint('listPainted');
    }
    if (bench.clickAt === null) return;
    if (bench.popped && m.back === undefined && !document.querySelector('.studio-profile-header') &&
        document.querySelector('table[aria-label="Customers"] tbody tr')) {
      m.back = performance.now();
      afterPaint('backPainted');
    }
    if (m.document === undefined) {
      const img = document.querySelector('.studio-documents .studio-document img');
      if (img && img.complete && img.naturalWidth > 0) {
        m.document = performance.now();
        afterPaint('documentPainted');
      }
    }
    if (m.profile === undefined) {
      const h2 = document.querySelector('.studio-profile-header h2');
      const fields = document.querySelector('[role="tabpanel"] .studio-fields');
      if (h2 && h2.textContent && fields) {
        m.profile = performance.now();
        afterPaint('profilePainted');
      }
    }
    if (m.profile !== undefined && m.settled === undefined &&
        document.querySelector('.studio-profile-sidebar') &&
        !document.querySelector('.studio-profile [class*="-spinner"]')) {
      told('settled');
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
  document.addEventListener('load', check, true);
  const restart = (event, popped) => {
    bench.clickAt = event.timeStamp;
    bench.popped = popped;
    const { listRow, listPainted, listBarShown, listBarGone } = bench.marks;
    bench.marks = { listRow, listPainted, listBarShown, listBarGone };
  };
  document.addEventListener('click', (event) => restart(event, false), true);
  window.addEventListener('popstate', (event) => restart(event, true), true);
})();`;

interface Resource {
  name: string;
  initiatorType: string;
  startTime: number;
  responseEnd: number;
  transferSize: number;
}

/** Marks and resource timings of the current document. */
async function snapshot(page: Page) {
  return (await page.evaluate(`({
    clickAt: window.__bench.clickAt,
    marks: window.__bench.marks,
    nav: (() => { const n = performance.getEntriesByType('navigation')[0];
      return n ? { responseEnd: n.responseEnd, domContentLoaded: n.domContentLoadedEventEnd } : null; })(),
    resources: performance.getEntriesByType('resource').map((r) => ({ name: r.name, initiatorType: r.initiatorType,
      startTime: r.startTime, responseEnd: r.responseEnd, transferSize: r.transferSize })),
  })`)) as {
    clickAt: number | null;
    marks: Record<string, number>;
    nav: { responseEnd: number; domContentLoaded: number } | null;
    resources: Resource[];
  };
}

// ---------------------------------------------------------------------------------------------------
// Runs

interface Sample {
  /** The run's requests and marks, one line each (BENCH_DETAIL=1). */
  timeline: string[];
  list: number;
  listBreakdown: {
    document: number;
    assets: number;
    api: [number, number] | null;
    chunks: number;
    bytes: number;
    /** The last time the route's Suspense fallback (loading bar) went away, or null. */
    barGone: number | null;
  };
  profile: number;
  settled: number | null;
  /** Click on a sidebar document → its first page image painted. */
  document: number;
  /** Back from the profile → the list's first row painted. */
  back: number;
  /** Hover (HOVER_MS) then click on another row → that profile painted. */
  hover: number;
  profileBreakdown: {
    chunksEnd: number | null;
    barShown: number | null;
    barGone: number | null;
    api: [number, number] | null;
    requests: number;
  };
}

const isAsset = (r: Resource) => /\/assets\//.test(r.name);
const path = (url: string) => new URL(url).pathname;

/**
 * Requests and marks of one document from `origin` on, in start order; requests from `from` on (earlier than
 * `origin`: negative times, e.g. a preload started between the list's paint and the click).
 */
function timeline(
  title: string,
  shot: Awaited<ReturnType<typeof snapshot>>,
  origin: number,
  from = origin,
): string[] {
  const ms = (n: number) => String(Math.round(n - origin)).padStart(5);
  const lines = shot.resources
    .filter((r) => r.startTime >= from)
    .sort((a, b) => a.startTime - b.startTime)
    .map(
      (r) =>
        `${ms(r.startTime)} →${ms(r.responseEnd)}  ${String(r.transferSize).padStart(7)} B  ${r.name.replace(/^https?:\/\/[^/]+/, '')}`,
    );
  const marks = Object.entries(shot.marks)
    .filter(([, at]) => at >= origin)
    .map(([name, at]) => `${ms(at)}  mark ${name}`);
  return [`  ${title}:`, ...[...lines, ...marks].map((line) => `    ${line}`)];
}

/** The marks a page told since they were last cleared, and who waits for which. */
interface Told {
  seen: Set<string>;
  waiting: Map<string, (() => void)[]>;
}
const toldBy = new WeakMap<Page, Told>();

/**
 * Lets the pages of `context` tell their marks (INSTRUMENT's `told`), through a binding: nothing is evaluated in
 * the page to wait for them, so the bench's own waiting takes none of the page's time (Playwright's polling
 * injected its script of several thousand lines while the studio booted: 17–21 ms of the page's main thread).
 */
async function followMarks(context: BrowserContext): Promise<void> {
  await context.exposeBinding('__benchMark', ({ page }, name: string) => {
    const told = toldBy.get(page);
    if (!told) return;
    told.seen.add(name);
    for (const wake of told.waiting.get(name) ?? []) wake();
    told.waiting.delete(name);
  });
  context.on('page', (page) => toldBy.set(page, { seen: new Set(), waiting: new Map() }));
}

/** Forgets the marks told so far: called before the action whose marks are waited for next. */
const clearMarks = (page: Page) => toldBy.get(page)?.seen.clear();

/** Waits until the page has told the mark since the marks were last cleared. */
function waitForMark(page: Page, mark: string, timeout: number): Promise<void> {
  const told = toldBy.get(page);
  if (!told) return Promise.reject(new Error('the page is not followed (followMarks)'));
  if (told.seen.has(mark)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${mark} within ${timeout} ms`)), timeout);
    told.waiting.set(mark, [
      ...(told.waiting.get(mark) ?? []),
      () => {
        clearTimeout(timer);
        resolve();
      },
    ]);
  });
}

async function once(page: Page, profileId: number, trace?: string): Promise<Sample> {
  const browser = page.context().browser();
  if (trace && browser) {
    await browser.startTracing(page, { path: trace, categories: TRACE_CATEGORIES });
    // The profiler's start holds the first page that loads under it by half a second: that load is not read.
    clearMarks(page);
    await page.goto('/customers', { waitUntil: 'commit' });
    await waitForMark(page, 'listPainted', 30_000);
  }
  clearMarks(page);
  await page.goto('/customers', { waitUntil: 'commit' });
  await waitForMark(page, 'listPainted', 30_000);
  const first = await snapshot(page);
  const listPainted = first.marks.listPainted as number;
  const before = first.resources.filter((r) => r.responseEnd <= listPainted);
  const assets = before.filter(isAsset);
  const listApi = before.find((r) => path(r.name) === '/api/v2/profile');

  clearMarks(page);
  await page.locator(`table[aria-label="Customers"] a[href="/profile/${profileId}"]`).click();
  await waitForMark(page, 'profilePainted', 30_000);
  if (trace && browser) await browser.stopTracing();
  await waitForMark(page, 'settled', 10_000).catch(() => undefined);
  const second = await snapshot(page);
  const clickAt = second.clickAt as number;
  const after = second.resources.filter((r) => r.startTime >= clickAt);
  const profilePainted = second.marks.profilePainted as number;
  const profileChunks = after.filter((r) => isAsset(r) && r.responseEnd <= profilePainted);
  const sinceClick = (mark: number | undefined) => (mark === undefined ? null : mark - clickAt);
  const profileApi = after.find((r) => path(r.name) === `/api/v2/profile/${profileId}`);

  // A document of the profile, from its sidebar lists: the document screen with its first page image.
  clearMarks(page);
  await page.locator('.studio-profile-sidebar a[href*="/document/"]').first().click();
  await waitForMark(page, 'documentPainted', 30_000);
  const documentShot = await snapshot(page);
  const document = (documentShot.marks.documentPainted as number) - (documentShot.clickAt as number);
  await page.goBack();
  await page.locator('.studio-profile-header h2').waitFor({ timeout: 30_000 });
  // The whole profile back, its cards below the fold too (they mount a frame after its first paint): Back is
  // measured from a profile at rest, not from one still drawing.
  await page.locator('.studio-profile-sidebar a[href*="/document/"]').first().waitFor({ timeout: 30_000 });

  // Back to the list.
  clearMarks(page);
  await page.goBack();
  await waitForMark(page, 'backPainted', 30_000);
  const backShot = await snapshot(page);
  const back = (backShot.marks.backPainted as number) - (backShot.clickAt as number);

  // Intent: rest on the second row's link, then click it.
  const other = page.locator('table[aria-label="Customers"] tbody tr').nth(1).locator('a');
  await other.hover();
  await page.waitForTimeout(HOVER_MS);
  clearMarks(page);
  await other.click();
  await waitForMark(page, 'profilePainted', 30_000);
  const hoverShot = await snapshot(page);
  const hover = (hoverShot.marks.profilePainted as number) - (hoverShot.clickAt as number);

  return {
    document,
    back,
    hover,
    timeline: DETAIL
      ? [
          ...timeline('list, ms from navigation start', first, 0),
          ...timeline('profile, ms from the click (from the list painted on)', second, clickAt, listPainted),
        ]
      : [],
    list: listPainted,
    listBreakdown: {
      document: first.nav?.responseEnd ?? Number.NaN,
      assets: Math.max(0, ...assets.map((r) => r.responseEnd)),
      api: listApi ? [listApi.startTime, listApi.responseEnd] : null,
      chunks: assets.length,
      bytes: assets.reduce((sum, r) => sum + r.transferSize, 0),
      barGone: first.marks.listBarGone ?? null,
    },
    profile: profilePainted - clickAt,
    settled: sinceClick(second.marks.settled),
    profileBreakdown: {
      chunksEnd: profileChunks.length ? Math.max(...profileChunks.map((r) => r.responseEnd)) - clickAt : null,
      barShown: sinceClick(second.marks.profileBarShown),
      barGone: sinceClick(second.marks.profileBarGone),
      api: profileApi ? [profileApi.startTime - clickAt, profileApi.responseEnd - clickAt] : null,
      requests: after.filter((r) => r.name.includes('/api/')).length,
    },
  };
}

function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n);
  return {
    median: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    min: round(sorted[0] ?? Number.NaN),
    max: round(sorted[sorted.length - 1] ?? Number.NaN),
  };
}

const median = (values: number[]) =>
  Math.round(
    percentile(
      [...values].sort((a, b) => a - b),
      50,
    ),
  );

/** Median of the values that were seen, or "-" when none was. */
const medianOf = (values: (number | null)[]) => {
  const seen = values.filter((v): v is number => v !== null);
  return seen.length ? String(median(seen)) : '-';
};

/** One run; a failure says where the page was and what it showed. */
async function measured(page: Page, profileId: number): Promise<Sample> {
  try {
    return await once(page, profileId);
  } catch (error) {
    const alerts = await page
      .locator('[role="alert"]')
      .allTextContents()
      .catch(() => []);
    throw new Error(
      `run failed on ${page.url()}${alerts.length ? ` showing "${alerts.join(' / ')}"` : ''}: ${String(error)}`,
    );
  }
}

async function series(page: Page, profileId: number, label: string): Promise<Sample[]> {
  for (let i = 0; i < WARMUP; i++) await measured(page, profileId);
  const samples: Sample[] = [];
  for (let i = 0; i < RUNS; i++) samples.push(await measured(page, profileId));
  console.log(`  ${label}: ${RUNS} runs after ${WARMUP} warm-ups done`);
  if (TRACE_DIR) {
    // One more run, not counted: the trace slows the page down.
    const file = join(TRACE_DIR, `${label.replace(/[^\w]+/g, '-')}.json`);
    await once(page, profileId, file);
    console.log(`  ${label}: Chromium trace of one more list load and click (not counted) in ${file}`);
  }
  if (DETAIL) console.log(`  ${label}, last run:\n${samples.at(-1)?.timeline.join('\n')}`);
  return samples;
}

function report(label: string, samples: Sample[]) {
  const list = stats(samples.map((s) => s.list));
  const profile = stats(samples.map((s) => s.profile));
  const hover = stats(samples.map((s) => s.hover));
  const back = stats(samples.map((s) => s.back));
  const document = stats(samples.map((s) => s.document));
  const settled = samples.map((s) => s.settled).filter((s): s is number => s !== null);
  console.log(`\n${label}`);
  console.table({
    'navigation → first list row painted': { ...list, target: `< ${TARGET_LIST_MS}` },
    [`click → profile (${DOCUMENTS} docs) header + info painted`]: {
      ...profile,
      target: `< ${TARGET_PROFILE_MS}`,
    },
    [`hover ${HOVER_MS} ms, then click → profile painted`]: { ...hover, target: `< ${TARGET_PROFILE_MS}` },
    'back from the profile → list row painted': { ...back, target: `< ${TARGET_BACK_MS}` },
    'click a document → its first page image painted': { ...document, target: `< ${TARGET_DOCUMENT_MS}` },
    'click → profile screen and sidebar settled (info)': { ...stats(settled), target: '' },
  });
  const lb = samples.map((s) => s.listBreakdown);
  const apis = lb.map((b) => b.api).filter((a): a is [number, number] => a !== null);
  console.log(
    `  list, medians from navigation start: document ${median(lb.map((b) => b.document))} ms · ` +
      `${median(lb.map((b) => b.chunks))} JS/CSS files done at ${median(lb.map((b) => b.assets))} ms ` +
      `(${Math.round(median(lb.map((b) => b.bytes)) / 1024)} KB transferred) · ` +
      `loading bar last gone at ${medianOf(lb.map((b) => b.barGone))} ms · ` +
      (apis.length
        ? `GET /profile sent at ${median(apis.map((a) => a[0]))} ms, answered at ${median(apis.map((a) => a[1]))} ms`
        : 'GET /profile not seen') +
      ` · row painted at ${list.median} ms`,
  );
  const pb = samples.map((s) => s.profileBreakdown);
  const papi = pb.map((b) => b.api).filter((a): a is [number, number] => a !== null);
  const chunks = pb.map((b) => b.chunksEnd).filter((c): c is number => c !== null);
  console.log(
    '  profile, medians from the click: ' +
      (chunks.length ? `screen chunks loaded at ${median(chunks)} ms · ` : 'no chunk fetched · ') +
      `loading bar shown at ${medianOf(pb.map((b) => b.barShown))} ms, gone at ${medianOf(pb.map((b) => b.barGone))} ms · ` +
      (papi.length
        ? `GET /profile/{id} sent at ${median(papi.map((a) => a[0]))} ms, answered at ${median(papi.map((a) => a[1]))} ms`
        : 'GET /profile/{id} not seen') +
      ` · ${median(pb.map((b) => b.requests))} API requests in all · painted at ${profile.median} ms`,
  );
}

/** both (default): the access log on, then off, in one run; on or off: that side only. */
const ACCESS_LOG = process.env.BENCH_ACCESS_LOG ?? 'both';

/** The servers to measure: as deployed (reads noted in the access log), and without noting them. */
/** A side of the run: its label, the server's entry, and (a baseline) the tree it runs in and its studio build. */
interface Side {
  side: string;
  entry: string;
  tree?: ServerTree;
  studio?: string;
}

/**
 * BENCH_BASELINE_REV=<rev>: before and after in one run, the server and studio of that revision (its studio built
 * from its own sources) and the working tree's, on the same data, with the access log on. Otherwise the access
 * log's sides (BENCH_ACCESS_LOG).
 */
function sidesToMeasure(): Side[] {
  const rev = process.env.BENCH_BASELINE_REV;
  if (rev && rev !== 'none') {
    const [before, after] = serverTrees(rev) as [ServerTree, ServerTree];
    const studio = join(before.dir, 'dist');
    console.log(`Building the studio of ${rev} ...`);
    execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', studio], {
      cwd: before.dir,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    return [
      { side: before.label, entry: 'server/main.ts', tree: before, studio },
      { side: after.label, entry: 'server/main.ts' },
    ];
  }
  const sides: Side[] = [
    { side: 'access log on', entry: 'server/main.ts' },
    { side: 'access log off', entry: 'bench/serverWithoutAccessLog.ts' },
  ];
  return sides.filter(({ side }) => ACCESS_LOG === 'both' || side.endsWith(ACCESS_LOG));
}

/** The medians of the two sides beside each other (warm cache): before and after, or the access log on and off. */
function compareSides(sides: { side: string; warm: Sample[] }[]) {
  const rows: Record<string, Record<string, number>> = {};
  const measures: [string, (sample: Sample) => number][] = [
    ['list painted', (sample) => sample.list],
    ['profile painted', (sample) => sample.profile],
    ['hover, then profile painted', (sample) => sample.hover],
    ['back to the list painted', (sample) => sample.back],
    ['document page painted', (sample) => sample.document],
  ];
  for (const [name, pick] of measures) {
    rows[name] = {};
    for (const { side, warm } of sides)
      (rows[name] as Record<string, number>)[`median, ${side}`] = median(warm.map(pick));
  }
  console.log(`\nWarm HTTP cache, medians in ms: ${sides.map(({ side }) => side).join(' and ')}`);
  console.table(rows);
}

// ---------------------------------------------------------------------------------------------------

let dataDir: string | undefined;
let server: ChildProcess | undefined;
let browser: Browser | undefined;

async function cleanUp(): Promise<void> {
  await browser?.close().catch(() => undefined);
  browser = undefined;
  await stop(server);
  server = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });

async function main() {
  if (!process.argv.includes('--no-build') && !STUDIO_DIST) buildStudioIfStale();
  dataDir = mkdtempSync(join(tmpdir(), 'idv-bench-profiles-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = {
    ...benchServerEnv(dataDir, port),
    ...(DATABASE_URL ? { DATABASE_URL } : {}),
    // Another build of the studio (e.g. one built with --outDir from a change, beside the tree's dist/).
    ...(STUDIO_DIST ? { STUDIO_DIST } : {}),
  };
  try {
    const seedStarted = Date.now();
    if (SEED) {
      console.log(
        `Seeding ${PROFILES} profiles into ${DATABASE_URL ? 'PostgreSQL (BENCH_PROFILES_DATABASE_URL)' : `PGlite in ${dataDir}`} ...`,
      );
      const seedCode = await finished(run(['server/db/seed.ts', '--profiles', String(PROFILES)], env));
      if (seedCode !== 0) throw new Error(`seed failed (${seedCode})`);
    } else {
      console.log('BENCH_PROFILES_SEED=0: measuring the data of BENCH_PROFILES_DATABASE_URL as it is');
      cpSync(join(SEEDED_DATA_DIR as string, 'storage'), join(dataDir, 'storage'), { recursive: true });
    }
    const target = await addDocuments(dataDir);
    console.log(
      `${SEED ? `Seeded in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s; profile` : 'Profile'} ${target.id} ` +
        `("${target.name}", first row of the list) has ${target.documents} documents`,
    );

    browser = await launchChromium();
    const loadBefore = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    const sides = sidesToMeasure();
    const measuredSides = sides.map(({ side }) => ({ side, warm: [] as Sample[], cold: [] as Sample[] }));
    for (const { side: index, round: turn } of inTurns([...sides.keys()], ROUNDS)) {
      const { side, entry, tree, studio } = sides[index] as Side;
      const measuredSide = measuredSides[index] as (typeof measuredSides)[number];
      const round = ROUNDS > 1 ? `, round ${turn}` : '';
      server = tree
        ? runIn(tree, [entry], { ...env, ...(studio ? { STUDIO_DIST: studio } : {}) })
        : run([entry], env);
      await waitForServer(base, server);
      const context = await browser.newContext({
        baseURL: base,
        locale: 'en-US',
        viewport: { width: 1440, height: 900 },
      });
      await context.addInitScript(INSTRUMENT);
      await followMarks(context);
      const page = await context.newPage();
      // BENCH_CONSOLE=1: the page's console messages (e.g. from an instrumented build) printed as they come.
      if (process.env.BENCH_CONSOLE === '1')
        page.on('console', (message) => console.log(`  page: ${message.text()}`));

      await signInAs(page, { email: EMAIL, password: PASSWORD });
      console.log(
        `${side}${round}: signed in as ${EMAIL}; measuring (${WARMUP} warm-ups + ${RUNS} runs per series) ...`,
      );
      measuredSide.warm.push(...(await series(page, target.id, `${side}${round}, warm HTTP cache`)));
      if (COLD) {
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
        measuredSide.cold.push(...(await series(page, target.id, `${side}${round}, HTTP cache disabled`)));
      }
      await context.close();
      await stop(server);
      server = undefined;
    }
    const loadAfter = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');

    console.log(
      `\nResults in ms (${PROFILES} profiles on ${DATABASE_URL ? 'PostgreSQL' : 'PGlite'}; headless Chromium ${browser.version()}; measured in the page ` +
        'with performance.now(); "painted" = after the next frame)',
    );
    for (const { side, warm, cold } of measuredSides) {
      report(`${side}: returning user, warm HTTP cache (hashed assets immutable: read from the cache)`, warm);
      if (COLD)
        report(
          `${side}: returning user, HTTP cache disabled (every JS/CSS file fetched again; session kept)`,
          cold,
        );
    }
    if (measuredSides.length === 2) compareSides(measuredSides);
    console.log(
      `\nTargets (medians, warm cache): list < ${TARGET_LIST_MS} ms from navigation start, click → ` +
        `profile < ${TARGET_PROFILE_MS} ms, back < ${TARGET_BACK_MS} ms, document with its first image < ` +
        `${TARGET_DOCUMENT_MS} ms; not asserted.` +
        '\nThe profile figure covers the header and Profile Info; the sidebar lists (notes, logs, the document ' +
        'lists Archive, Other Documents, BioLogin) are in "settled".',
    );
    console.log(
      `Machine: ${availableParallelism()} cores, shared: server, Chromium and this script compete for CPU; ` +
        `load average before ${loadBefore}, after ${loadAfter}. Compare runs on the same machine only.`,
    );
    for (const { tree } of sides) tree?.remove();
  } finally {
    await cleanUp();
  }
}

main().catch(async (error) => {
  console.error(error);
  await cleanUp();
  process.exit(1);
});
