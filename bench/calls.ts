/**
 * `npm run bench:calls`: live calls on loopback, against a server of its own.
 *
 * 1. Builds the studio when dist/ is stale (as bench/profiles.ts; `--no-build` skips it) and serves a copy;
 *    seeds the demo data (Acme Bank gets enough profiles for every call) into a fresh PGlite in a temporary
 *    DATA_DIR and adds BENCH_LOAD_AGENTS agents `bench-agent-<n>@acme.test` (User@2026) in SQL, as
 *    bench/stats.ts does; starts `server/main.ts` on a free port.
 * 2. Browser calls (headless Debian Chromium with fake media, the flags of playwright.config.ts): one agent
 *    context signed in as agent@acme.test, Online on /calls; per call a fresh customer context opens a join
 *    link (POST /profile/url as admin). Timestamps are taken INSIDE the pages with Date.now() (one machine,
 *    one clock), so Playwright's round trips never count:
 *      ring   the customer page sends its socket.io CONNECT (it joins the queue; the call is created just
 *             before) → the agent page's incoming-call [role=alertdialog] is in the DOM (and, for
 *             information, painted; also from the page receiving the acknowledgement, which a busy page
 *             can see after the agent already rings);
 *      video  the agent page's click on Answer → the remote video plays on BOTH pages ("Customer's video"
 *             on the agent's, "The agent's video" on the customer's): the first frame presented
 *             (requestVideoFrameCallback) with videoWidth > 0 and the element not paused.
 *    Then hang up, status Complete, Save status, "Call closed", back to /calls.
 * 3. Load, sockets only (socket.io-client, no browser): BENCH_LOAD_AGENTS agents Online with sockets;
 *    BENCH_LOAD_CUSTOMERS customers join the queue (10 at a time) while the agents only listen; once all
 *    wait, every free agent answers the oldest call it has heard of (`call.answer`); a winner talks 20–200 ms, hangs up, sets status 3 (PUT) and
 *    answers again; until every call is answered. Prints answered calls, calls answered twice (must be 0),
 *    refusals and the total time, and checks the calls' rows through GET /api/v2/videocall.
 *
 * 4. Status spread, sockets only: agent@acme.test's availability is changed by the agent, by an
 *    admin on the board, and by a second sign-in while no studio of the agent is open (Offline); the time
 *    from sending the request to the last of BENCH_SPREAD_SCREENS (20) other staff sockets and the agent's
 *    own showing it as `agent.status` and on the agent board (`stats.update`). Target under 1 s.
 *
 *    Then the same with the agent waiting on a profile's Video Calls tab (moved there as a link does,
 *    the ring dialog answered on that page): Answer → video on both sides, as row c.
 *    Then the same calls with the company routing calls one agent at a time (PUT /call_routing
 *    `one_at_a_time`; the agent is the one free agent, so every call is offered to them): join → ring, row d.
 * Env: BENCH_CALL_RUNS (12), BENCH_CALL_PROFILE_RUNS (12), BENCH_CALL_ROUTED_RUNS (12), BENCH_CALL_WARMUP (2), BENCH_LOAD_AGENTS (50), BENCH_LOAD_CUSTOMERS (200),
 * BENCH_SPREAD_SCREENS (20), BENCH_SPREAD_RUNS (20), CHROMIUM_PATH (/usr/bin/chromium). `--no-build`,
 * `--no-browser` (only the sockets parts), `--no-load`, `--no-spread`.
 * Targets: ring < 300 ms, video < 800 ms. Nothing is asserted.
 *
 * Also exports the socket helpers that `instantStats` in bench/stats.ts uses.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { sql } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '#contract/socket';
import { buildStudioIfStale } from '../scripts/studioBuild';
import { openDatabase } from '../server/db/client';
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

const RUNS = Number(process.env.BENCH_CALL_RUNS ?? 12);
/** Calls answered on a profile page. */
const PROFILE_RUNS = Number(process.env.BENCH_CALL_PROFILE_RUNS ?? RUNS);
const WARMUP = Number(process.env.BENCH_CALL_WARMUP ?? 2);
/** Calls rung with one-at-a-time routing: the company setting switched for them, then back. */
const ROUTED_RUNS = Number(process.env.BENCH_CALL_ROUTED_RUNS ?? RUNS);
const LOAD_AGENTS = Number(process.env.BENCH_LOAD_AGENTS ?? 50);
const LOAD_CUSTOMERS = Number(process.env.BENCH_LOAD_CUSTOMERS ?? 200);
const TARGET_RING_MS = 300;
const TARGET_VIDEO_MS = 800;
const ADMIN = { email: 'admin@acme.test', password: 'Admin@2026' };
const AGENT = { email: 'agent@acme.test', password: 'User@2026' };
export const BENCH_AGENT_PASSWORD = 'User@2026';

