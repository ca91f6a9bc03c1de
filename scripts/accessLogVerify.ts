/**
 * `npm run access-log:verify`: walks the access log's hash chain (server/domain/accessLog.ts) and says whether
 * every row is as it was written. Exit code 0: intact; 1: broken, with the first row that breaks it. Prints the
 * head (last sequence number and hash): keep it somewhere the server cannot write, and a later run that ends
 * before it shows rows cut off the end. Works on the configured database (PGlite under DATA_DIR: stop the
 * server first; PostgreSQL from DATABASE_URL: any time).
 */
import { loadConfig } from '../server/config';
import { type Db, openDatabase } from '../server/db/client';
import { verifyAccessLog } from '../server/domain/accessLog';

/** Runs the check on an open database; returns the exit code. */
export async function runAccessLogVerify(
  db: Db,
  print: (line: string) => void = console.log,
): Promise<number> {
  const check = await verifyAccessLog(db);
  if (!check.ok && check.broken) {
    print(
      `BROKEN at row ${check.broken.seq}: ${check.broken.reason} (${check.rows} rows before it verified)`,
    );
    return 1;
  }
  print(
    check.rows === 0
      ? 'The access log is empty'
      : `OK: ${check.rows} rows, ${check.from} to ${check.head.seq}, intact`,
  );
  print(`head ${check.head.seq} ${check.head.hash}`);
  return 0;
}

async function main() {
  const database = await openDatabase(loadConfig());
  try {
    process.exitCode = await runAccessLogVerify(database.db);
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
