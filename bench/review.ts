/**
 * `npm run bench:review`: the reviewers' desk with 10,000 open cases and 50 reviewers.
 *
 * 1. Seeds the demo into a fresh PGlite in a temporary DATA_DIR (its few hundred open cases), then in SQL
 *    adds "Bench Customer" profiles in Pending Review, each with an open case in Identity due from 48 hours
 *    ago to 24 hours ahead, up to BENCH_OPEN_CASES (10,000) open cases; BENCH_REVIEWERS (50) reviewers `bench-reviewer-<n>@acme.test` (User@2026, group Reviewers, capacity
 *    BENCH_REVIEW_CAPACITY, 25) and a queue "Bench intake" holding BENCH_NEW_CASES (1,000) new unassigned cases
 *    (AML hits on profiles with none open), its auto-assignment off. Starts `server/main.ts` on a free port.
 * 2. Auto-assignment: an Admin switches it on for "Bench intake" (`PUT /review/queues/{id}`, which assigns the
 *    queue's waiting cases at once): the time of that request, the cases left unassigned, and every reviewer's
 *    load before and after (GET /review/reviewers): none may get a case beyond their capacity.
 * 3. Next case at once: the 50 bench reviewers each send `POST /review/next` together, BENCH_NEXT_ROUNDS (5)
 *    times; counts the cases handed out twice (must be 0) and checks through `GET /review/cases/{id}` that each
 *    case is assigned to the reviewer who got it.
 * 4. The studio in headless Chromium, signed in as reviewer@acme.test (after BENCH_WARMUP unmeasured runs,
 *    BENCH_RUNS measured ones, measured in the page with performance.now(), "painted" = after the next frame):
 *      first row  a fresh load of /review until the first row of the cases table is in the DOM and painted,
 *                 from the navigation's start;
 *      next case  a click on "Next case", a second after the first row (a reviewer reads the desk first), until
 *                 the profile's header and Profile Info are painted, from the click's event time (a client-side
 *                 route change, as a reviewer works).
 * Targets: first row < 300 ms, Next case → profile < 150 ms, 1,000 cases auto-assigned < 2 s with
 * no reviewer over capacity, 0 double assignments. Nothing is asserted.
 * Env: BENCH_OPEN_CASES, BENCH_REVIEWERS, BENCH_REVIEW_CAPACITY, BENCH_NEW_CASES, BENCH_NEXT_ROUNDS,
 * BENCH_RUNS (15), BENCH_WARMUP (3), BENCH_TRACE (1: the last run's requests and long tasks), CHROMIUM_PATH.
 * `--no-build`, `--no-browser`.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { sql } from 'drizzle-orm';
import type { ReviewCase, Reviewer, ReviewQueue } from '#contract/review';
import { buildStudioIfStale } from '../scripts/studioBuild';
import { openDatabase } from '../server/db/client';
import { api, loadAverage, login, pool, userIdOf } from './calls';
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

const OPEN_CASES = Number(process.env.BENCH_OPEN_CASES ?? 10_000);
const REVIEWERS = Number(process.env.BENCH_REVIEWERS ?? 50);
const CAPACITY = Number(process.env.BENCH_REVIEW_CAPACITY ?? 25);
const NEW_CASES = Number(process.env.BENCH_NEW_CASES ?? 1_000);
const NEXT_ROUNDS = Number(process.env.BENCH_NEXT_ROUNDS ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const BENCH_QUEUE = 'Bench intake';
const ADMIN = { email: 'admin@acme.test', password: 'Admin@2026' };
const REVIEWER = { email: 'reviewer@acme.test', password: 'User@2026' };
const PASSWORD = 'User@2026';

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

// ---------------------------------------------------------------------------------------------------
// Seed

/** The bench reviewers and the queue of new cases, in SQL (before the server: PGlite has one process). */
async function addReviewersAndIntake(folder: string): Promise<void> {
  const database = await openDatabase({ pgliteDir: join(folder, 'pg') });
  try {
    const { db } = database;
    const [acme] = (
      (await db.execute(sql`SELECT id FROM companies WHERE name = 'Acme Bank'`)) as { rows: { id: number }[] }
    ).rows;
    if (!acme) throw new Error('no Acme Bank in the demo data');
    const company = acme.id;
    const [seeded] = (
      (await db.execute(
        sql`SELECT count(*)::int AS n FROM review_cases WHERE company_id = ${company} AND state <> 'decided'`,
      )) as { rows: { n: number }[] }
    ).rows;
    const extra = Math.max(0, OPEN_CASES - (seeded?.n ?? 0));
    // Customers waiting for a review, each with an open Pending Review case in Identity, due from 48 hours ago
    // (overdue) to 24 hours ahead.
    await db.execute(sql`
      INSERT INTO profiles (company_id, id_card_number, name, status, risk_level, source, created_at, updated_at)
      SELECT ${company}, 'BENCH' || n, 'Bench Customer ' || n, 'Pending Review',
             (array['Low','Mid','High','Very High'])[1 + n % 4], 'api', now(), now()
        FROM generate_series(1, ${extra}) AS n`);
    await db.execute(sql`
      INSERT INTO review_cases (company_id, profile_id, kind, queue_id, state, due_at, created_at, updated_at)
      SELECT p.company_id, p.id, 'pending_review', q.id, 'open', t + interval '24 hours', t, t
        FROM profiles p JOIN review_queues q ON q.company_id = p.company_id AND q.name = 'Identity',
             LATERAL (SELECT now() - interval '72 hours' * random() AS t) AS c
       WHERE p.company_id = ${company} AND p.id_card_number LIKE 'BENCH%'`);
    await db.execute(sql`
      INSERT INTO users (company_id, email, first_name, last_name, password_hash, role)
      SELECT ${company}, 'bench-reviewer-' || n || '@acme.test', 'Reviewer', 'No. ' || n, u.password_hash, 'User'
        FROM generate_series(1, ${REVIEWERS}) AS n,
             (SELECT password_hash FROM users WHERE email = ${REVIEWER.email}) AS u`);
    await db.execute(sql`
      INSERT INTO user_groups (user_id, group_id)
      SELECT u.id, g.id FROM users u JOIN groups g ON g.company_id = u.company_id AND g.name = 'Reviewers'
       WHERE u.email LIKE 'bench-reviewer-%'`);
    await db.execute(sql`
      INSERT INTO reviewer_settings (user_id, capacity)
      SELECT id, ${CAPACITY} FROM users WHERE email LIKE 'bench-reviewer-%'`);
    await db.execute(sql`
      INSERT INTO review_queues (company_id, name, sla_hours) VALUES (${company}, ${BENCH_QUEUE}, 24)`);
    // The new cases: AML hits of bench customers (none of them has one open).
    await db.execute(sql`
      INSERT INTO review_cases (company_id, profile_id, kind, queue_id, state, due_at)
      SELECT p.company_id, p.id, 'aml_hit', q.id, 'open', now() + interval '24 hours'
        FROM profiles p JOIN review_queues q ON q.company_id = p.company_id AND q.name = ${BENCH_QUEUE}
       WHERE p.company_id = ${company} AND p.id_card_number LIKE 'BENCH%'
       ORDER BY p.id LIMIT ${NEW_CASES}`);
    await db.execute(sql`
      INSERT INTO review_case_events (case_id, company_id, kind, data, created_at)
      SELECT c.id, c.company_id, 'opened',
             jsonb_build_object('kind', c.kind, 'queue', c.queue_id, 'source', 'bench'), c.created_at
        FROM review_cases c JOIN profiles p ON p.id = c.profile_id AND p.id_card_number LIKE 'BENCH%'`);
    await db.execute(sql`VACUUM ANALYZE`);
  } finally {
    await database.close();
  }
}

