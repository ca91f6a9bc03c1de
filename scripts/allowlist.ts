/**
 * `npm run allowlist -- --company ID --list | --clear`: the operator's way back in when a company's IP
 * allow-list locks its admins out. Works on the configured database: PGlite under DATA_DIR (stop
 * the server first: PGlite is one process's) or PostgreSQL from DATABASE_URL (a running server sees the
 * change within its 2-second cache).
 */
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../server/config';
import { type Db, openDatabase } from '../server/db/client';
import { companies } from '../server/db/schema';
import { clearEntries, listEntries } from '../server/domain/ipAllowList';

export const USAGE = 'usage: npm run allowlist -- --company ID (--list | --clear)';

/** Runs the command on an open database; returns the exit code. */
export async function runAllowlistCommand(
  db: Db,
  args: string[],
  print: (line: string) => void = console.log,
): Promise<number> {
  let values: { company?: string | undefined; list?: boolean | undefined; clear?: boolean | undefined };
  try {
    values = parseArgs({
      args,
      options: { company: { type: 'string' }, list: { type: 'boolean' }, clear: { type: 'boolean' } },
    }).values;
  } catch (error) {
    print(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const companyId = Number(values.company);
  if (!Number.isInteger(companyId) || companyId < 1 || values.list === values.clear) {
    print(USAGE);
    return 2;
  }
  const [company] = await db
    .select({ name: companies.name })
    .from(companies)
    .where(eq(companies.id, companyId));
  if (!company) {
    print(`No company with id ${companyId}`);
    return 1;
  }
  if (values.clear) {
    const removed = await clearEntries(db, companyId);
    print(
      `${company.name} (${companyId}): ${removed} IP allow-list entries removed; every address is allowed now`,
    );
    return 0;
  }
  const entries = await listEntries(db, companyId);
  if (entries.length === 0)
    print(`${company.name} (${companyId}): the IP allow-list is empty (every address is allowed)`);
  for (const e of entries) {
    print(`${e.id}\t${e.address}\t${e.label ?? ''}\t${e.created_by_name ?? ''}\t${e.created_at}`);
  }
  return 0;
}

async function main() {
  const database = await openDatabase(loadConfig());
  try {
    process.exitCode = await runAllowlistCommand(database.db, process.argv.slice(2));
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
