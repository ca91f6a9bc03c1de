/**
 * Backup and restore, tried (scripts/backupSet.ts, docs/operators/backup.md): a server with a profile, a call
 * with its recording and audit entries is backed up while it runs and keeps serving; its data is wiped; the set
 * is restored into a fresh site and a fresh server there finds every profile, call, audit entry and the
 * recording (SHA-256 equal). On the embedded database with the storage folder, and on PostgreSQL with an S3
 * bucket (s3rver).
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { PGlite } from '@electric-sql/pglite';
import { asc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import S3rver from 's3rver';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { restoreBackup, type Site, takeBackup } from '../../scripts/backupSet';
import { buildApp } from '../../server/app';
import type { ServerConfig } from '../../server/config';
import { PGLITE_EXTENSIONS } from '../../server/db/pglite';
import { auditLog, profiles, videoCalls } from '../../server/db/schema';
import { uploadRecording } from './evidenceUploads';
import { bearer, get, PASSWORDS, talkingCall, tokenFor, userId } from './helpers';
import { TEMPLATE_FILES, testConfig } from './testConfig';
import { POSTGRES_AVAILABLE, startThrowawayPostgres } from './throwawayPostgres';

/** Two servers start and stop in each round trip, on databases of their own: minutes on a loaded machine. */
const ROUND_TRIP_MS = 240_000;
const WEBM = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(8192, 42)]);
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `idv-${name}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/**
 * The embedded site `dir` starts as a copy of the suite's migrated, seeded template when there is one (a folder
 * PGlite opens as the server would), else the server migrates and seeds it.
 */
async function fromTemplate(dir: string): Promise<void> {
  const template = inject('serverTemplate');
  if (!template) return;
  const client = new PGlite(join(dir, 'pg'), {
    extensions: PGLITE_EXTENSIONS,
    loadDataDir: new Blob([readFileSync(join(template, TEMPLATE_FILES.database))]),
  });
  await client.waitReady;
  await client.close();
  cpSync(join(template, TEMPLATE_FILES.storage), join(dir, 'storage'), { recursive: true });
}

/** A server on `config`, listening on loopback (the backup of the embedded database asks it over HTTP). */
async function startServer(config: ServerConfig): Promise<{ app: FastifyInstance; url: string }> {
  const app = await buildApp(config);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

/** What must come back: every profile, call and audit entry, and the recording's bytes. */
async function contents(app: FastifyInstance) {
  const db = app.ctx.db;
  const calls = await db.select().from(videoCalls).orderBy(asc(videoCalls.id));
  const recordings: Record<string, string> = {};
  for (const call of calls)
    if (call.recordingKey)
      recordings[call.recordingKey] = createHash('sha256')
        .update(await buffer(app.ctx.storage.open(call.recordingKey)))
        .digest('hex');
  return {
    profiles: await db.select().from(profiles).orderBy(asc(profiles.id)),
    calls,
    audit: await db.select().from(auditLog).orderBy(asc(auditLog.id)),
    recordings,
  };
}

/** A profile, a call of it with a recording, and the audit entries they write. */
async function seed(app: FastifyInstance): Promise<{ profileId: number; callId: number }> {
  const admin = await tokenFor(app, 'admin@acme.test', PASSWORDS.admin);
  const created = await app.inject({
    method: 'POST',
    url: '/api/v2/profile',
    headers: bearer(admin),
    payload: { id_card_number: 'BACKUP-0001', name: 'Backup Restored', gender: null },
  });
  expect(created.statusCode, created.body).toBe(201);
  const profileId = created.json<{ id: number }>().id;
  const { callId } = await talkingCall(app, await userId(app, 'admin@acme.test'), profileId);
  await uploadRecording(app, admin, callId, WEBM);
  // Ended with its status: a call left talking is closed by the next start (a restart of the restored server).
  const ended = await app.inject({
    method: 'PUT',
    url: `/api/v2/videocall/${callId}`,
    headers: bearer(admin),
    payload: { status: 3 },
  });
  expect(ended.statusCode, ended.body).toBe(200);
  return { profileId, callId };
}

/** Seed, back up while serving, wipe, restore into `restored`, compare. */
async function roundTrip(original: Site & { wipe(): Promise<void> }, restored: Site) {
  const first = await startServer(original.config as ServerConfig);
  const { profileId, callId } = await seed(first.app);
  const admin = await tokenFor(first.app, 'admin@acme.test', PASSWORDS.admin);
  const before = await contents(first.app);
  const call = before.calls.find((c) => c.id === callId);
  expect(call?.recordingSha256).toMatch(/^[0-9a-f]{64}$/);
  expect(before.recordings[call?.recordingKey as string]).toBe(call?.recordingSha256);
  expect(before.audit.some((entry) => entry.action === 'recording_stored')).toBe(true);

  // The embedded database's route takes only the token derived from the secret (an Admin's is not it);
  // PostgreSQL has pg_dump (404).
  const refused = await first.app.inject({ method: 'GET', url: '/backup/database', headers: bearer(admin) });
  expect(refused.statusCode).toBe(original.config.databaseUrl ? 404 : 401);

  const set = tempDir('backup-set');
  const said: string[] = [];
  const manifest = await takeBackup({ ...original, serverUrl: first.url }, set, (line) => said.push(line));
  expect(manifest.storage.files).toBeGreaterThanOrEqual(1);
  // The embedded database is open in the running server: the server itself hands it over.
  if (manifest.database.kind === 'pglite') expect(said.join('\n')).toContain('asking the server');

  // The running server survived: still ready, and it takes writes (after the set: they are not in it).
  expect((await get(first.app, '/readyz')).status).toBe(200);
  const later = await first.app.inject({
    method: 'POST',
    url: '/api/v2/profile',
    headers: bearer(admin),
    payload: { id_card_number: 'BACKUP-0002', name: 'After The Backup', gender: null },
  });
  expect(later.statusCode).toBe(201);
  await first.app.close();
  await original.wipe();

  await restoreBackup(set, restored);
  const second = await startServer(restored.config as ServerConfig);
  try {
    const after = await contents(second.app);
    expect(after.profiles).toEqual(before.profiles);
    expect(after.calls).toEqual(before.calls);
    expect(after.audit).toEqual(before.audit);
    expect(after.recordings).toEqual(before.recordings);
    expect(after.profiles.some((p) => p.id === profileId)).toBe(true);
    // The restored server serves: the profile through the API.
    const token = await tokenFor(second.app, 'admin@acme.test', PASSWORDS.admin);
    expect((await get(second.app, `/api/v2/profile/${profileId}`, token)).status).toBe(200);
  } finally {
    await second.app.close();
  }
}

describe('backup and restore', () => {
  it(
    'bring back every profile, call, recording and audit entry on the embedded database',
    async () => {
      const a = tempDir('site-a');
      const b = tempDir('site-b');
      const config = (dir: string): ServerConfig => ({ ...testConfig(dir), pgliteDir: join(dir, 'pg') });
      await fromTemplate(a);
      await roundTrip(
        {
          config: config(a),
          secretInDataDir: false,
          serverUrl: '',
          wipe: async () => rmSync(a, { recursive: true, force: true }),
        },
        { config: config(b), secretInDataDir: false, serverUrl: '' },
      );
    },
    ROUND_TRIP_MS,
  );

  it.runIf(POSTGRES_AVAILABLE)(
    'bring back every profile, call, recording and audit entry on PostgreSQL and S3',
    async () => {
      const postgres = await startThrowawayPostgres();
      cleanups.push(() => postgres.stop());
      const admin = new pg.Client({ connectionString: postgres.databaseUrl });
      await admin.connect();
      cleanups.push(() => admin.end());
      await admin.query('create database original');
      await admin.query('create database restored');
      const urlOf = (name: string) => postgres.databaseUrl.replace(/\/postgres$/, `/${name}`);

      const s3 = new S3rver({
        port: 0,
        address: '127.0.0.1',
        directory: tempDir('s3'),
        silent: true,
        configureBuckets: [
          { name: 'original', configs: [] },
          { name: 'restored', configs: [] },
        ],
      });
      const { port } = await s3.run();
      cleanups.push(() => s3.close());
      const config = (dir: string, name: string): ServerConfig => ({
        ...testConfig(dir),
        databaseUrl: urlOf(name),
        s3: {
          bucket: name,
          endpoint: `http://127.0.0.1:${port}`,
          region: 'us-east-1',
          credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
          forcePathStyle: true,
        },
      });
      await roundTrip(
        {
          config: config(tempDir('site-a'), 'original'),
          secretInDataDir: false,
          serverUrl: '',
          wipe: async () => {
            await admin.query('drop database original');
          },
        },
        { config: config(tempDir('site-b'), 'restored'), secretInDataDir: false, serverUrl: '' },
      );
    },
    ROUND_TRIP_MS,
  );
});
