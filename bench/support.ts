/** What the benchmarks share: a free port, the server as a child process, percentiles. */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';

export { freePort } from '../tests/support/freePort';

/**
 * A TypeScript script of the project in its own Node process (stdout dropped, stderr shown; BENCH_SERVER_LOG=1
 * shows stdout too: the server's log lines, e.g. the cause of a 500).
 */
export function run(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', process.env.BENCH_SERVER_LOG === '1' ? 'inherit' : 'ignore', 'inherit'],
  });
}

export function finished(child: ChildProcess): Promise<number> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

/** Stops a child process (SIGTERM) and waits for it to exit; nothing when there is none or it has ended. */
export async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  child.kill('SIGTERM');
  await finished(child);
}

export async function waitForServer(base: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('server exited early');
    try {
      if ((await fetch(`${base}/api/v1/regions`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not start');
}

/** The p-th percentile of sorted values (nearest rank). */
/** CPU seconds (user and system) a process has used so far, from /proc (Linux); NaN elsewhere or when gone. */
export function cpuSeconds(pid: number | undefined): number {
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, counted after the command's closing parenthesis, in clock ticks.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds used so far by every PostgreSQL process of the machine (its backends and helpers). */
export function postgresCpuSeconds(): number {
  let total = 0;
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return Number.NaN;
  }
  for (const pid of names.filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres'))
        total += cpuSeconds(Number(pid)) || 0;
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/**
 * The environment of a benchmark's server: its own data folder, a copy of the built studio (the working
 * tree's dist/ may be rebuilt, emptied, by someone else mid-run), a fresh secret and login limits that many
 * sign-ins a minute do not hit.
 */
export function benchServerEnv(dataDir: string, port: number): NodeJS.ProcessEnv {
  const studio = join(dataDir, 'studio');
  cpSync('dist', studio, { recursive: true });
  return {
    DATA_DIR: dataDir,
    STUDIO_DIST: studio,
    PORT: String(port),
    HOST: '127.0.0.1',
    // A database seeded before (bench:profiles with BENCH_PROFILES_SEED=0) needs the secret its stored files'
    // keys were derived from.
    JWT_SECRET: process.env.BENCH_JWT_SECRET ?? randomBytes(32).toString('hex'),
    LOG_LEVEL: 'warn',
    LOGIN_LIMIT_PER_ACCOUNT: '1000',
    LOGIN_LIMIT_PER_ADDRESS: '1000',
    // Every customer and agent of the run comes from loopback; the call and upload limits are tested in tests/server.
    CALLS_PER_ADDRESS_PER_HOUR: '100000',
    UPLOADS_PER_MINUTE: '100000',
  };
}

/** Headless Debian Chromium with the flags of playwright.config.ts (CHROMIUM_PATH names another binary). */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('@playwright/test');
  const { chromiumArgs } = await import('../playwright.config');
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: chromiumArgs,
    headless: true,
  });
}

/** Signs in through /login as a user does, until the studio's navigation is there. */
export async function signInAs(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('E-mail', { exact: true }).fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
}
