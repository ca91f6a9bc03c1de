/**
 * `npm run backup -- <folder>`: a backup set of this site (docs/operators/backup.md) while the server runs, with
 * the server's own settings (DATABASE_URL or DATA_DIR, S3_* or DATA_DIR/storage, JWT_SECRET). On the embedded
 * database the running server hands it over (BACKUP_SERVER_URL, default its HOST and PORT).
 */
import { join } from 'node:path';
import { takeBackup } from './backupSet';
import { siteFromEnvironment } from './backupSite';

const into = process.argv[2] ?? join('backups', new Date().toISOString().replace(/[:.]/g, '-'));
try {
  const manifest = await takeBackup(siteFromEnvironment(), into, (line) => console.log(line));
  console.log(`${into}: ${JSON.stringify(manifest)}`);
} catch (error) {
  console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