// ---------------------------------------------------------------------------------------------------
// HTTP and socket helpers (also used by instantStats in bench/stats.ts)

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A JSON request; throws with the status and the start of the body when it is not 2xx. */
export async function api<T>(
  base: string,
  token: string | null,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: HTTP ${response.status} ${text.slice(0, 200)}`);
  return (text ? JSON.parse(text) : null) as T;
}

/** The access token of a login (POST /api/v1/login/). With no socket of the user connected, Offline. */
export async function login(base: string, email: string, password: string): Promise<string> {
  const { access } = await api<{ access?: string }>(base, null, 'POST', '/api/v1/login/', {
    username: email,
    password,
  });
  if (!access) throw new Error(`login of ${email} gave no access token`);
  return access;
}

/** The user id in an access token's claims (not verified: the server made it). */
export function userIdOf(token: string): number {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
  return payload.user_id as number;
}

/** How a socket connects: extra headers (a load balancer's pin cookie) and whether it reconnects. */
export interface SocketOptions {
  headers?: Record<string, string>;
  reconnect?: boolean;
}

/** A socket that is not connected yet: `listen` runs first, so nothing sent on connect is missed. */
export function socketOf(
  base: string,
  auth: Record<string, unknown>,
  listen?: (socket: ClientSocket) => void,
  options: SocketOptions = {},
): ClientSocket {
  const socket: ClientSocket = io(base, {
    path: '/socket.io',
    auth,
    transports: ['websocket'],
    reconnection: options.reconnect ?? false,
    reconnectionDelay: 200,
    reconnectionDelayMax: 1_000,
    autoConnect: false,
    ...(options.headers ? { extraHeaders: options.headers } : {}),
  });
  listen?.(socket);
  return socket;
}

export function connected(socket: ClientSocket): Promise<ClientSocket> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
    socket.connect();
  });
}

export interface OnlineAgent {
  id: number;
  email: string;
  token: string;
  socket: ClientSocket;
}

/** Signs in, sets Online (POST /videocall/agent_status) and connects a staff socket. */
export async function onlineAgent(
  base: string,
  email: string,
  password: string,
  listen?: (socket: ClientSocket) => void,
  options: SocketOptions = {},
): Promise<OnlineAgent> {
  const token = await login(base, email, password);
  await api(base, token, 'POST', '/api/v2/videocall/agent_status', { status: 'Online' });
  const { token: socketToken } = await api<{ token: string }>(
    base,
    token,
    'POST',
    '/api/v2/user/socket_token',
    { studio: true },
  );
  const socket = await connected(socketOf(base, { token: socketToken }, listen, options));
  return { id: userIdOf(token), email, token, socket };
}

/** Runs `work` over `items` with at most `limit` at a time. */
export async function pool<T, R>(items: T[], limit: number, work: (item: T, index: number) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** `count` profile ids of the caller's company (GET /api/v2/profile, newest first). */
export async function profileIds(base: string, token: string, count: number): Promise<number[]> {
  const ids: number[] = [];
  while (ids.length < count) {
    const page = await api<{ results: { id: number }[] }>(
      base,
      token,
      'GET',
      `/api/v2/profile?limit=200&offset=${ids.length}`,
    );
    if (page.results.length === 0) break;
    ids.push(...page.results.map((p) => p.id));
  }
  if (ids.length < count) throw new Error(`only ${ids.length} profiles, ${count} needed`);
  return ids.slice(0, count);
}

/** A customer's call: a join link (staff token) and POST /videocall with the link's token; not connected. */
export async function customerCall(
  base: string,
  staffToken: string,
  profile: number,
): Promise<{ callId: number; token: string; url: string }> {
  const link = await api<{ url: string; token: string }>(base, staffToken, 'POST', '/api/v2/profile/url', {
    profile,
  });
  const call = await api<{ id: number }>(base, link.token, 'POST', '/api/v2/videocall', {
    profile,
    status: 0,
  });
  return { callId: call.id, token: link.token, url: link.url };
}

export interface Spread {
  n: number;
  median: number;
  p95: number;
  min: number;
  max: number;
}

export function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    n: sorted.length,
    median: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    min: round(sorted[0] ?? Number.NaN),
    max: round(sorted[sorted.length - 1] ?? Number.NaN),
  };
}

export const loadAverage = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

// ---------------------------------------------------------------------------------------------------
// In-page instrumentation (strings, so the bundler's helpers never end up in the pages)

/**
 * Shared by both pages: window.__bench gets Date.now() marks.
 *   joinSentAt   the page sends the socket.io CONNECT packet ("40{auth}") on a /socket.io/ WebSocket;
 *   connectedAt  the page receives its acknowledgement ("40{sid}");
 *   inRoomAt     the first `agent.status` event (a staff socket is in its company room by then);
 *   ringAt / ringPaintedAt   [role=alertdialog] in the DOM / after the next paint;
 *   queueTextAt  [data-testid=queue-position] in the DOM (the customer's "You are in the queue");
 *   answerAt     a click on the alertdialog's Answer button;
 *   videoAt      the video labelled VIDEO_LABEL presents a frame with videoWidth > 0 while not paused;
 *   playingAt    that video's 'playing' event (for information).
 */
const instrument = (videoLabel: string) => `(() => {
  const b = { joinSentAt: null, connectedAt: null, inRoomAt: null, ringAt: null, ringPaintedAt: null, queueTextAt: null,
    answerAt: null, videoAt: null, playingAt: null };
  window.__bench = b;
  const Native = window.WebSocket;
  class Watched extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      if (!String(url).includes('/socket.io/')) return;
      this.benchSocketIo = true;
      this.addEventListener('message', (event) => {
        if (typeof event.data !== 'string') return;
        if (b.connectedAt === null && event.data.startsWith('40')) b.connectedAt = Date.now();
        if (b.inRoomAt === null && event.data.startsWith('42["agent.status"')) b.inRoomAt = Date.now();
      });
    }
    send(data) {
      if (this.benchSocketIo && b.joinSentAt === null && typeof data === 'string' && data.startsWith('40')) {
        b.joinSentAt = Date.now();
      }
      return super.send(data);
    }
  }
  window.WebSocket = Watched;
  const seen = new WeakSet();
  const watch = (video) => {
    if (seen.has(video)) return;
    seen.add(video);
    video.addEventListener('playing', () => { if (b.playingAt === null) b.playingAt = Date.now(); });
    const frame = () => {
      if (b.videoAt !== null) return;
      if (video.videoWidth > 0 && !video.paused) b.videoAt = Date.now();
      else video.requestVideoFrameCallback(frame);
    };
    video.requestVideoFrameCallback(frame);
  };
  const check = () => {
    if (b.ringAt === null && document.querySelector('[role="alertdialog"]')) {
      b.ringAt = Date.now();
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => { b.ringPaintedAt = Date.now(); };
        channel.port2.postMessage(null);
      });
    }
    if (b.queueTextAt === null && document.querySelector('[data-testid="queue-position"]')) b.queueTextAt = Date.now();
    for (const video of document.querySelectorAll('video')) {
      if (video.getAttribute('aria-label') === ${JSON.stringify(videoLabel)}) watch(video);
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('button') : null;
    if (button && button.closest('[role="alertdialog"]') && button.textContent.trim() === 'Answer') {
      b.answerAt = Date.now();
    }
  }, true);
})();`;

interface Marks {
  joinSentAt: number | null;
  connectedAt: number | null;
  inRoomAt: number | null;
  ringAt: number | null;
  ringPaintedAt: number | null;
  queueTextAt: number | null;
  answerAt: number | null;
  videoAt: number | null;
  playingAt: number | null;
}

const marksOf = (page: Page) => page.evaluate('window.__bench') as Promise<Marks>;
/**
 * A function predicate, not a string: under the studio's strict CSP (no eval) Playwright cannot evaluate a
 * string predicate in the page (bench/profiles.ts had the same fix).
 */
const until = (page: Page, mark: keyof Marks, timeout = 30_000) =>
  page.waitForFunction(
    (name) => {
      const marks = (window as unknown as { __bench?: Record<string, number | null> }).__bench;
      return marks !== undefined && marks[name] !== null;
    },
    mark,
    { timeout },
  );

// ---------------------------------------------------------------------------------------------------
// Server

let dataDir: string | undefined;
let server: ChildProcess | undefined;
let browser: Browser | undefined;
const openSockets: ClientSocket[] = [];

async function cleanUp(): Promise<void> {
  for (const socket of openSockets.splice(0)) socket.disconnect();
  await browser?.close().catch(() => undefined);
  browser = undefined;
  await stop(server);
  server = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
}

/** Copies of agent@acme.test (role User, same password) with their own e-mail, as bench/stats.ts seeds. */
export async function addAgents(folder: string, count: number): Promise<void> {
  const database = await openDatabase({ pgliteDir: join(folder, 'pg') });
  try {
    await database.db.execute(sql`
      INSERT INTO users (company_id, email, first_name, last_name, password_hash, role)
      SELECT u.company_id, 'bench-agent-' || n || '@acme.test', 'Agent', 'No. ' || n, u.password_hash, 'User'
        FROM generate_series(1, ${count}) AS n,
             (SELECT company_id, password_hash FROM users WHERE email = 'agent@acme.test' LIMIT 1) AS u`);
  } finally {
    await database.close();
  }
}

async function startServer(profiles: number): Promise<string> {
  dataDir = mkdtempSync(join(tmpdir(), 'idv-bench-calls-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = benchServerEnv(dataDir, port);
  console.log(`Seeding the demo data with ${profiles} profiles and ${LOAD_AGENTS} bench agents ...`);
  const code = await finished(run(['server/db/seed.ts', '--profiles', String(profiles)], env));
  if (code !== 0) throw new Error(`seed failed (${code})`);
  await addAgents(dataDir, LOAD_AGENTS);
  server = run(['server/main.ts'], env);
  await waitForServer(base, server);
  return base;
}

// ---------------------------------------------------------------------------------------------------
// Browser calls

interface CallSample {
  /** Customer's page sends its socket.io CONNECT → alertdialog in the agent's DOM. */
  ring: number;
  /** Customer's page receives the CONNECT acknowledgement → alertdialog in the agent's DOM (information). */
  ringFromAck: number;
  ringPainted: number;
  /** "You are in the queue" in the customer's DOM → alertdialog in the agent's DOM (information). */
  ringFromText: number;
  /** Answer click → both remote videos playing. */
  video: number;
  agentVideo: number;
  customerVideo: number;
  /** Answer click → the 'playing' event on both (information). */
  playingEvent: number;
}

async function openCalls(agent: Page): Promise<void> {
  await agent.goto('/calls');
  await until(agent, 'inRoomAt');
  const status = agent.getByRole('button', { name: /^Availability:/ });
  await status.waitFor();
  if ((await status.getAttribute('aria-label')) !== 'Availability: Online') {
    await status.click();
    await agent.getByRole('menuitemradio', { name: 'Online' }).click();
  }
  await agent.getByRole('button', { name: 'Availability: Online', exact: true }).waitFor();
}

async function oneCall(base: string, agent: Page, link: string): Promise<CallSample> {
  if (!browser) throw new Error('no browser');
  const context = await browser.newContext({
    baseURL: base,
    locale: 'en-US',
    permissions: ['camera', 'microphone'],
  });
  try {
    await context.addInitScript(instrument("The agent's video"));
    const customer = await context.newPage();
    await customer.goto(link);
    // The device check: the customer joins with the default camera.
    await customer.getByRole('button', { name: 'I agree', exact: true }).click();
    await customer.getByRole('button', { name: 'Join the call', exact: true }).click();
    await until(customer, 'connectedAt');
    await until(agent, 'ringAt');
    await until(agent, 'ringPaintedAt');
    await agent.getByRole('alertdialog').getByRole('button', { name: 'Answer', exact: true }).click();
    await until(agent, 'videoAt');
    await until(customer, 'videoAt');
    await until(agent, 'playingAt', 5_000).catch(() => undefined);
    await until(customer, 'playingAt', 5_000).catch(() => undefined);
    const a = await marksOf(agent);
    const c = await marksOf(customer);
    const n = (value: number | null) => value ?? Number.NaN;

    await agent.getByRole('button', { name: 'Hang up' }).click();
    await agent.getByRole('heading', { name: 'How did the call end?' }).waitFor({ timeout: 30_000 });
    await agent.getByRole('radio', { name: 'Complete', exact: true }).check({ force: true });
    await agent.getByRole('button', { name: 'Save status' }).click();
    await agent.getByText('Call closed').waitFor({ timeout: 60_000 });
    return {
      ring: n(a.ringAt) - n(c.joinSentAt),
      ringFromAck: n(a.ringAt) - n(c.connectedAt),
      ringPainted: n(a.ringPaintedAt) - n(c.joinSentAt),
      ringFromText: n(a.ringAt) - n(c.queueTextAt),
      video: Math.max(n(a.videoAt), n(c.videoAt)) - n(a.answerAt),
      agentVideo: n(a.videoAt) - n(a.answerAt),
      customerVideo: n(c.videoAt) - n(a.answerAt),
      playingEvent: Math.max(n(a.playingAt), n(c.playingAt)) - n(a.answerAt),
    };
  } catch (error) {
    const shot = join(tmpdir(), `bench-calls-agent-${Date.now()}.png`);
    await agent.screenshot({ path: shot }).catch(() => undefined);
    console.error(`The call stalled; the agent's page: ${shot}`);
    throw error;
  } finally {
    await context.close();
  }
}

