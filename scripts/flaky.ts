/**
 * Runs one test file many times and counts, to tell a flaky test from a broken one:
 *   npm run test:flaky -- <file> <runs> [workers]
 * A Playwright spec (tests/e2e) runs with --repeat-each in parallel workers; any other file runs under Vitest,
 * that many times, a few processes at once. Prints each test's passes and failures, then a closing line, and
 * exits non-zero when any run failed. Playwright keeps a failed run's trace and screenshot in test-results/.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

const [file, runsText = '10', workersText] = process.argv.slice(2);
if (!file) {
  console.error('usage: npm run test:flaky -- <test file> <runs> [workers]');
  process.exit(2);
}
const runs = Number(runsText);
const workers = Number(workersText ?? availableParallelism());
if (!Number.isInteger(runs) || runs < 1 || !Number.isInteger(workers) || workers < 1) {
  console.error('runs and workers are whole numbers of at least 1');
  process.exit(2);
}

/** Passes and failures of each test, by its full name. */
const tally = new Map<string, { passed: number; failed: number }>();
const count = (name: string, passed: boolean) => {
  const entry = tally.get(name) ?? { passed: 0, failed: 0 };
  if (passed) entry.passed += 1;
  else entry.failed += 1;
  tally.set(name, entry);
};

/** Runs a command with its output in this terminal's; answers its exit code. */
const run = (command: string, args: string[], env: NodeJS.ProcessEnv = {}) =>
  new Promise<number>((resolve) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, ...env },
    });
    child.on('close', (code) => resolve(code ?? 1));
  });

interface PlaywrightSuite {
  title: string;
  specs?: { title: string; tests: { results: { status: string }[] }[] }[];
  suites?: PlaywrightSuite[];
}

async function playwright(dir: string) {
  const report = join(dir, 'report.json');
  await run(
    'npx',
    [
      'playwright',
      'test',
      file as string,
      `--repeat-each=${runs}`,
      `--workers=${workers}`,
      '--reporter=list,json',
    ],
    { PLAYWRIGHT_JSON_OUTPUT_NAME: report, E2E_WORKERS: String(workers) },
  );
  const walk = (suite: PlaywrightSuite, path: string[]) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests)
        for (const result of test.results)
          count([...path, spec.title].join(' › '), result.status === 'passed' || result.status === 'skipped');
    for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
  };
  for (const suite of (JSON.parse(readFileSync(report, 'utf8')) as { suites: PlaywrightSuite[] }).suites)
    walk(suite, []);
}

interface VitestReport {
  testResults: { assertionResults: { fullName: string; status: string }[] }[];
}

async function vitest(dir: string) {
  let next = 0;
  const one = async () => {
    while (next < runs) {
      const index = next++;
      const report = join(dir, `run-${index}.json`);
      await run('npx', [
        'vitest',
        'run',
        file as string,
        '--reporter=dot',
        '--reporter=json',
        `--outputFile.json=${report}`,
      ]);
      try {
        const parsed = JSON.parse(readFileSync(report, 'utf8')) as VitestReport;
        for (const result of parsed.testResults)
          for (const test of result.assertionResults)
            if (test.status !== 'skipped' && test.status !== 'pending')
              count(test.fullName, test.status === 'passed');
      } catch {
        // No report: the run itself failed (a setup error), which counts as a failure of the whole file.
        count(`${file} (the run itself)`, false);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(workers, runs) }, one));
}

const dir = mkdtempSync(join(tmpdir(), 'idv-flaky-'));
try {
  await (/(^|\/)tests\/e2e\//.test(file) ? playwright(dir) : vitest(dir));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

let passed = 0;
let failed = 0;
console.log(`\n${file}, ${runs} runs:`);
for (const [name, entry] of [...tally].sort(([a], [b]) => a.localeCompare(b))) {
  passed += entry.passed;
  failed += entry.failed;
  if (entry.failed > 0) console.log(`  FLAKY ${entry.passed} passed, ${entry.failed} failed  ${name}`);
}
console.log(
  `  ${tally.size} tests, ${[...tally.values()].filter((e) => e.failed > 0).length} with a failure`,
);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || tally.size === 0 ? 1 : 0);
