/**
 * `npm run storage:encrypt-existing [-- --prefix documents/]`: encrypts in place the files stored before
 * encryption at rest (until then they are read as they are). Each file is written again encrypted under the
 * same key and read back to check its SHA-256; a file already encrypted is left alone, so the command can be
 * stopped and run again. On PGlite stop the server first; on PostgreSQL it works while the servers run.
 * docs/operators/encryption.md.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/client';
import { ensureSecretFile } from '../server/secretFile';
import { createStorage, encryptPlainFiles } from '../server/storage/encryptedStorage';

async function main() {
  // The data keys may be wrapped by the key derived from the server secret: it must be the server's own.
  ensureSecretFile();
  const { values } = parseArgs({ options: { prefix: { type: 'string', default: '' } } });
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    const storage = createStorage(config, database.db);
    const { encrypted, already } = await encryptPlainFiles(storage, values.prefix, (key) =>
      console.log(`encrypted ${key}`),
    );
    console.log(`${encrypted} files encrypted, ${already} were already`);
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
