/**
 * "Before" beside "after" in one run: the server of an earlier revision, taken from git (`git archive`, which
 * changes nothing in the repository) into a temporary folder that shares this tree's node_modules, started by
 * the same bench driver as the working tree's. The driver, the machine and its load are the same for both; only
 * the server's code differs.
 *
 * BENCH_BASELINE_REV names the revision (the default is the bench's own: the last one before the change it
 * measures); `none` runs the working tree only.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface ServerTree {
  /** What the figures are labelled with: `before (<rev>)` or `after (working tree)`. */
  label: string;
  /** Where the server's code is: `server/main.ts` and `server/db/seed.ts` run from here. */
  dir: string;
  /** Removes a checked-out revision (nothing for the working tree). */
  remove(): void;
}

/** The working tree, and (unless BENCH_BASELINE_REV is `none`) the revision `defaultRev` before it. */
export function serverTrees(defaultRev: string): ServerTree[] {
  const rev = process.env.BENCH_BASELINE_REV ?? defaultRev;
  const after: ServerTree = { label: 'after (working tree)', dir: process.cwd(), remove: () => undefined };
  if (rev === 'none') return [after];
  const dir = mkdtempSync(join(tmpdir(), 'idv-bench-baseline-'));
  const archive = execFileSync('git', ['archive', '--format=tar', rev], { maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive, maxBuffer: 1 << 30 });
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'));
  const before: ServerTree = {
    label: `before (${rev})`,
    dir,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
  return [before, after];
}

/** `node --import tsx <args>` in `tree`'s folder (bench/support's `run`, with the folder). */
export function runIn(tree: ServerTree, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: tree.dir,
    env: { ...process.env, ...env },
    stdio: ['ignore', process.env.BENCH_SERVER_LOG === '1' ? 'inherit' : 'ignore', 'inherit'],
  });
}

/**
 * The sides of a comparison in turns for `rounds` rounds, the order swapped each round, so that the machine's
 * drift during a run falls on every side alike; each turn with its round (1-based).
 */
export function inTurns<T>(sides: readonly T[], rounds: number): { side: T; round: number }[] {
  return Array.from({ length: rounds }, (_, n) =>
    (n % 2 === 0 ? [...sides] : [...sides].reverse()).map((side) => ({ side, round: n + 1 })),
  ).flat();
}

/** The machine's load average (1, 5, 15 minutes) and its cores, to print beside the figures. */
export function machineLoad(): string {
  const [one, five, fifteen] = loadavg().map((l) => l.toFixed(2));
  return `load average ${one} ${five} ${fifteen} on ${execFileSync('nproc').toString().trim()} cores`;
}