async function browserCalls(base: string, adminToken: string, profiles: number[]): Promise<void> {
  browser = await launchChromium();
  const context = await browser.newContext({
    baseURL: base,
    locale: 'en-US',
    viewport: { width: 1440, height: 900 },
    permissions: ['camera', 'microphone'],
  });
  await context.addInitScript(instrument("Customer's video"));
  const agent = await context.newPage();
  await signInAs(agent, AGENT);
  console.log(`Signed in as ${AGENT.email}; ${WARMUP} warm-up + ${RUNS} measured calls ...`);

  const before = loadAverage();
  /** Calls answered where the agent waits: /calls, or a profile's Video Calls tab. */
  const measure = async (runs: number, offset: number, onProfile: boolean): Promise<CallSample[]> => {
    const taken: CallSample[] = [];
    for (let i = 0; i < WARMUP + runs; i++) {
      await openCalls(agent);
      const profile = profiles[offset + i];
      if (onProfile) {
        // Moved there as a link does (no reload): the ring dialog answers on the profile page.
        await agent.evaluate(
          (to) => window.history.pushState(null, '', to),
          `/profile/${profile}?tab=videoCalls`,
        );
        await agent.getByRole('button', { name: 'Create a join link' }).waitFor();
      }
      const { url } = await api<{ url: string }>(base, adminToken, 'POST', '/api/v2/profile/url', {
        profile,
      });
      try {
        const sample = await oneCall(base, agent, url);
        if (i >= WARMUP) taken.push(sample);
      } catch (error) {
        const alerts = await agent
          .locator('[role="alert"]')
          .allTextContents()
          .catch(() => []);
        throw new Error(
          `call ${i + 1}${onProfile ? ' (on a profile)' : ''} failed on ${agent.url()}${alerts.length ? ` showing "${alerts.join(' / ')}"` : ''}: ${String(error)}`,
        );
      }
    }
    return taken;
  };
  const samples = await measure(RUNS, 0, false);
  const onProfile = await measure(PROFILE_RUNS, WARMUP + RUNS, true);
  const routing = (call_routing: string) =>
    api(base, adminToken, 'PUT', '/api/v2/call_routing', { call_routing, offer_seconds: 15 });
  await routing('one_at_a_time');
  const routed = await measure(ROUTED_RUNS, 2 * WARMUP + RUNS + PROFILE_RUNS, false);
  await routing('ring_all');
  const after = loadAverage();
  const row = (values: number[], target: string) => ({ ...spread(values), target });
  console.log(
    `\nBrowser calls, ms (${samples.length} calls after ${WARMUP} warm-ups; headless Chromium ` +
      `${browser.version()}, fake media, loopback; Date.now() in both pages, same clock)`,
  );
  console.table({
    'a. customer joins (page sends socket.io CONNECT) → agent rings (alertdialog in DOM)': row(
      samples.map((s) => s.ring),
      `< ${TARGET_RING_MS}`,
    ),
    '   … → ring painted (next frame)': row(
      samples.map((s) => s.ringPainted),
      '',
    ),
    '   customer page receives the CONNECT ack → ring in DOM (info)': row(
      samples.map((s) => s.ringFromAck),
      '',
    ),
    '   "You are in the queue" shown → ring in DOM (info)': row(
      samples.map((s) => s.ringFromText),
      '',
    ),
    'b. Answer clicked → remote video playing on BOTH sides': row(
      samples.map((s) => s.video),
      `< ${TARGET_VIDEO_MS}`,
    ),
    "   … agent side (Customer's video)": row(
      samples.map((s) => s.agentVideo),
      '',
    ),
    "   … customer side (The agent's video)": row(
      samples.map((s) => s.customerVideo),
      '',
    ),
    "   … 'playing' event on both (info)": row(
      samples.map((s) => s.playingEvent),
      '',
    ),
    [`c. on a profile's Video Calls tab (${onProfile.length} calls): Answer → video on BOTH sides`]: row(
      onProfile.map((s) => s.video),
      `< ${TARGET_VIDEO_MS}`,
    ),
    [`d. one agent at a time (${routed.length} calls): customer joins → the offered agent rings`]: row(
      routed.map((s) => s.ring),
      `< ${TARGET_RING_MS}`,
    ),
  });
  console.log(
    `Playing = first frame presented (requestVideoFrameCallback) with videoWidth > 0 and not paused. ` +
      `Load average before ${before}, after ${after}; ${availableParallelism()} cores shared by the server, ` +
      'Chromium (two pages, WebRTC, encoding fake video) and this script.',
  );
  await browser.close();
  browser = undefined;
}

// ---------------------------------------------------------------------------------------------------
// Load: sockets only

interface LoadAgent extends OnlineAgent {
  /** Calls heard of (call.incoming) and not taken or cancelled since, in the order heard. */
  heard: Set<number>;
  busy: boolean;
  asking: boolean;
}

/** What the load race measured (bench/scale.ts prints two of them side by side). */
export interface RaceFigures {
  agents: number;
  customers: number;
  answered: number;
  /** Calls with more than one ok:true (must be 0). */
  answeredTwice: number;
  /** Customers told call.answered more than once (must be 0). */
  customersToldTwice: number;
  refusals: number;
  problems: number;
  /** A customer's socket connecting → the first agent hearing call.incoming. */
  ring: Spread;
  answerAck: Spread;
  /** Race start (all waiting) → last call answered. */
  raceSeconds: number;
}

export async function loadRace(base: string, adminToken: string, profiles: number[]): Promise<RaceFigures> {
  const connectingAt = new Map<number, number>();
  const ringAt = new Map<number, number>();
  const wins = new Map<number, number[]>();
  const refusals = new Map<string, number>();
  const answeredByCustomer = new Map<number, number>();
  const answerAcks: number[] = [];
  const problems: string[] = [];
  let answeredAt = 0;
  let allAnswered: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    allAnswered = resolve;
  });
  let talking = 0;
  let idle: () => void = () => undefined;

  const agents: LoadAgent[] = [];
  /** Agents hear of calls from the start, but answer only once every customer waits. */
  let racing = false;
  const tryAnswer = async (agent: LoadAgent): Promise<void> => {
    while (racing && !agent.busy && !agent.asking && wins.size < profiles.length) {
      const [callId] = agent.heard;
      if (callId === undefined) return;
      agent.asking = true;
      const started = performance.now();
      let reply: Awaited<ReturnType<ClientSocket['emitWithAck']>>;
      try {
        reply = await agent.socket.timeout(30_000).emitWithAck('call.answer', { call_id: callId });
      } catch (error) {
        problems.push(`answer ${callId} by ${agent.email}: ${String(error)}`);
        agent.heard.delete(callId);
        agent.asking = false;
        continue;
      }
      answerAcks.push(performance.now() - started);
      agent.asking = false;
      agent.heard.delete(callId);
      if (!reply.ok) {
        refusals.set(reply.detail, (refusals.get(reply.detail) ?? 0) + 1);
        continue;
      }
      wins.set(callId, [...(wins.get(callId) ?? []), agent.id]);
      if (wins.size === profiles.length && !answeredAt) {
        answeredAt = performance.now();
        allAnswered();
      }
      agent.busy = true;
      talking++;
      setTimeout(() => void talk(agent, callId), 20 + Math.random() * 180);
    }
  };
  const talk = async (agent: LoadAgent, callId: number) => {
    try {
      const hungUp = await agent.socket.timeout(30_000).emitWithAck('call.hangup', { call_id: callId });
      if (!hungUp.ok) problems.push(`hangup ${callId}: ${hungUp.detail}`);
      await api(base, agent.token, 'PUT', `/api/v2/videocall/${callId}`, { status: 3 });
    } catch (error) {
      problems.push(`end of ${callId}: ${String(error)}`);
    }
    agent.busy = false;
    talking--;
    if (talking === 0 && wins.size === profiles.length) idle();
    void tryAnswer(agent);
  };

  console.log(`\nLoad: signing in ${LOAD_AGENTS} agents (Online, one socket each) ...`);
  const emails = Array.from({ length: LOAD_AGENTS }, (_, i) => `bench-agent-${i + 1}@acme.test`);
  await pool(emails, 4, async (email) => {
    const agent: LoadAgent = {
      ...(await onlineAgent(base, email, BENCH_AGENT_PASSWORD, (socket) => {
        socket.on('call.incoming', (call) => {
          if (!ringAt.has(call.call_id)) ringAt.set(call.call_id, performance.now());
          agent.heard.add(call.call_id);
          void tryAnswer(agent);
        });
        socket.on('call.taken', (event) => agent.heard.delete(event.call_id));
        socket.on('call.cancelled', (event) => agent.heard.delete(event.call_id));
      })),
      heard: new Set(),
      busy: false,
      asking: false,
    };
    openSockets.push(agent.socket);
    agents.push(agent);
  });
  const before = loadAverage();
  console.log(
    `${agents.length} agents Online; ${profiles.length} customers join the queue, then the agents race ...`,
  );

  const started = performance.now();
  const callIds = new Set<number>();
  await pool(profiles, 10, async (profile) => {
    const call = await customerCall(base, adminToken, profile);
    callIds.add(call.callId);
    const socket = socketOf(base, { customer: call.token, call_id: call.callId }, (s) => {
      s.on('call.answered', (e) =>
        answeredByCustomer.set(e.call_id, (answeredByCustomer.get(e.call_id) ?? 0) + 1),
      );
      s.on('call.ended', () => s.disconnect());
    });
    openSockets.push(socket);
    connectingAt.set(call.callId, performance.now());
    await connected(socket);
  });
  const joinedAt = performance.now();
  racing = true;
  for (const agent of agents) void tryAnswer(agent);
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 180_000).unref());
  const outcome = await Promise.race([done.then(() => 'done' as const), timeout]);
  const ended = new Promise<void>((resolve) => {
    idle = resolve;
    if (talking === 0) resolve();
  });
  await Promise.race([ended, timeout]);
  const endedAt = performance.now();
  const after = loadAverage();

  // The database's view: every call of the run COMPLETE (3) with the agent that won it.
  const rows = new Map<number, { status: number; agent: { id: number } | null }>();
  for (let offset = 0; offset < callIds.size + 200; offset += 200) {
    const page = await api<{ results: { id: number; status: number; agent: { id: number } | null }[] }>(
      base,
      adminToken,
      'GET',
      `/api/v2/videocall?limit=200&offset=${offset}`,
    );
    for (const row of page.results) if (callIds.has(row.id)) rows.set(row.id, row);
    if (page.results.length < 200) break;
  }
  const statusCount = new Map<number, number>();
  let wrongAgent = 0;
  // A run stopped at its limit can leave answers whose acknowledgement had not come back: counted apart.
  let unacknowledged = 0;
  for (const [id, row] of rows) {
    statusCount.set(row.status, (statusCount.get(row.status) ?? 0) + 1);
    const winner = wins.get(id)?.[0];
    if (winner === undefined && row.agent) unacknowledged++;
    else if (row.agent?.id !== winner) wrongAgent++;
  }
  const countOf = async (status: number) =>
    (await api<{ count: number }>(base, adminToken, 'GET', `/api/v2/videocall?status=${status}&limit=1`))
      .count;

  const twice = [...wins.values()].filter((w) => w.length > 1).length;
  const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  console.log(
    `\nLoad result (${agents.length} agents, ${profiles.length} customers, sockets only; ` +
      `${outcome === 'timeout' ? 'STOPPED AFTER 180 s' : 'all answered'})`,
  );
  console.table({
    'calls answered (distinct call ids with ok:true)': { value: wins.size },
    'calls answered twice (more than one ok:true; must be 0)': { value: twice },
    'customers told call.answered (calls) / more than once': {
      value: `${answeredByCustomer.size} / ${[...answeredByCustomer.values()].filter((n) => n > 1).length}`,
    },
    "refusals 'Call Already Answered'": { value: refusals.get('Call Already Answered') ?? 0 },
    'other refusals': {
      value:
        [...refusals]
          .filter(([detail]) => detail !== 'Call Already Answered')
          .map(([detail, n]) => `${detail}: ${n}`)
          .join('; ') || 0,
    },
    'customers waiting (first POST /profile/url → last socket connected)': {
      value: seconds(joinedAt - started),
    },
    'total: race start (all waiting) → last call answered': {
      value: seconds((answeredAt || endedAt) - joinedAt),
    },
    'total: race start → last status set (PUT status 3)': { value: seconds(endedAt - joinedAt) },
    'call.answer acknowledgement, median / p95': {
      value: `${spread(answerAcks).median} / ${spread(answerAcks).p95} ms (${answerAcks.length} answers)`,
    },
    'DB: rows of the run by status (GET /videocall)': {
      value: [...statusCount].map(([s, n]) => `${s}: ${n}`).join(', '),
    },
    'DB: rows whose agent is not the winner': { value: wrongAgent },
    'DB: rows with an agent whose answer was not acknowledged yet': { value: unacknowledged },
    'DB: calls WAITING (0) / TALKING (1) now, whole company': {
      value: `${await countOf(0)} / ${await countOf(1)}`,
    },
  });
  if (problems.length) console.log(`Problems (${problems.length}):\n  ${problems.slice(0, 20).join('\n  ')}`);
  console.log(
    `Talk time 20–200 ms per call; once all ${profiles.length} customers waited, every free agent asked for ` +
      'the oldest call it had heard of (call.incoming, minus call.taken/call.cancelled). ' +
      `Load average before ${before}, after ${after}.`,
  );
  const rings = [...connectingAt].flatMap(([id, at]) => {
    const heardAt = ringAt.get(id);
    return heardAt === undefined ? [] : [heardAt - at];
  });
  return {
    agents: agents.length,
    customers: profiles.length,
    answered: wins.size,
    answeredTwice: twice,
    customersToldTwice: [...answeredByCustomer.values()].filter((n) => n > 1).length,
    refusals: [...refusals.values()].reduce((a, b) => a + b, 0),
    problems: problems.length,
    ring: spread(rings),
    answerAck: spread(answerAcks),
    raceSeconds: ((answeredAt || endedAt) - joinedAt) / 1000,
  };
}