async function startServer(): Promise<string> {
  dataDir = mkdtempSync(join(tmpdir(), 'idv-bench-review-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = benchServerEnv(dataDir, port);
  console.log(
    `Seeding the demo, then up to ${OPEN_CASES} open cases, ${REVIEWERS} reviewers, ${NEW_CASES} new cases ...`,
  );
  const started = Date.now();
  const code = await finished(run(['server/db/seed.ts'], env));
  if (code !== 0) throw new Error(`seed failed (${code})`);
  await addReviewersAndIntake(dataDir);
  console.log(`Seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  server = run(['server/main.ts'], env);
  await waitForServer(base, server);
  return base;
}

// ---------------------------------------------------------------------------------------------------
// Server figures

const ms = (n: number) => `${Math.round(n)} ms`;

function spreadOf(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: Math.round(percentile(sorted, 50)),
    p95: Math.round(percentile(sorted, 95)),
    max: Math.round(sorted.at(-1) ?? Number.NaN),
  };
}

async function openCases(base: string, token: string, query: string): Promise<number> {
  return (await api<{ count: number }>(base, token, 'GET', `/api/v2/review/cases?limit=1&${query}`)).count;
}

async function autoAssignment(base: string, adminToken: string): Promise<void> {
  const queues = await api<ReviewQueue[]>(base, adminToken, 'GET', '/api/v2/review/queues');
  const intake = queues.find((q) => q.name === BENCH_QUEUE);
  if (!intake) throw new Error(`no queue ${BENCH_QUEUE}`);
  const open = queues.reduce((sum, q) => sum + q.open, 0);
  console.log(
    `Open cases: ${open} (${open - intake.open} seeded by the demo, ${intake.open} in ${BENCH_QUEUE})`,
  );
  const before = new Map(
    (await api<Reviewer[]>(base, adminToken, 'GET', '/api/v2/review/reviewers')).map((r) => [r.user, r]),
  );
  const started = performance.now();
  await api(base, adminToken, 'PUT', `/api/v2/review/queues/${intake.id}`, { auto_assign: true });
  const took = performance.now() - started;
  const after = await api<Reviewer[]>(base, adminToken, 'GET', '/api/v2/review/reviewers');
  const gained = after.map((r) => ({ ...r, gained: r.load - (before.get(r.user)?.load ?? 0) }));
  const over = gained.filter((r) => r.gained > 0 && r.load > r.capacity);
  const left = await openCases(base, adminToken, `queue=${intake.id}&view=unassigned`);
  const given = gained.reduce((sum, r) => sum + Math.max(0, r.gained), 0);
  console.log(
    `\nAuto-assignment switched on for ${BENCH_QUEUE} (${intake.open} waiting cases, ${after.length} reviewers, ` +
      `capacity ${CAPACITY} for the bench reviewers):\n` +
      `  ${given} cases assigned in ${ms(took)} (one request; target < 2000 ms), ${left} left unassigned\n` +
      `  reviewers given a case beyond their capacity: ${over.length} (must be 0); ` +
      `most cases given to one reviewer: ${Math.max(...gained.map((r) => r.gained))}`,
  );
}

async function nextRace(base: string): Promise<void> {
  const tokens = await pool(
    Array.from({ length: REVIEWERS }, (_, n) => `bench-reviewer-${n + 1}@acme.test`),
    5,
    (email) => login(base, email, PASSWORD),
  );
  const handed: { caseId: number; user: number }[] = [];
  const times: number[] = [];
  let none = 0;
  const roundsStarted = performance.now();
  for (let round = 0; round < NEXT_ROUNDS; round++) {
    await Promise.all(
      tokens.map(async (token) => {
        const started = performance.now();
        try {
          const taken = await api<ReviewCase>(base, token, 'POST', '/api/v2/review/next');
          handed.push({ caseId: taken.id, user: userIdOf(token) });
        } catch (error) {
          if (!String(error).includes('HTTP 404')) throw error;
          none += 1;
        }
        times.push(performance.now() - started);
      }),
    );
  }
  const total = performance.now() - roundsStarted;
  const twice = handed.length - new Set(handed.map((h) => h.caseId)).size;
  const adminToken = await login(base, ADMIN.email, ADMIN.password);
  const wrong = (
    await pool(handed, 10, async ({ caseId, user }) => {
      const held = await api<ReviewCase>(base, adminToken, 'GET', `/api/v2/review/cases/${caseId}`);
      return held.assignee === user ? 0 : 1;
    })
  ).reduce((a: number, b: number) => a + b, 0);
  const spread = spreadOf(times);
  console.log(
    `\nNext case, ${REVIEWERS} reviewers at once × ${NEXT_ROUNDS} rounds (${total.toFixed(0)} ms in all):\n` +
      `  ${handed.length} cases handed out, ${none} answers "no case waiting"; handed out twice: ${twice} ` +
      `(must be 0); assigned to someone other than who got it: ${wrong} (must be 0)\n` +
      `  one request under that load: median ${spread.median} ms, p95 ${spread.p95} ms, max ${spread.max} ms`,
  );
}

/** The reads the desk screen makes, and Next case, one at a time as one reviewer sends them (information). */
async function apiTimes(base: string): Promise<void> {
  const token = await login(base, REVIEWER.email, REVIEWER.password);
  const reads = [
    'GET /api/v2/review/cases?ordering=due_at&limit=25&offset=0',
    'GET /api/v2/review/cases?view=unassigned&ordering=due_at&limit=25&offset=0',
    'GET /api/v2/review/queues',
    'GET /api/v2/review/reviewers',
    'GET /api/v2/review/reason_codes',
    'POST /api/v2/review/next',
  ];
  console.log(`\nOne reviewer's requests, one at a time (${RUNS} each after ${WARMUP} warm-ups), ms:`);
  for (const line of reads) {
    const [method, path] = line.split(' ') as [string, string];
    const times: number[] = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const started = performance.now();
      await api(base, token, method, path);
      if (i >= WARMUP) times.push(performance.now() - started);
    }
    const spread = spreadOf(times);
    console.log(`  ${line.padEnd(80)} median ${spread.median}, p95 ${spread.p95}`);
  }
}

// ---------------------------------------------------------------------------------------------------
// Studio

/**
 * In the page (a string: the studio's CSP refuses eval, and no bundler helper may end up in it):
 * window.__bench.marks.row / rowPainted: the first row of the cases table in the DOM / after the next frame;
 * profile / profilePainted: after a click, the profile's header and Profile Info / after the next frame;
 * window.__bench.clickAt: the last click's event time (same clock as the marks).
 */
const INSTRUMENT = `(() => {
  const bench = { clickAt: null, marks: {}, long: [] };
  window.__bench = bench;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) bench.long.push({ type: 'longtask', name: '', start: e.startTime, end: e.startTime + e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
  const afterPaint = (name) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => { bench.marks[name] = performance.now(); };
    channel.port2.postMessage(null);
  });
  const check = () => {
    const m = bench.marks;
    if (m.row === undefined && document.querySelector('.studio-review-table tbody tr[data-case]')) {
      m.row = performance.now();
      afterPaint('rowPainted');
    }
    if (bench.clickAt !== null && m.profile === undefined) {
      const h2 = document.querySelector('.studio-profile-header h2');
      if (h2 && h2.textContent && document.querySelector('[role="tabpanel"] .studio-fields')) {
        m.profile = performance.now();
        afterPaint('profilePainted');
      }
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
  document.addEventListener('click', (event) => {
    bench.clickAt = event.timeStamp;
    bench.marks = { row: bench.marks.row, rowPainted: bench.marks.rowPainted };
  }, true);
})();`;

/** Waits for a mark (a function, not a string: the CSP refuses the eval of a string predicate). */
const waitForMark = (page: Page, mark: string) =>
  page.waitForFunction(
    (name) =>
      (window as unknown as { __bench?: { marks: Record<string, number> } }).__bench?.marks[name] !==
      undefined,
    mark,
    { timeout: 30_000 },
  );

const benchState = (page: Page) =>
  page.evaluate('({ clickAt: window.__bench.clickAt, marks: window.__bench.marks })') as Promise<{
    clickAt: number;
    marks: Record<string, number>;
  }>;

/**
 * BENCH_TRACE=1: where a run's time goes, printed for the last run: the page's requests (start and end, from
 * the navigation's start or from the click) and its long tasks.
 */
const TRACE = process.env.BENCH_TRACE === '1';

/** The requests and long tasks of the page from `from` on (ms of the page's clock), as lines. */
async function timeline(page: Page, from: number): Promise<string[]> {
  const entries = (await page.evaluate(
    `performance.getEntries().filter((e) => (e.entryType === 'resource' || e.entryType === 'longtask' || e.entryType === 'navigation') && e.startTime + e.duration >= ${from})
       .map((e) => ({ type: e.entryType, name: e.name.replace(location.origin, ''), start: e.startTime, end: e.startTime + e.duration }))
       .concat(window.__bench.long.filter((e) => e.end >= ${from}))`,
  )) as { type: string; name: string; start: number; end: number }[];
  return entries
    .sort((a, b) => a.start - b.start)
    .map(
      (e) =>
        `    ${(e.start - from).toFixed(0).padStart(5)} → ${(e.end - from).toFixed(0).padStart(5)} ms  ${e.type === 'resource' ? '' : `${e.type} `}${e.name.slice(0, 90)}`,
    );
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}

/** The functions with the most self time in a CPU profile, as lines (BENCH_TRACE). */
function hotFunctions(profile: CpuProfile, top = 25): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const self = new Map<string, number>();
  (profile.samples ?? []).forEach((id, i) => {
    const frame = byId.get(id);
    if (!frame) return;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.replace(/^.*\/assets\//, '')}:${frame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000);
  });
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, ms]) => `    ${ms.toFixed(1).padStart(7)} ms  ${key.slice(0, 110)}`);
}

