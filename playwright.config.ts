import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * Workers of the run, each with a server of its own (its own demo data, agents, calls and settings), so that
 * spec files running at the same time never see each other. On two cores one flow at a time leaves the CPU
 * idle half the time (the browser waits for the server and the other way round); two workers fill it.
 */
const workers = Number(process.env.E2E_WORKERS ?? 2);
const basePort = Number(process.env.E2E_PORT ?? 4310);
/**
 * Worker N's server: ports 20 apart, since a server's payment service listens 1000 above it and the realtime
 * truth spec starts a server of its own 7 above.
 */
const serverPort = (parallelIndex: number) => basePort + 20 * parallelIndex;
/**
 * This worker's server. Playwright loads this file again in every worker process, after setting
 * TEST_PARALLEL_INDEX (0 … workers − 1): `use.baseURL` and every spec that imports `baseURL` or `port` get
 * the server of the worker they run in.
 */
export const port = serverPort(Number(process.env.TEST_PARALLEL_INDEX ?? 0));
export const baseURL = `http://127.0.0.1:${port}`;
/**
 * The seeded data directory the run's servers start on copies of (scripts/e2e-servers.ts makes it and removes
 * it at the end); a spec that starts a server of its own copies it too.
 */
export const seededTemplate = join(tmpdir(), `idv-e2e-template-${basePort}`);

/** The specs that hold live calls (see `projects`). */
const LIVE_CALL_SPECS =
  /\/(calls|callsAnswer|callClose|callQuality|callWatch|guidedCall|identification|keyboard|machineChecks|realtimeTruth|relayCall|routing)\.spec\.ts$/;
/**
 * The specs that run alone, after everything else: the ones that measure what a customer's browser sends on a
 * shaped link (frames a second, lines). Beside another spec the customer's encoder and the studio's sign-in shared
 * two cores with four browsers and a second server: the encoder lowered its picture for the CPU, not the link, and
 * the other spec's sign-in waited over 30 s. And the supervisor's wall: nine pages with four calls in them.
 */
const ALONE_SPECS = /\/(callNetwork|callWatchWall)\.spec\.ts$/;

/**
 * The browser of the tests: Debian's old headless shell (package `chromium-headless-shell`, what Playwright
 * itself runs headless), or Debian's Chromium where the shell is not installed; CHROMIUM_PATH names another.
 * The same engine, version and flags; the shell has no browser UI behind its pages: the whole suite took 24 %
 * less time and 29 % less CPU with it on a 2-core machine
 * (docs/decisions/0177-tests-in-the-headless-shell.md). The benches keep Debian's Chromium: they measure what
 * a user's browser does.
 */
export const chromiumPath =
  process.env.CHROMIUM_PATH ||
  (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');

/** Headless Debian Chromium (Playwright cannot download its own here), with fake media for calls. */
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--allow-loopback-in-peer-connection',
];

export default defineConfig({
  testDir: 'tests/e2e',
  // 120 s: with two workers on two cores a flow of several sign-ins, a checkout or a call took over 60 s beside
  // a call spec (the Turkish sign-up: 53 s, then 72 s). A limit only costs time when a test fails.
  timeout: 120_000,
  // E2E_TIME_SCALE (local runs on a loaded machine) stretches every wait, as it does the call specs' own.
  expect: { timeout: 10_000 * Number(process.env.E2E_TIME_SCALE ?? 1) },
  fullyParallel: false,
  workers,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    browserName: 'chromium',
    locale: 'en-US',
    permissions: ['camera', 'microphone'],
    // Every page of the run asks for less motion: the studio's spinners, skeletons and transitions stand
    // still (src/ui/app/studio.css), so the browser draws no frames for them and an element is still at once
    // for a click. Contexts a test makes itself inherit it; a11y.spec checks both ways
    // (docs/decisions/0190-reduced-motion.md).
    reducedMotion: 'reduce',
    // A failed test leaves its trace (DOM snapshots and the actions' log, read with `npx playwright
    // show-trace`) and a screenshot in test-results/, in CI as on local runs. The trace's screencast is left
    // out: recording every page's frames made a test take 40 % longer, the snapshots show the same.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumArgs,
    },
  },
  // Specs of live calls (two or three browsers with fake cameras, WebRTC, recording): one at a time, beside a
  // lighter spec on the other worker. Two of them at once on two cores let videos start past their waits.
  // Screenshots compared by name, whichever project runs the spec (no project name in the file name).
  snapshotPathTemplate: '{testDir}/{testFilePath}-snapshots/{arg}{-snapshotSuffix}{ext}',
  projects: [
    { name: 'calls', testMatch: LIVE_CALL_SPECS, workers: 1 },
    { name: 'studio', testIgnore: [LIVE_CALL_SPECS, ALONE_SPECS] },
    { name: 'alone', testMatch: ALONE_SPECS, workers: 1, dependencies: ['calls', 'studio'] },
  ],
  // Every worker's server at once, from one seeded template (scripts/e2e-servers.ts); the port below the first
  // server's answers once they all do.
  webServer: {
    command: `tsx scripts/e2e-servers.ts ${basePort - 1} ${Array.from({ length: workers }, (_, index) => serverPort(index)).join(' ')}`,
    url: `http://127.0.0.1:${basePort - 1}/`,
    env: { E2E_TEMPLATE_DIR: seededTemplate },
    // SIGTERM, not Playwright's default SIGKILL of the process group: the script stops its servers and removes
    // their data directories.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    reuseExistingServer: !process.env.CI,
    timeout: 120_000,
    stdout: 'pipe',
  },
});