/** Disconnects every socket the load race opened. */
export function closeRaceSockets(): void {
  for (const socket of openSockets.splice(0)) socket.disconnect();
}

// ---------------------------------------------------------------------------------------------------
// Status spread: a change of an agent's availability → every screen's socket shows it

const SPREAD_SCREENS = Number(process.env.BENCH_SPREAD_SCREENS ?? 20);
const SPREAD_RUNS = Number(process.env.BENCH_SPREAD_RUNS ?? 20);
const TARGET_SPREAD_MS = 1_000;

/** What one screen last showed of the watched agent: its `agent.status` and its row on the agent board. */
interface Screen {
  socket: ClientSocket;
  status?: { value: string; at: number };
  board?: { value: string; at: number };
}

async function watchingScreen(base: string, token: string, agentId: number): Promise<Screen> {
  const { token: socketToken } = await api<{ token: string }>(
    base,
    token,
    'POST',
    '/api/v2/user/socket_token',
    {
      studio: true,
    },
  );
  const screen: Screen = { socket: socketOf(base, { token: socketToken }) };
  screen.socket.on('agent.status', (event) => {
    if (event.user_id === agentId) screen.status = { value: event.status, at: performance.now() };
  });
  screen.socket.on('stats.update', (stats) => {
    const row = stats.agents.find((a) => a.id === agentId);
    if (row && row.status !== screen.board?.value)
      screen.board = { value: row.status, at: performance.now() };
  });
  await connected(screen.socket);
  openSockets.push(screen.socket);
  return screen;
}

