/**
 * `npm run restore -- <folder> [--force]`: restores a backup set (scripts/backup.ts) into this site, whose server
 * is stopped, with the server's own settings; every file is checked against its SHA-256. Then start the server:
 * it applies the migrations the set is older than. `--force` restores over an existing database (PostgreSQL:
 * dropped first; the embedded one: moved aside) and replaces a different DATA_DIR/secret (kept aside).
 */
import { restoreBackup } from './backupSet';
import { siteFromEnvironment } from './backupSite';

const args = process.argv.slice(2);
const from = args.find((arg) => !arg.startsWith('--'));
if (!from) {
  console.error('Usage: npm run restore -- <backup folder> [--force]');
  process.exit(2);
}
try {
  await restoreBackup(from, siteFromEnvironment(), { force: args.includes('--force') }, (line) =>
    console.log(line),
  );
} catch (error) {
  console.error(`Restore failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
