import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4310);
export const baseURL = `http://127.0.0.1:${port}`;

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
  timeout: 30_000,
  // E2E_TIME_SCALE (local runs on a loaded machine) stretches every wait, as it does the call specs' own.
  expect: { timeout: 10_000 * Number(process.env.E2E_TIME_SCALE ?? 1) },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    browserName: 'chromium',
    locale: 'en-US',
    permissions: ['camera', 'microphone'],
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: chromiumArgs,
    },
  },
  webServer: {
    command: `tsx scripts/e2e-server.ts ${port}`,
    url: `${baseURL}/runtime-config.js`,
    reuseExistingServer: !process.env.CI,
    timeout: 120_000,
    stdout: 'pipe',
  },
});