/** Milliseconds from `since` until every screen shows `status` both ways (rejects after 10 s). */
async function everyScreenShows(screens: Screen[], status: string, since: number): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const times = screens.map((s) =>
      s.status?.value === status && s.board?.value === status && s.status.at >= since && s.board.at >= since
        ? Math.max(s.status.at, s.board.at)
        : null,
    );
    if (times.every((t) => t !== null)) return Math.max(...(times as number[])) - since;
    if (Date.now() > deadline) throw new Error(`not every screen showed ${status} within 10 s`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

async function statusSpread(base: string, adminToken: string): Promise<void> {
  console.log(
    `\nStatus spread: ${AGENT.email}'s availability changes; ${SPREAD_SCREENS} other staff screens and the ` +
      `agent's own studio (sockets) must show it, as agent.status and on the agent board (${SPREAD_RUNS} runs each) ...`,
  );
  const agentToken = await login(base, AGENT.email, AGENT.password);
  const agentId = userIdOf(agentToken);
  const emails = Array.from({ length: SPREAD_SCREENS }, (_, i) => `bench-agent-${i + 1}@acme.test`);
  const others = await pool(emails, 4, async (email) =>
    watchingScreen(base, await login(base, email, BENCH_AGENT_PASSWORD), agentId),
  );
  let own = await watchingScreen(base, agentToken, agentId);
  const set = (token: string, status: string, user?: number) =>
    api(base, token, 'POST', '/api/v2/videocall/agent_status', user ? { status, user } : { status });
  const measure = async (change: () => Promise<unknown>, status: string, screens: Screen[]) => {
    const since = performance.now();
    await change();
    return everyScreenShows(screens, status, since);
  };
  const byAgent: number[] = [];
  const byAdmin: number[] = [];
  const bySignIn: number[] = [];
  for (let i = 0; i < SPREAD_RUNS; i++) {
    // Always a real change: the agent leaves Online for a break, the admin puts them back Online.
    const away = i % 2 === 0 ? 'Break' : 'Education';
    byAgent.push(await measure(() => set(agentToken, away), away, [own, ...others]));
    byAdmin.push(await measure(() => set(adminToken, 'Online', agentId), 'Online', [own, ...others]));
  }
  for (let i = 0; i < SPREAD_RUNS; i++) {
    // Online, then the agent's studio is gone (within its grace period): a new sign-in starts Offline.
    await set(agentToken, 'Online');
    await everyScreenShows([own, ...others], 'Online', 0);
    own.socket.disconnect();
    await new Promise((r) => setTimeout(r, 50));
    bySignIn.push(await measure(() => login(base, AGENT.email, AGENT.password), 'Offline', others));
    own = await watchingScreen(base, agentToken, agentId);
  }
  const line = (label: string, values: number[]) => {
    const s = spread(values);
    return {
      [label]: { 'median ms': s.median, 'p95 ms': s.p95, 'max ms': s.max, target: `< ${TARGET_SPREAD_MS}` },
    };
  };
  console.table({
    ...line('status change by the agent → every screen', byAgent),
    ...line('status change by an admin → every screen', byAdmin),
    ...line('second sign-in (Offline) → every screen', bySignIn),
  });
  console.log(
    'Times run from sending the request (for the sign-in, POST /api/v1/login/ with its password hashing) to ' +
      'the last screen having both the agent.status event and the agent board row.',
  );
  for (const screen of [own, ...others]) screen.socket.disconnect();
}

// ---------------------------------------------------------------------------------------------------

async function main() {
  const args = new Set(process.argv.slice(2));
  const browserPart = !args.has('--no-browser');
  const loadPart = !args.has('--no-load');
  if (!args.has('--no-build')) buildStudioIfStale();
  const browserCount = browserPart ? 3 * WARMUP + RUNS + PROFILE_RUNS + ROUTED_RUNS : 0;
  const base = await startServer(Math.max(240, browserCount + LOAD_CUSTOMERS + 10));
  const adminToken = await login(base, ADMIN.email, ADMIN.password);
  const profiles = await profileIds(base, adminToken, browserCount + (loadPart ? LOAD_CUSTOMERS : 0));
  console.log(`Server at ${base} (${dataDir}); load average ${loadAverage()}`);
  if (browserPart) await browserCalls(base, adminToken, profiles.slice(0, browserCount));
  if (!args.has('--no-spread')) await statusSpread(base, adminToken);
  if (loadPart) await loadRace(base, adminToken, profiles.slice(browserCount));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => {
      void cleanUp().finally(() => process.exit(130));
    });
  main()
    .then(cleanUp)
    // A race stopped at its limit leaves answers in flight whose timers would keep the process alive.
    .then(() => process.exit(0))
    .catch(async (error) => {
      console.error(error);
      await cleanUp();
      process.exit(1);
    });
}