/** One run: /review loaded → first row painted; Next case → the profile painted. */
async function studioRun(page: Page, trace = false): Promise<{ row: number; next: number }> {
  await page.goto('/review', { waitUntil: 'commit' });
  await waitForMark(page, 'rowPainted');
  const row = (await benchState(page)).marks.rowPainted as number;
  if (trace)
    console.log(
      `  A fresh /review (first row painted at ${row.toFixed(0)} ms):\n${(await timeline(page, 0)).join('\n')}`,
    );
  // A reviewer reads the desk before pressing Next case: the press comes a second after the first row.
  await page.waitForTimeout(1000);
  const cdp = trace ? await page.context().newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  await page.getByRole('button', { name: 'Next case', exact: true }).click();
  await waitForMark(page, 'profilePainted');
  if (cdp)
    console.log(
      `  Next case, the page's busiest functions (self time):\n${hotFunctions((await cdp.send('Profiler.stop')).profile).join('\n')}`,
    );
  const after = await benchState(page);
  const next = (after.marks.profilePainted as number) - after.clickAt;
  if (trace)
    console.log(
      `  Next case (profile painted ${next.toFixed(0)} ms after the click):\n${(await timeline(page, after.clickAt)).join('\n')}`,
    );
  return { row, next };
}

async function studio(base: string): Promise<void> {
  browser = await launchChromium();
  const context = await browser.newContext({
    baseURL: base,
    locale: 'en-US',
    viewport: { width: 1440, height: 900 },
  });
  await context.addInitScript(INSTRUMENT);
  const page = await context.newPage();
  await signInAs(page, REVIEWER);
  for (let i = 0; i < WARMUP; i++) await studioRun(page);
  const runs: { row: number; next: number }[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await studioRun(page, TRACE && i === RUNS - 1));
  const row = spreadOf(runs.map((r) => r.row));
  const next = spreadOf(runs.map((r) => r.next));
  console.log(
    `\nThe studio as ${REVIEWER.email} (headless Chromium ${browser.version()}, ${RUNS} runs after ${WARMUP} ` +
      'warm-ups, measured in the page, painted = after the next frame):\n' +
      `  /review loaded → first case row painted (from navigation start): median ${row.median} ms, ` +
      `p95 ${row.p95} ms, max ${row.max} ms (target < 300 ms)\n` +
      `  Next case clicked → profile painted: median ${next.median} ms, p95 ${next.p95} ms, ` +
      `max ${next.max} ms (target < 150 ms)`,
  );
}

async function main() {
  const args = new Set(process.argv.slice(2));
  if (!args.has('--no-build')) buildStudioIfStale();
  const base = await startServer();
  console.log(`Server at ${base} (${dataDir}); load average ${loadAverage()}`);
  const adminToken = await login(base, ADMIN.email, ADMIN.password);
  await autoAssignment(base, adminToken);
  await nextRace(base);
  await apiTimes(base);
  if (!args.has('--no-browser')) await studio(base);
  console.log(
    `\nMachine: ${availableParallelism()} cores shared by the server, Chromium and this script; load average ` +
      `${loadAverage()}. Compare runs on the same machine only.`,
  );
}

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });
main()
  .then(cleanUp)
  .catch(async (error) => {
    console.error(error);
    await cleanUp();
    process.exit(1);
  });
