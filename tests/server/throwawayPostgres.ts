/**
 * A throw-away PostgreSQL server from Debian's postgresql package, on loopback and a free port, for the tests
 * that need real concurrency (several connections at once); `POSTGRES_AVAILABLE` is false where the package is
 * not installed, and those tests are skipped.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/freePort';

const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
export const POSTGRES_AVAILABLE = existsSync(join(PG_BIN, 'initdb')) && existsSync(join(PG_BIN, 'pg_ctl'));
const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL tool; output is ignored (the started server would otherwise hold a pipe open). */
function pgTool(tool: string, args: string[]): void {
  const binary = join(PG_BIN, tool);
  const options = { stdio: 'ignore' as const, timeout: 60_000 };
  // PostgreSQL refuses to run as root: use the package's postgres account then.
  if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', binary, ...args], options);
  else execFileSync(binary, args, options);
}

export interface ThrowawayPostgres {
  databaseUrl: string;
  /** Stops the server and removes its files. */
  stop(): void;
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'idv-pg-'));
  if (asRoot) {
    const uid = execFileSync('id', ['-u', 'postgres']).toString().trim();
    const gid = execFileSync('id', ['-g', 'postgres']).toString().trim();
    chownSync(dir, Number(uid), Number(gid));
  }
  const port = await freePort();
  const data = join(dir, 'data');
  pgTool('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  pgTool('pg_ctl', [
    '-D',
    data,
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    '-l',
    join(dir, 'log'),
    '-w',
    'start',
  ]);
  return {
    databaseUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        pgTool('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
