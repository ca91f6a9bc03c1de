import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumPath } from './playwright.config';

/**
 * The distributed test: PostgreSQL, Redis, s3rver, two server processes and nginx, started by
 * tests/distributed/setup.ts (scripts/cluster.ts). Run with `npx playwright test -c playwright.distributed.config.ts`
 * (scripts/test.sh does, after the studio build). DIST_BASE_PORT moves the ports (nginx on it, the rest above).
 */
export const distBasePort = Number(process.env.DIST_BASE_PORT ?? 4600);
export const distURL = `http://127.0.0.1:${distBasePort}`;

export default defineConfig({
  testDir: 'tests/distributed',
  // Its own folder: Playwright empties the output folder first, and the end-to-end run's artefacts (the axe
  // reports and screenshots under test-results/) must survive it.
  outputDir: 'test-results/distributed',
  globalSetup: './tests/distributed/setup.ts',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: distURL,
    browserName: 'chromium',
    locale: 'en-US',
    permissions: ['camera', 'microphone'],
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumArgs,
    },
  },
});
