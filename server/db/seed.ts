/**
 * `npm run seed [-- --profiles N]`: empties the database and writes the demo data
 * (N profiles for Acme Bank, default 240), then prints the demo logins.
 */
import { parseArgs } from 'node:util';
import { createSecretBox } from '../auth/secrets';
import { loadConfig } from '../config';
import { ensureSecretFile } from '../secretFile';
import { createStorage } from '../storage/encryptedStorage';
import { openDatabase } from './client';
import { DEMO_USERS, seedDemo, truncateAll } from './seed/demo';

export function demoLoginLines(): string[] {
  return DEMO_USERS.map(
    (u) =>
      `  ${u.email.padEnd(22)} ${u.password.padEnd(11)} ${u.company.padEnd(15)} ${u.role}${u.note ? ` (${u.note})` : ''}`,
  );
}

async function main() {
  const { values } = parseArgs({ options: { profiles: { type: 'string' } } });
  const profiles = values.profiles === undefined ? undefined : Number(values.profiles);
  if (profiles !== undefined && (!Number.isInteger(profiles) || profiles < 0)) {
    throw new Error('--profiles must be a whole number');
  }
  // The seed seals secrets with the server secret: it must be the one the server will read.
  ensureSecretFile();
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    const started = Date.now();
    await truncateAll(database.db);
    await seedDemo(database.db, {
      storage: createStorage(config, database.db),
      secrets: createSecretBox(config.jwtSecret),
      argon2: config.argon2,
      ...(profiles === undefined ? {} : { profiles }),
      log: (line) => console.log(line),
    });
    console.log(
      `Demo data written to ${config.databaseUrl ? 'PostgreSQL' : config.pgliteDir} in ${Date.now() - started} ms`,
    );
    console.log('Demo logins:');
    for (const line of demoLoginLines()) console.log(line);
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
