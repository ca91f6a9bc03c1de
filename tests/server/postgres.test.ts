/**
 * The same schema, migrations and demo data on a real PostgreSQL (DATABASE_URL). Starts a throw-away
 * server from Debian's postgresql package on loopback and stops it; skipped where it is not installed.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import type { Change } from '../../server/db/changes';
import { withEndedClientsReleased } from '../../server/db/client';
import { CHANGE_FEED_APPLICATION } from '../../server/db/postgresChanges';
import { users, webhookDeliveries, webhookMessages } from '../../server/db/schema';
import { concurrentWriters, expectRollupsExact } from './callRollupsCheck';
import { concurrentDashboardWriters, expectDashboardRollupsExact } from './dashboardRollupsCheck';
import { get, PASSWORDS, post, startTestApp, type TestApp, tokenFor, userId } from './helpers';

const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const available = existsSync(join(PG_BIN, 'initdb')) && existsSync(join(PG_BIN, 'pg_ctl'));
const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL tool; output is ignored (the started server would otherwise hold a pipe open). */
function pgTool(tool: string, args: string[]): void {
  const binary = join(PG_BIN, tool);
  const options = { stdio: 'ignore' as const, timeout: 60_000 };
  // PostgreSQL refuses to run as root: use the package's postgres account then.
  if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', binary, ...args], options);
  else execFileSync(binary, args, options);
}

