/**
 * A backup set (docs/operators/backup.md): one folder with the database, every stored file and, on the embedded
 * default, the kept server secret, taken while the server runs; and its restore into a fresh server.
 *
 *   manifest.json        what the set holds and how it was taken
 *   database.dump        PostgreSQL: pg_dump's custom format (pg_restore reads it)
 *   database.tar.gz      PGlite: its data folder, taken by the running server between two statements
 *   files.tsv            every stored file: key, size, SHA-256 (the restore checks each against it)
 *   files/<key>          the stored files (recordings, document pages, photos, screenshots)
 *   secret               DATA_DIR/secret, when the server uses it (no JWT_SECRET)
 *
 * The database is taken first and the files after it, so every file a row names is in the set (a file newer
 * than the dump is harmless: the server removes files no row names at start).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { ServerConfig } from '../server/config';
import { PGLITE_EXTENSIONS } from '../server/db/pglite';
import { backupToken } from '../server/http/backupToken';
import { keptSecret } from '../server/secretFile';
import { createS3Storage } from '../server/storage/s3';
import { createLocalStorage, type Storage } from '../server/storage/storage';

const run = promisify(execFile);

export const BACKUP_FORMAT = 'idv-backup';
export const BACKUP_VERSION = 1;

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_VERSION;
  taken_at: string;
  database: { kind: 'pglite' | 'postgres'; file: 'database.tar.gz' | 'database.dump'; bytes: number };
  storage: { kind: 'local' | 's3'; files: number; bytes: number };
  /** The set holds DATA_DIR/secret (the server had no JWT_SECRET): keep the set as safe as the secret. */
  secret: boolean;
}

/** Where a server keeps its data: what `loadConfig` reads from the environment, or a test's own. */
export interface Site {
  config: Pick<ServerConfig, 'databaseUrl' | 'pgliteDir' | 'dataDir' | 's3' | 'jwtSecret' | 'publicUrl'>;
  /** Whether the secret comes from DATA_DIR/secret (no JWT_SECRET): then it is part of the set. */
  secretInDataDir: boolean;
  /** The running server's address for the embedded database's backup (it holds the database open). */
  serverUrl: string;
}

type Log = (line: string) => void;

/** The server's file store of a site, as the server opens it (server/plugins/context.ts). */
export function storageOf(config: Site['config']): Storage {
  return config.s3
    ? createS3Storage(config.s3, config.jwtSecret, config.publicUrl)
    : createLocalStorage(join(config.dataDir, 'storage'), config.jwtSecret, config.publicUrl);
}

/** A Transform that hashes what passes through it. */
function hashing(): Transform & { digest(): string; bytes(): number } {
  const hash = createHash('sha256');
  let bytes = 0;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  return Object.assign(transform, { digest: () => hash.digest('hex'), bytes: () => bytes });
}

/** PGlite holds its folder open while it runs (PostgreSQL's postmaster.pid): then only its server may read it. */
const pgliteRunning = (dir: string) => existsSync(join(dir, 'postmaster.pid'));

async function dumpPglite(site: Site, log: Log): Promise<Uint8Array> {
  const dir = site.config.pgliteDir;
  if (pgliteRunning(dir)) {
    log(`the embedded database is open: asking the server at ${site.serverUrl} for it`);
    let response: Response;
    try {
      response = await fetch(new URL('/backup/database', site.serverUrl), {
        headers: { authorization: `Bearer ${backupToken(site.config.jwtSecret)}` },
      });
    } catch (error) {
      throw new Error(
        `The embedded database is open (${join(dir, 'postmaster.pid')}) but no server answers at ` +
          `${site.serverUrl} (${(error as Error).message}). Set BACKUP_SERVER_URL to the running server's ` +
          'address, or stop the server; if no server runs, a crash left postmaster.pid behind: remove it.',
      );
    }
    if (!response.ok)
      throw new Error(`The server refused the backup: ${response.status} ${await response.text()}`);
    return new Uint8Array(await response.arrayBuffer());
  }
  if (!existsSync(join(dir, 'PG_VERSION'))) throw new Error(`No embedded database in ${dir}`);
  log(`the embedded database is closed: reading ${dir}`);
  const client = new PGlite(dir, { extensions: PGLITE_EXTENSIONS });
  try {
    await client.waitReady;
    const dump = await client.dumpDataDir('gzip');
    return new Uint8Array(await dump.arrayBuffer());
  } finally {
    await client.close();
  }
}

