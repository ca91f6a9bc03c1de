/**
 * The server started as operators start it (`server/main.ts` in a process of its own), on a copy of the run's
 * seeded template, for tests of what only the real process does: its signals, its exporters, its stdout.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import { PGLITE_EXTENSIONS } from '../../server/db/pglite';
import { freePort } from '../support/freePort';
import { TEMPLATE_FILES, testConfig } from './testConfig';

const ROOT = join(import.meta.dirname, '../..');

export interface MainProcess {
  url: string;
  child: ChildProcess;
  /** Its stdout, line by line (JSON log lines among them), as it comes. */
  output: string[];
  /** The exit code, once it has stopped. */
  exited: Promise<number | null>;
  /** Sends `signal` (SIGTERM unless told), waits until it has stopped, removes its data; its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * The run's seeded template (tests/server/template.setup.ts) as a server's data folder, with the secret it was
 * sealed with: the server starts on it without migrating and seeding (half a minute on a loaded machine).
 * Without a template (a run outside the server project) the server seeds a new folder itself.
 */
async function dataFromTemplate(folder: string): Promise<Record<string, string>> {
  const template = inject('serverTemplate');
  if (!template) return {};
  const dump = new Blob([readFileSync(join(template, TEMPLATE_FILES.database))]);
  const client = new PGlite({
    dataDir: join(folder, 'pg'),
    loadDataDir: dump,
    extensions: PGLITE_EXTENSIONS,
  });
  await client.waitReady;
  await client.close();
  cpSync(join(template, TEMPLATE_FILES.storage), join(folder, 'storage'), { recursive: true });
  return { JWT_SECRET: testConfig(folder).jwtSecret };
}

/** Starts `server/main.ts` with `env` over the test defaults; resolves once it listens. */
export async function startMainProcess(env: Record<string, string> = {}): Promise<MainProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'idv-main-'));
  const seeded = await dataFromTemplate(dataDir);
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...seeded,
      // The embedded database and local storage, whatever the run's own environment names (empty is unset).
      DATABASE_URL: '',
      REDIS_URL: '',
      S3_BUCKET: '',
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      // What these tests look at needs neither the face model nor the OCR: the server starts without them.
      FACE_MATCH: 'off',
      MACHINE_CHECKS: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let pending = '';
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server stopped (exit code ${code})`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop() ?? '';
      output.push(...lines);
      if (lines.some((line) => line.includes('IDV Studio server on'))) resolve();
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const code = await exited;
      rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
