import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { CALL_STATUS_TALKING, CALL_STATUS_WAITING } from '#contract/constants';
import { api, login } from '../../bench/calls';
import { type RollingFigures, rollingRestart } from '../../bench/rolling';
import { distURL } from '../../playwright.distributed.config';
import {
  balancerSends,
  clusterSpec,
  isRunning,
  restartServerProcess,
  type ServerProcess,
  serverReady,
  startServerProcess,
} from '../../scripts/cluster';

/**
 * The rolling upgrade an orchestrator does, on the distributed deployment (two processes behind nginx on
 * PostgreSQL, Redis and s3rver): each process in turn gets SIGTERM, exits, starts again and is awaited ready
 * and taken back by nginx, while calls talk, customers wait, API requests come in and a recording uploads.
 * Nothing a user has may be lost.
 */
const ADMIN = { email: 'admin@acme.test', password: 'Admin@2026' };
const AGENTS = 3;
const TALKING = 2;
const WAITING = 4;

interface ServerInfo {
  name: string;
  url: string;
  pid: number;
}
const initial = (): ServerInfo[] => JSON.parse(process.env.DIST_SERVERS ?? '[]');
/** The process now serving each slot: the setup's, or the one this file started in its place. */
const current = new Map<string, { pid?: number; child?: ServerProcess['child'] }>();

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const spec = clusterSpec(process.env.DIST_CLUSTER_DIR as string);
  // Both processes run before the restart (another test may have killed one).
  for (const [index, server] of initial().entries()) {
    current.set(server.name, { pid: server.pid });
    if (isRunning(server.pid) && (await fetch(`${server.url}/readyz`).catch(() => null))?.ok) continue;
    const started = startServerProcess(spec, index);
    await serverReady(started);
    // nginx took it back: stopping the other one first would leave it none it believes alive.
    await balancerSends(distURL, started);
    current.set(server.name, { child: started.child });
  }
  const db = new pg.Client({ connectionString: process.env.DIST_DATABASE_URL });
  await db.connect();
  await db.query(
    `INSERT INTO users (company_id, email, first_name, last_name, password_hash, role)
     SELECT u.company_id, 'roll-agent-' || n || '@acme.test', 'Rolling', 'No. ' || n, u.password_hash, 'User'
       FROM generate_series(1, $1::int) AS n,
            (SELECT company_id, password_hash FROM users WHERE email = 'agent@acme.test' LIMIT 1) AS u
      WHERE NOT EXISTS (SELECT 1 FROM users WHERE email = 'roll-agent-' || n || '@acme.test')`,
    [AGENTS],
  );
  await db.end();
});

test.afterEach(async () => {
  // What nginx saw of the restarts (its errors, and every answer that failed or was passed to another
  // process), kept with the test's results for a failure's reader; printed too on a failure, since a CI
  // run's reader may have its output only.
  const failed = test.info().status !== test.info().expectedStatus;
  for (const name of ['nginx-error.log', 'nginx-notable.log']) {
    const path = join(process.env.DIST_CLUSTER_DIR as string, name);
    if (!existsSync(path)) continue;
    await test.info().attach(name, { path, contentType: 'text/plain' });
    if (failed)
      console.log(
        `--- ${name}, its last lines:\n${readFileSync(path, 'utf8').split('\n').slice(-60).join('\n')}`,
      );
  }
});

test('a rolling restart of both processes ends no call, loses no place, upload or webhook', async () => {
  test.setTimeout(300_000);
  const spec = clusterSpec(process.env.DIST_CLUSTER_DIR as string);
  const admin = await login(distURL, ADMIN.email, ADMIN.password);
  // Profiles of its own: no other test's calls share them.
  const profiles: number[] = [];
  for (let i = 0; i < TALKING + 1 + WAITING; i++)
    profiles.push(
      (
        await api<{ id: number }>(distURL, admin, 'POST', '/api/v2/profile', {
          id_card_number: `ROLLING-${Date.now()}-${i}`,
        })
      ).id,
    );

  const figures: RollingFigures = await rollingRestart({
    base: distURL,
    admin: ADMIN,
    agents: Array.from({ length: AGENTS }, (_, i) => ({
      email: `roll-agent-${i + 1}@acme.test`,
      password: 'User@2026',
    })),
    processes: initial().map((s) => s.name),
    profiles,
    talking: TALKING,
    waiting: WAITING,
    async restart(name, stopping) {
      const index = initial().findIndex((s) => s.name === name);
      const next = await restartServerProcess(spec, index, current.get(name) ?? {}, () => {
        console.log(`${name}: SIGTERM at ${Date.now() / 1000}`);
        stopping();
      });
      console.log(`${name}: ready again at ${Date.now() / 1000}`);
      current.set(name, { child: next.child });
    },
    log: (line) => console.log(line),
  });
  console.log(JSON.stringify(figures));

  // No talking call ended: neither party heard an end, and the server still has them talking.
  expect(figures.endsHeard).toEqual([]);
  expect(
    figures.callsAfter
      .filter((c) => figures.talkingCalls.includes(c.id))
      .map((c) => [c.status, c.call_end_time, c.end_reason]),
  ).toEqual(figures.talkingCalls.map(() => [CALL_STATUS_TALKING, null, null]));
  // No waiting customer lost their place: the same queue, the same positions told.
  expect(figures.callsAfter.filter((c) => figures.waitingCalls.includes(c.id)).map((c) => c.status)).toEqual(
    figures.waitingCalls.map(() => CALL_STATUS_WAITING),
  );
  expect(figures.queueAfter).toEqual(figures.queueBefore);
  expect(figures.queueBefore).toEqual(figures.waitingCalls);
  expect(figures.positionsAfter).toEqual(figures.positionsBefore);
  // The upload that ran across the first restart is stored, with the SHA-256 of what is served back.
  expect(figures.upload.status).toBe(200);
  expect(figures.upload.storedSha256).toMatch(/^[0-9a-f]{64}$/);
  expect(figures.upload.downloadedSha256).toBe(figures.upload.storedSha256);
  // Every webhook arrived, none twice.
  expect(figures.webhooks.created).toBeGreaterThan(0);
  expect(figures.webhooks.missing).toBe(0);
  expect(figures.webhooks.duplicates).toBe(0);
  // Every socket (agents and customers) reconnected by itself, no reload; no request failed.
  expect(figures.reconnect.count).toBeGreaterThanOrEqual(TALKING * 2 + WAITING);
  expect(figures.notReconnected).toBe(0);
  expect(figures.signalsBack).toBe(true);
  expect(figures.requests.failures).toEqual([]);
});
