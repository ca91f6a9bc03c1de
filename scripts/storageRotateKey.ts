/**
 * `npm run storage:rotate-key`: wraps every stored file's data key with the current key-encryption key (the
 * first of STORAGE_KEK or STORAGE_KEK_FILE) without touching a file; afterwards the older keys can leave the
 * list. `-- --status` counts the data keys each KEK wraps, `-- --new-key` prints a fresh KEK. Works on the
 * configured database: PGlite under DATA_DIR (stop the server first) or PostgreSQL from DATABASE_URL, while
 * the servers run (each must already hold the new key in its list). docs/operators/encryption.md.
 */
import { parseArgs } from 'node:util';
import { loadConfig, type ServerConfig } from '../server/config';
import { type Db, openDatabase } from '../server/db/client';
import { ensureSecretFile } from '../server/secretFile';
import { databaseDataKeys, rewrapDataKeys } from '../server/storage/dataKeys';
import { configuredKeyProvider, newKek } from '../server/storage/keyProvider';

export const USAGE = 'usage: npm run storage:rotate-key [-- --status | --new-key]';

/** Runs the command on an open database; returns the exit code. */
export async function runRotateKeyCommand(
  db: Db,
  config: Pick<ServerConfig, 'storageKek' | 'jwtSecret'>,
  args: string[],
  print: (line: string) => void = console.log,
): Promise<number> {
  let values: { status?: boolean | undefined; 'new-key'?: boolean | undefined };
  try {
    values = parseArgs({
      args,
      options: { status: { type: 'boolean' }, 'new-key': { type: 'boolean' } },
    }).values;
  } catch (error) {
    print(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values['new-key']) {
    print(newKek());
    print('Put it first in STORAGE_KEK (keep the old keys after it), restart every server, then run');
    print('npm run storage:rotate-key; then the old keys can be removed from the list.');
    return 0;
  }
  const keys = configuredKeyProvider(config);
  const store = databaseDataKeys(db);
  if (!values.status) {
    const { rewrapped, unreadable } = await rewrapDataKeys(store, keys, {
      progress: (done) => print(`${done} data keys wrapped again`),
    });
    print(`${rewrapped} data keys now wrapped by ${keys.currentKeyId}; no file was rewritten`);
    for (const [keyId, files] of unreadable)
      print(
        `${files} data keys are wrapped by ${keyId}, which is not configured: add it to the list and run again`,
      );
    if (unreadable.size > 0) return 1;
  }
  for (const [keyId, files] of await store.countByKek()) {
    const role =
      keyId === keys.currentKeyId ? 'current' : keys.knows(keyId) ? 'old, configured' : 'NOT CONFIGURED';
    print(`${keyId}\t${files} files\t${role}`);
  }
  return 0;
}

async function main() {
  // The data keys may be wrapped by the key derived from the server secret: it must be the server's own.
  ensureSecretFile();
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    process.exitCode = await runRotateKeyCommand(database.db, config, process.argv.slice(2));
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