/** Takes a backup set of `site` into the folder `into` (created; must be empty). */
export async function takeBackup(site: Site, into: string, log: Log = () => undefined): Promise<Manifest> {
  if (existsSync(into) && readdirSync(into).length > 0) throw new Error(`${into} is not empty`);
  mkdirSync(join(into, 'files'), { recursive: true });
  const { config } = site;

  let database: Manifest['database'];
  if (config.databaseUrl) {
    log('dumping PostgreSQL (pg_dump)');
    const file = join(into, 'database.dump');
    // One consistent snapshot of a running database (pg_dump's own transaction); owners and grants are the
    // restoring site's.
    await run('pg_dump', [
      '--format=custom',
      '--no-owner',
      '--no-privileges',
      `--file=${file}`,
      config.databaseUrl,
    ]);
    database = { kind: 'postgres', file: 'database.dump', bytes: (await readFile(file)).length };
  } else {
    const bytes = await dumpPglite(site, log);
    await writeFile(join(into, 'database.tar.gz'), bytes);
    database = { kind: 'pglite', file: 'database.tar.gz', bytes: bytes.byteLength };
  }

  log('copying the stored files');
  const storage = storageOf(config);
  const lines: string[] = [];
  let total = 0;
  for await (const file of storage.list('')) {
    const target = join(into, 'files', file.key);
    mkdirSync(dirname(target), { recursive: true });
    const hash = hashing();
    await pipeline(storage.open(file.key), hash, createWriteStream(target));
    lines.push(`${file.key}\t${hash.bytes()}\t${hash.digest()}`);
    total += hash.bytes();
  }
  lines.sort();
  await writeFile(join(into, 'files.tsv'), lines.map((line) => `${line}\n`).join(''));

  const secret = site.secretInDataDir ? keptSecret(config.dataDir) : undefined;
  if (secret) await writeFile(join(into, 'secret'), secret, { mode: 0o600 });

  const manifest: Manifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    taken_at: new Date().toISOString(),
    database,
    storage: { kind: config.s3 ? 's3' : 'local', files: lines.length, bytes: total },
    secret: secret !== undefined,
  };
  await writeFile(join(into, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  log(`backup taken: ${database.kind} database, ${lines.length} files (${total} bytes)`);
  return manifest;
}

async function readManifest(from: string): Promise<Manifest> {
  const manifest = JSON.parse(await readFile(join(from, 'manifest.json'), 'utf8')) as Manifest;
  if (manifest.format !== BACKUP_FORMAT || manifest.version !== BACKUP_VERSION)
    throw new Error(
      `${from} is not a backup set this version reads (${manifest.format} ${manifest.version})`,
    );
  return manifest;
}

/** Tables of the target PostgreSQL database outside the system schemas. */
async function tablesIn(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`,
    );
    return rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

/**
 * Restores the set in `from` into `site`, whose server is stopped: an empty database (PostgreSQL) or no
 * embedded database folder yet, and its file store. Every file is checked against its SHA-256. `force` restores
 * over an existing database (PostgreSQL: its objects are dropped first; PGlite: the folder is moved aside).
 * Start the server afterwards: it applies the migrations the set is older than.
 */
export async function restoreBackup(
  from: string,
  site: Site,
  options: { force?: boolean } = {},
  log: Log = () => undefined,
): Promise<Manifest> {
  const manifest = await readManifest(from);
  const { config } = site;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');

  if (manifest.secret && site.secretInDataDir) {
    const secret = (await readFile(join(from, 'secret'), 'utf8')).trim();
    const current = keptSecret(config.dataDir);
    if (current !== undefined && current !== secret) {
      if (!options.force)
        throw new Error(
          `${config.dataDir}/secret differs from the backup's: restore with --force to replace it`,
        );
      renameSync(join(config.dataDir, 'secret'), join(config.dataDir, `secret.before-restore-${stamp}`));
    }
    mkdirSync(config.dataDir, { recursive: true });
    await writeFile(join(config.dataDir, 'secret'), secret, { mode: 0o600 });
  } else if (manifest.secret) {
    log(
      'the set holds a server secret, and this site has JWT_SECRET: keep JWT_SECRET the same as the backup’s',
    );
  }

  if (manifest.database.kind === 'postgres') {
    if (!config.databaseUrl)
      throw new Error('The set holds a PostgreSQL database: set DATABASE_URL to restore it');
    const existing = await tablesIn(config.databaseUrl);
    if (existing > 0 && !options.force)
      throw new Error(
        `The target database has ${existing} tables: restore into an empty one, or use --force`,
      );
    log('restoring PostgreSQL (pg_restore)');
    await run('pg_restore', [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--single-transaction',
      ...(existing > 0 ? ['--clean', '--if-exists'] : []),
      `--dbname=${config.databaseUrl}`,
      join(from, 'database.dump'),
    ]);
  } else {
    if (config.databaseUrl)
      throw new Error('The set holds the embedded database: unset DATABASE_URL to restore it (PGlite)');
    const dir = config.pgliteDir;
    if (pgliteRunning(dir)) throw new Error(`The embedded database in ${dir} is open: stop the server first`);
    if (existsSync(dir) && readdirSync(dir).length > 0) {
      if (!options.force) throw new Error(`${dir} holds a database: restore with --force to move it aside`);
      renameSync(dir, `${dir}.before-restore-${stamp}`);
    }
    log(`restoring the embedded database into ${dir}`);
    mkdirSync(dirname(dir), { recursive: true });
    const tarball = await readFile(join(from, 'database.tar.gz'));
    const client = new PGlite(dir, {
      extensions: PGLITE_EXTENSIONS,
      loadDataDir: new Blob([new Uint8Array(tarball)]),
    });
    await client.waitReady;
    await client.close();
  }

  log('restoring the stored files');
  const storage = storageOf(config);
  const listed = (await readFile(join(from, 'files.tsv'), 'utf8')).split('\n').filter(Boolean);
  for (const line of listed) {
    const [key, size, sha256] = line.split('\t') as [string, string, string];
    const stored = await storage.put(key, createReadStream(join(from, 'files', key)));
    if (stored.sha256 !== sha256 || stored.size !== Number(size))
      throw new Error(
        `${key}: restored ${stored.size} bytes with SHA-256 ${stored.sha256}, the set says ${sha256}`,
      );
  }
  log(`restored: ${manifest.database.kind} database, ${listed.length} files, every SHA-256 checked`);
  return manifest;
}
