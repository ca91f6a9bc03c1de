import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type ViteUserConfig } from 'vitest/config';
import { blueprintCssSplit } from './build/blueprintCss.ts';

/** The API tests' settings (tests/server). */
const SERVER = {
  environment: 'node',
  // The files share one module graph: each imports the whole server (fastify, drizzle, PGlite), and
  // importing it again for every file cost half the project's CPU time. Every file builds its own app
  // and database (helpers.ts), no file mocks a module (but MOCKS_DNS, isolated), and one that fakes Date
  // puts it back.
  isolate: false,
  // One migrated, seeded database for the run, copied into each test app (see the file); a closed app's copy
  // is reset to it and reused by the worker's next app (tests/server/templateDatabases.ts).
  globalSetup: ['tests/server/template.setup.ts'],
  // 60 s: argon2 sign-ins and restarts are CPU-bound, and a loaded 2-core machine runs them slowly.
  testTimeout: 60_000,
  hookTimeout: 60_000,
  // expect.poll waits 1 s by default: too short on a loaded machine for a socket round trip on a
  // database just loaded from the template (its caches are cold). Only how long it waits changes.
  expect: { poll: { timeout: 10_000 } },
} satisfies ViteUserConfig['test'];

/** The component tests' settings (tests/ui). */
const UI = {
  include: ['tests/ui/**/*.test.{ts,tsx}'],
  environment: 'jsdom',
  setupFiles: ['tests/ui/setup.ts'],
  // Room for findBy… (15 s in tests/ui/setup.ts) on a loaded machine.
  testTimeout: 30_000,
} satisfies ViteUserConfig['test'];

/**
 * The component tests that mock a module (`vi.mock`): isolated, so that no other file sees the mock. The others
 * share one module graph and jsdom (`ui`): importing React, Blueprint and the studio again for every file, and a
 * new jsdom, took half of the project's CPU time. tests/ui/setup.ts cleans up after every test.
 */
const UI_MOCKS = readdirSync(join(import.meta.dirname, 'tests/ui'), { recursive: true, encoding: 'utf8' })
  .filter(
    (file) =>
      /\.test\.tsx?$/.test(file) &&
      /\bvi\.mock\(/.test(readFileSync(join(import.meta.dirname, 'tests/ui', file), 'utf8')),
  )
  .map((file) => `tests/ui/${file}`);

/** The SSRF guard's tests: they mock node:dns, so no other file may share their module graph. */
const MOCKS_DNS = 'tests/security/webhookSsrf.test.ts';

/**
 * The realtime truth test: about 2.5 min, half of it waiting (grace periods, reconnections, convergence), its
 * worlds on copies of the template. Started last among the server files it ended the run alone; as a project
 * of its own, named to sort first (projects run in the order of their names), it starts at once on a worker
 * of its own, and the other files fill the cores while it waits.
 */
const REALTIME_TRUTH = 'tests/server/realtimeTruth.test.ts';

export default defineConfig({
  plugins: [react(), blueprintCssSplit()],
  test: {
    // One worker per core (Vitest's default leaves one core free: a single worker on this 2-core machine),
    // and one for the realtime truth test, which waits half of its time. Nothing else runs beside the tests in
    // CI, and a server test's app, database and clients share its worker's one thread whatever the count.
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        extends: true,
        // 15 s rather than 5 s per test: on a loaded 2-core CI machine a render or a PDF takes a few seconds.
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          testTimeout: 15_000,
          isolate: false,
        },
      },
      { extends: true, test: { ...UI, name: 'ui', exclude: UI_MOCKS, isolate: false } },
      { extends: true, test: { ...UI, name: 'ui-mocks', include: UI_MOCKS } },
      {
        extends: true,
        test: { ...SERVER, name: 'realtime-truth', include: [REALTIME_TRUTH] },
      },
      {
        extends: true,
        test: {
          ...SERVER,
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          exclude: [REALTIME_TRUTH],
        },
      },
      // The security regression suite: one test per finding of the attackers' probes, on the same
      // template database and with the same shared module graph as the API tests (isolated, each of its files
      // imported the whole server again: about 8 s a file on a loaded machine). The one file that mocks a module
      // (node:dns) stays isolated, in a project of its own.
      {
        extends: true,
        test: {
          ...SERVER,
          name: 'security',
          include: ['tests/security/**/*.test.ts'],
          exclude: [MOCKS_DNS],
        },
      },
      { extends: true, test: { ...SERVER, name: 'security-dns', include: [MOCKS_DNS], isolate: true } },
      // What an operator deploys (deploy/): the manifests' shape, the alert rules under promtool, and the metrics
      // the dashboard and the rules read, scraped from a test app.
      { extends: true, test: { ...SERVER, name: 'deploy', include: ['tests/deploy/**/*.test.ts'] } },
    ],
  },
});
