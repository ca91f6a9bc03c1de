/**
 * Vitest global setup of the server project: one database migrated and seeded with the demo data, made
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
import { type Db, PGLITE_EXTENSIONS, readDatesAsText } from '../../server/db/client';
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

export default async function setup(project: TestProject) {
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
  project.provide('serverTemplate', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
