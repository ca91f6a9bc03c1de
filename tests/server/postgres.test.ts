/**
 * The same schema, migrations and demo data on a real PostgreSQL (DATABASE_URL). Starts a throw-away
 * server from Debian's postgresql package on loopback and stops it; skipped where it is not installed.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveries, webhookMessages } from '../../server/db/schema';
import { concurrentWriters, expectRollupsExact } from './callRollupsCheck';
import { concurrentDashboardWriters, expectDashboardRollupsExact } from './dashboardRollupsCheck';
import { get, PASSWORDS, post, startTestApp, type TestApp, tokenFor } from './helpers';

const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const available = existsSync(join(PG_BIN, 'initdb')) && existsSync(join(PG_BIN, 'pg_ctl'));
const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL tool; output is ignored (the started server would otherwise hold a pipe open). */
function pg(tool: string, args: string[]): void {
  const binary = join(PG_BIN, tool);
  const options = { stdio: 'ignore' as const, timeout: 60_000 };
  // PostgreSQL refuses to run as root: use the package's postgres account then.
  if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', binary, ...args], options);
  else execFileSync(binary, args, options);
}

describe.skipIf(!available)('on a real PostgreSQL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idv-pg-'));
  const port = 20_000 + (process.pid % 20_000);
  let t: TestApp;

  beforeAll(async () => {
    if (asRoot) {
      const ids = execFileSync('id', ['-u', 'postgres']).toString().trim();
      const gid = execFileSync('id', ['-g', 'postgres']).toString().trim();
      chownSync(dir, Number(ids), Number(gid));
    }
    pg('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
    pg('pg_ctl', [
      '-D',
      join(dir, 'data'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      '-l',
      join(dir, 'log'),
      '-w',
      'start',
    ]);
    t = await startTestApp({ databaseUrl: `postgres://postgres@127.0.0.1:${port}/postgres` });
  });

  afterAll(async () => {
    await t?.close();
    try {
      pg('pg_ctl', ['-D', join(dir, 'data'), '-m', 'fast', '-w', 'stop']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('migrates, seeds and serves the same data', async () => {
    const token = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    const list = await get<{ count: number }>(t.app, '/api/v2/profile?limit=5&ordering=-risk_level', token);
    expect(list).toMatchObject({ status: 200, body: { count: 240 } });
    const documents = await get<{ pages: unknown[] }[]>(t.app, '/api/v2/profile/6/documents', token);
    expect(documents.body).toHaveLength(3);
    expect(documents.body[0]?.pages).toHaveLength(2);
    const search = await get<{ count: number }>(
      t.app,
      '/api/v2/profile?search=example.com&status=Approved',
      token,
    );
    expect(search.body.count).toBeGreaterThan(0);
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

  it('keeps the call rollups exact under 50 concurrent writers on one rollup row (record 0167)', async () => {
    await expectRollupsExact(t.app.ctx.db);
    await concurrentWriters(t.app.ctx.db, 50);
    await expectRollupsExact(t.app.ctx.db);
  });

  it('keeps the dashboard rollups exact under 50 concurrent writers on the same rollup rows (record 0170)', async () => {
    await expectDashboardRollupsExact(t.app.ctx.db);
    await concurrentDashboardWriters(t.app.ctx.db, 50);
    await expectDashboardRollupsExact(t.app.ctx.db);
  });

  it('gives 50 concurrent Next case calls 50 different review cases (issue 30: FOR UPDATE SKIP LOCKED)', async () => {
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
});