describe.skipIf(!available)('on a real PostgreSQL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idv-pg-'));
  const port = 20_000 + (process.pid % 20_000);
  const databaseUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let t: TestApp;

  beforeAll(async () => {
    if (asRoot) {
      const ids = execFileSync('id', ['-u', 'postgres']).toString().trim();
      const gid = execFileSync('id', ['-g', 'postgres']).toString().trim();
      chownSync(dir, Number(ids), Number(gid));
    }
    pgTool('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
    pgTool('pg_ctl', [
      '-D',
      join(dir, 'data'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      '-l',
      join(dir, 'log'),
      '-w',
      'start',
    ]);
    t = await startTestApp({ databaseUrl });
  });

  afterAll(async () => {
    await t?.close();
    try {
      pgTool('pg_ctl', ['-D', join(dir, 'data'), '-m', 'fast', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('migrates, seeds and serves the same data', async () => {
    // A database of its own, migrated and seeded for this test: the other tests add profiles to the shared one.
    await otherProcess((client) => client.query('CREATE DATABASE seeded'));
    const seeded = await startTestApp({ databaseUrl: databaseUrl.replace(/\/postgres$/, '/seeded') });
    try {
      const token = await tokenFor(seeded.app, 'admin@acme.test', PASSWORDS.admin);
      const list = await get<{ count: number }>(
        seeded.app,
        '/api/v2/profile?limit=5&ordering=-risk_level',
        token,
      );
      expect(list).toMatchObject({ status: 200, body: { count: 240 } });
      const documents = await get<{ pages: unknown[] }[]>(seeded.app, '/api/v2/profile/6/documents', token);
      expect(documents.body).toHaveLength(3);
      expect(documents.body[0]?.pages).toHaveLength(2);
      const search = await get<{ count: number }>(
        seeded.app,
        '/api/v2/profile?search=example.com&status=Approved',
        token,
      );
      expect(search.body.count).toBeGreaterThan(0);
    } finally {
      await seeded.close();
    }
  });

  it('enqueues a webhook event in the write transaction and the worker fans it out', async () => {
    const token = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    const created = await post<{ id: number }>(
      t.app,
      '/api/v2/profile',
      { id_card_number: 'PG-WEBHOOK-1', name: 'Pg Hook', gender: 'F' },
      token,
    );
    expect(created.status).toBe(201);
    const [message] = await t.app.ctx.db
      .select()
      .from(webhookMessages)
      .where(eq(webhookMessages.eventType, 'profile.created'))
      .orderBy(desc(webhookMessages.id))
      .limit(1);
    expect(JSON.parse(message?.body ?? '{}')).toMatchObject({
      type: 'profile.created',
      data: { profile_id: created.body.id },
    });
    // Demo endpoint 1 takes every event (its host is unreachable here: only the fan-out is checked).
    const deliveries = async () =>
      t.app.ctx.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.messageId, message?.id ?? 0));
    for (let i = 0; i < 100 && (await deliveries()).length === 0; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect((await deliveries()).length).toBeGreaterThan(0);
  });

  it('keeps the call rollups exact under 50 concurrent writers on one rollup row', async () => {
    await expectRollupsExact(t.app.ctx.db);
    await concurrentWriters(t.app.ctx.db, 50);
    await expectRollupsExact(t.app.ctx.db);
  });

  it('keeps the dashboard rollups exact under 50 concurrent writers on the same rollup rows', async () => {
    await expectDashboardRollupsExact(t.app.ctx.db);
    await concurrentDashboardWriters(t.app.ctx.db, 50);
    await expectDashboardRollupsExact(t.app.ctx.db);
  });

  it('gives 50 concurrent Next case calls 50 different review cases (FOR UPDATE SKIP LOCKED)', async () => {
    const callers = [
      await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin),
      await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user),
      await tokenFor(t.app, 'reviewer@acme.test', PASSWORDS.user),
    ];
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post<{ id: number }>(t.app, '/api/v2/review/next', undefined, callers[i % 3]),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(50);
  });

  /** A connection of its own: another process's writes. */
  async function otherProcess<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      return await use(client);
    } finally {
      await client.end();
    }
  }

  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** What the app's database tells of principals from now on: the changes, and when it is blind. */
  async function watchPrincipalChanges() {
    const changes = t.database.principalChanges;
    if (!changes) throw new Error('PostgreSQL tells no principal changes');
    const told: Change[] = [];
    const blindness: boolean[] = [];
    const stop = await changes.listen(
      (change) => told.push(change),
      (isBlind) => blindness.push(isBlind),
    );
    return { told, blindness, stop };
  }

  it('tells each change once: its own writes before their await returns, another process’s a moment later', async () => {
    const { told, stop } = await watchPrincipalChanges();
    const agent = await userId(t.app, 'agent@acme.test');
    try {
      await t.app.ctx.db.update(users).set({ role: 'Admin' }).where(eq(users.id, agent));
      expect(told).toEqual([agent]);
      await otherProcess((client) =>
        client.query('update users set role = $1 where id = $2', ['User', agent]),
      );
      await expect.poll(() => told).toEqual([agent, agent]);
      // Neither told twice: the pool's connections and the feed's own all hear both.
      await pause(200);
      expect(told).toEqual([agent, agent]);
    } finally {
      await stop();
    }
  });

  it('keeps a principal until it changes: disabling and enabling apply to the next request', async () => {
    const agent = await userId(t.app, 'agent@acme.test');
    const read = () => t.app.ctx.principals.read(t.app.ctx.db, agent);
    // Kept: the same frozen principal twice.
    expect(await read()).toBe(await read());
    const token = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
    const status = async () => (await get(t.app, '/api/v2/profile?limit=1', token)).status;
    expect(await status()).toBe(200);
    await t.app.ctx.db.update(users).set({ isActive: false }).where(eq(users.id, agent));
    expect(await status()).toBe(401);
    await t.app.ctx.db.update(users).set({ isActive: true }).where(eq(users.id, agent));
    expect(await status()).toBe(200);
  });

  it('another process applies an access change once its notification arrives', async () => {
    // A second server process on the same database, with its own pool, feed and kept principals.
    const other: FastifyInstance = await buildApp(t.config);
    try {
      const agent = await userId(t.app, 'agent@acme.test');
      const token = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
      const status = async () => (await get(other, '/api/v2/profile?limit=1', token)).status;
      expect(await status()).toBe(200);
      await t.app.ctx.db.update(users).set({ isActive: false }).where(eq(users.id, agent));
      await expect.poll(status).toBe(401);
      await t.app.ctx.db.update(users).set({ isActive: true }).where(eq(users.id, agent));
      await expect.poll(status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('reads principals again once the feed’s own connection is back, whatever changed while it was down', async () => {
    const { blindness, stop } = await watchPrincipalChanges();
    const agent = await userId(t.app, 'agent@acme.test');
    const role = async () => (await t.app.ctx.principals.read(t.app.ctx.db, agent))?.principal.role;
    try {
      expect(await role()).toBe('User');
      await otherProcess(async (client) => {
        await client.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
          [CHANGE_FEED_APPLICATION],
        );
        // At once, while nobody hears the other processes' writes.
        while (blindness.length === 0) await pause(1);
        await client.query('update users set role = $1 where id = $2', ['Admin', agent]);
      });
      await expect.poll(() => blindness).toEqual([true, false]);
      expect(await role()).toBe('Admin');
    } finally {
      await otherProcess((client) =>
        client.query('update users set role = $1 where id = $2', ['User', agent]),
      );
      await stop();
    }
  });

  it('outlives a restart of PostgreSQL: answers again once it is back, and keeps principals again', async () => {
    const { blindness, stop } = await watchPrincipalChanges();
    const token = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
    const status = async () => (await get(t.app, '/api/v2/profile?limit=1', token)).status;
    try {
      expect(await status()).toBe(200);
      // Every connection ends: the pool's idle ones fail while idle, the feed's drops.
      pgTool('pg_ctl', ['-D', join(dir, 'data'), '-m', 'fast', '-w', 'restart']);
      await expect.poll(status).toBe(200);
      await expect.poll(() => blindness).toEqual([true, false]);
      const agent = await userId(t.app, 'agent@acme.test');
      const read = () => t.app.ctx.principals.read(t.app.ctx.db, agent);
      expect(await read()).toBe(await read());
    } finally {
      await stop();
    }
  });

  it('hands a checked-out connection that ends back to the pool, so the pool can still end (drizzle’s failed BEGIN)', async () => {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    const client = await withEndedClientsReleased(pool).connect();
    const failures: unknown[] = [];
    client.on('error', (error) => failures.push(error));
    expect(pool.totalCount).toBe(1);
    const backend = (client as unknown as { processID: number }).processID;
    await otherProcess((other) => other.query('select pg_terminate_backend($1)', [backend]));
    await expect.poll(() => pool.totalCount).toBe(0);
    expect(failures.length).toBeGreaterThan(0);
    // What drizzle's transaction met: BEGIN fails, and nothing releases the connection; a release later does nothing.
    await expect(client.query('begin')).rejects.toThrow();
    client.release();
    await pool.end();
  });

  it('keeps report answers until the company’s figures change', async () => {
    const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    const company = (await t.app.ctx.principals.read(t.app.ctx.db, await userId(t.app, 'admin@acme.test')))
      ?.principal.companyId;
    if (!company) throw new Error('no company');
    let runs = 0;
    const read = () => t.app.ctx.reports.read(company, 'postgres-probe', async () => ({ run: ++runs }));
    await read();
    await read();
    expect(runs).toBe(1);
    const created = await post(
      t.app,
      '/api/v2/profile',
      { id_card_number: 'PG-ROLLUP-1', name: 'Pg Rollup', gender: 'M' },
      admin,
    );
    expect(created.status).toBe(201);
    await read();
    expect(runs).toBe(2);
  });
});
