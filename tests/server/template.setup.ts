/**
 * Vitest global setup of the server projects: one database migrated and seeded with the demo data, made
 * once per run and copied into every test app (tests/server/helpers.ts) instead of each test file running
 * PostgreSQL's initdb, the migrations and the seed again (about three quarters of a file's start-up).
 * The copy is PGlite's own data directory (dumpDataDir / loadDataDir) plus the seeded storage folder.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { TestProject } from 'vitest/node';
import { createSecretBox } from '../../server/auth/secrets';
import type { Db } from '../../server/db/client';
import { PGLITE_EXTENSIONS, readDatesAsText } from '../../server/db/pglite';
import * as schema from '../../server/db/schema';
import { seedDemo } from '../../server/db/seed/demo';
import { createLocalStorage } from '../../server/storage/storage';
import { TEMPLATE_FILES, testConfig } from './testConfig';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Folder with the seeded database (TEMPLATE_FILES.database) and storage (TEMPLATE_FILES.storage). */
    serverTemplate: string;
  }
}

/**
 * Vitest runs a global setup once per project that names it, one project after the other, before any test: the
 * server, security and realtime projects share the one template (built once, removed after the last of them).
 */
const shared = globalThis as { idvServerTemplate?: { dir: Promise<string>; users: number } };

export default async function setup(project: TestProject) {
  shared.idvServerTemplate ??= { dir: build(), users: 0 };
  const template = shared.idvServerTemplate;
  template.users += 1;
  project.provide('serverTemplate', await template.dir);
  return async () => {
    template.users -= 1;
    if (template.users > 0) return;
    shared.idvServerTemplate = undefined;
    rmSync(await template.dir, { recursive: true, force: true });
  };
}

async function build(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'idv-template-'));
  const config = testConfig(dir);
  const client = new PGlite({ extensions: PGLITE_EXTENSIONS });
  await client.waitReady;
  readDatesAsText(client);
  const db = drizzle({ client, schema, casing: 'snake_case' });
  await migrate(db, { migrationsFolder: join(import.meta.dirname, '../../server/db/migrations') });
  await seedDemo(db as unknown as Db, {
    storage: createLocalStorage(join(dir, TEMPLATE_FILES.storage), config.jwtSecret, config.publicUrl),
    secrets: createSecretBox(config.jwtSecret),
    argon2: config.argon2,
  });
  const dump = await client.dumpDataDir('none');
  writeFileSync(join(dir, TEMPLATE_FILES.database), Buffer.from(await dump.arrayBuffer()));
  await client.close();
  return dir;
}
