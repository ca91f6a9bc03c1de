/**
 * `npm run bench:call-watch` (also run by `npm run bench:calls`): a supervisor watching a live call, on loopback,
 * against a server of its own (docs/decisions/0208-supervisors-watch-calls.md).
 *
 * 1. Builds the studio when dist/ is stale (`--no-build` skips it), seeds the demo data into a fresh PGlite and
 *    starts `server/main.ts` on a free port.
 * 2. One call in headless Chromium with fake media: agent@acme.test answers a customer who joined through a
 *    join link. The customer's page keeps its RTCPeerConnections (an init script) so its sent bytes can be read.
 * 3. The customer's sent bitrate (outbound-rtp bytesSent of every connection of the page, audio and video) over
 *    BENCH_WATCH_WINDOW_MS without a watcher.
 * 4. BENCH_WATCH_RUNS times: admin@acme.test opens /watch?add=<call> (the Calls screen's Watch) → both videos
 *    of the tile play (videoWidth > 0, currentTime > 0, not paused); timed from Node (Playwright's round trips
 *    included, a few ms); then Stop watching. The last run keeps watching.
 * 5. The customer's sent bitrate over the same window with the supervisor watching: the customer sends once
 *    whoever watches, so the two figures should be the same within the encoder's own variation.
 * Env: BENCH_WATCH_RUNS (10), BENCH_WATCH_WINDOW_MS (8000), CHROMIUM_PATH. Nothing is asserted.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { buildStudioIfStale } from '../scripts/studioBuild';
import { api, login, spread } from './calls';
import {
  benchServerEnv,
  finished,
  freePort,
  launchChromium,
  run,
  signInAs,
  stop,
  waitForServer,
} from './support';

const RUNS = Number(process.env.BENCH_WATCH_RUNS ?? 10);
const WINDOW_MS = Number(process.env.BENCH_WATCH_WINDOW_MS ?? 8_000);
const PROFILE = 3;
const ADMIN = { email: 'admin@acme.test', password: 'Admin@2026' };
const AGENT = { email: 'agent@acme.test', password: 'User@2026' };

let server: ChildProcess | undefined;
let browser: Browser | undefined;
let dataDir: string | undefined;

/** Keeps every RTCPeerConnection the page makes, for getStats. */
const KEEP_PEERS = () => {
  const kept: RTCPeerConnection[] = [];
  (window as unknown as { benchPeers: RTCPeerConnection[] }).benchPeers = kept;
  const Original = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends Original {
    constructor(config?: RTCConfiguration) {
      super(config);
      kept.push(this);
    }
  } as typeof RTCPeerConnection;
};

/** Bytes the page's connections sent so far (every outbound RTP stream). */
const bytesSent = (page: Page) =>
  page.evaluate(async () => {
    let total = 0;
    for (const pc of (window as unknown as { benchPeers: RTCPeerConnection[] }).benchPeers) {
      if (pc.connectionState === 'closed') continue;
      (await pc.getStats()).forEach((report) => {
        if (report.type === 'outbound-rtp') total += (report as RTCOutboundRtpStreamStats).bytesSent ?? 0;
      });
    }
    return total;
  });

async function sentKbps(page: Page): Promise<number> {
  const before = await bytesSent(page);
  const start = Date.now();
  await page.waitForTimeout(WINDOW_MS);
  const after = await bytesSent(page);
  return Math.round(((after - before) * 8) / (Date.now() - start));
}

/** Both videos of the watch tile play. */
const bothPlaying = (page: Page) =>
  page.waitForFunction(
    () =>
      ["Customer's video", "Agent's video"].every((label) => {
        const video = document.querySelector<HTMLVideoElement>(`video[aria-label="${label}"]`);
        return !!video && video.videoWidth > 0 && video.currentTime > 0 && !video.paused;
      }),
    undefined,
    { timeout: 30_000, polling: 'raf' },
  );

async function main() {
  if (!process.argv.includes('--no-build')) buildStudioIfStale();
  dataDir = mkdtempSync(join(tmpdir(), 'idv-bench-watch-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = benchServerEnv(dataDir, port);
  console.log('Seeding the demo data ...');
  if ((await finished(run(['server/db/seed.ts'], env))) !== 0) throw new Error('seed failed');
  server = run(['server/main.ts'], env);
  await waitForServer(base, server);

  browser = await launchChromium();
  const open = async () => {
    if (!browser) throw new Error('no browser');
    const context = await browser.newContext({
      baseURL: base,
      locale: 'en-US',
      viewport: { width: 1440, height: 900 },
      permissions: ['camera', 'microphone'],
    });
    return context.newPage();
  };
  const agent = await open();
  await signInAs(agent, AGENT);
  await agent.goto('/calls');
  const status = agent.getByRole('button', { name: /^Availability:/ });
  if ((await status.getAttribute('aria-label')) !== 'Availability: Online') {
    await status.click();
    await agent.getByRole('menuitemradio', { name: 'Online' }).click();
  }
  const admin = await login(base, ADMIN.email, ADMIN.password);
  const { url } = await api<{ url: string }>(base, admin, 'POST', '/api/v2/profile/url', {
    profile: PROFILE,
  });
  const customer = await open();
  await customer.addInitScript(KEEP_PEERS);
  await customer.goto(url);
  await customer.getByRole('button', { name: 'I agree', exact: true }).click();
  await customer.getByRole('button', { name: 'Join the call', exact: true }).click();
  await agent.getByRole('alertdialog').getByRole('button', { name: 'Answer', exact: true }).click();
  await agent.getByText('Recording', { exact: true }).waitFor({ timeout: 30_000 });
  const callId = Number(/\/(\d+)$/.exec(agent.url())?.[1]);
  // The customer's encoder settles on the link before anything is measured.
  await customer.waitForTimeout(5_000);
  const alone = await sentKbps(customer);

  const supervisor = await open();
  await signInAs(supervisor, ADMIN);
  const watchMs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = Date.now();
    await supervisor.goto(`/watch?add=${callId}`);
    await bothPlaying(supervisor);
    watchMs.push(Date.now() - start);
    if (i < RUNS - 1) {
      await supervisor.getByRole('button', { name: 'Stop watching' }).click();
      await supervisor.getByText('You are not watching any call', { exact: false }).waitFor();
    }
  }
  const watched = await sentKbps(customer);

  console.log(
    `\nWatch → both videos playing for the supervisor, ms (${RUNS} runs, headless Chromium, loopback)`,
  );
  console.table({ 'Watch → both videos playing': spread(watchMs) });
  console.log(`The customer's sent bitrate over ${WINDOW_MS} ms, kbit/s (audio and video, every connection)`);
  console.table({ 'without a watcher': { kbps: alone }, 'with a supervisor watching': { kbps: watched } });
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(async () => {
    await browser?.close().catch(() => undefined);
    await stop(server);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });
