/**
 * Bundle benchmark: builds the studio and prints the gzip size of the JS and CSS the /login route loads
 * before its first paint (entry, its static imports, the login screen's chunk and the en-US language
 * chunks), then what the page loads while it already shows (`then`: the session machine, the single sign-on
 * probe), and the largest lazy chunk. Budget: the login route at most 150 KB gzip. `--check` fails (exit 1)
 * over the budget: the test command runs it after its build (scripts/test.sh), so the first load cannot grow
 * past it unseen.
 *
 *   npx tsx bench/bundle.ts [--no-build] [--check] [--dist <dir>] [--compare <other dir>] [--files]
 *
 * The build folder is `--dist`, else STUDIO_DIST, else dist/. `--compare` prints another build (say, one of
 * the previous commit: `git stash; npx vite build --outDir /tmp/before; git stash pop`) beside it, and
 * `--files` each file of the route with its size.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { START_NAMESPACES } from '../src/services/namespaces';
import { machineLoad } from './baseline';

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

const BUDGET = 150 * 1024;
const argv = process.argv.slice(2);
const option = (name: string) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};
const dist = option('--dist') ?? process.env.STUDIO_DIST ?? 'dist';
const other = option('--compare');

if (!argv.includes('--no-build'))
  execFileSync('npx', ['vite', 'build', '--outDir', dist, '--emptyOutDir'], { stdio: 'ignore' });

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

interface Measure {
  dist: string;
  js: number;
  css: number;
  files: { file: string; size: number }[];
  /** What the page loads without waiting for it (the session machine, the single sign-on probe). */
  later: number;
  lazy: { src: string; size: number } | undefined;
}

/**
 * Loaded by the sign-in page while it already shows and takes typing (a build made before the session machine
 * was split off has no such chunk).
 */
const AFTER_PAINT = ['src/ui/screens/auth/signInSession.ts', 'src/ui/screens/auth/SsoSteps.tsx'];

/** The /login route of one build: the entry, the sign-in screen and the en-US namespaces loaded at start. */
function measure(folder: string): Measure {
  const manifest: Record<string, Chunk> = JSON.parse(
    readFileSync(join(folder, '.vite/manifest.json'), 'utf8'),
  );
  const gzip = (file: string) => gzipSync(readFileSync(join(folder, file)), { level: 9 }).length;

  /** A chunk with everything it imports statically (what the browser fetches before running it). */
  const closure = (keys: string[], files = new Set<string>()): Set<string> => {
    for (const key of keys) {
      const chunk = manifest[key];
      if (!chunk || files.has(chunk.file)) continue;
      files.add(chunk.file);
      for (const css of chunk.css ?? []) files.add(css);
      closure(chunk.imports ?? [], files);
    }
    return files;
  };

  const loginKeys = [
    'index.html',
    'src/ui/screens/auth/LoginScreen.tsx',
    ...START_NAMESPACES.map((namespace) => `locales/en-US/${namespace}.json`),
  ];
  const missing = loginKeys.filter((key) => !manifest[key]);
  if (missing.length) throw new Error(`Not in the manifest of ${folder}: ${missing.join(', ')}`);
  const route = closure(loginKeys);
  const files = [...route].map((file) => ({ file, size: gzip(file) }));
  const later = [...closure(AFTER_PAINT)]
    .filter((file) => !route.has(file))
    .reduce((total, file) => total + gzip(file), 0);
  const sum = (ext: string) =>
    files.filter(({ file }) => file.endsWith(ext)).reduce((total, { size }) => total + size, 0);

  const lazy = Object.values(manifest)
    .filter((chunk) => chunk.isDynamicEntry && /^(src|locales)\//.test(chunk.src ?? ''))
    .map((chunk) => ({ src: chunk.src ?? chunk.file, size: gzip(chunk.file) }))
    .sort((a, b) => b.size - a.size);
  return { dist: folder, js: sum('.js'), css: sum('.css'), files, later, lazy: lazy[0] };
}

const now = measure(dist);
const before = other ? measure(other) : undefined;
console.log(`bundle: ${machineLoad()}`);

const row = (label: string, pick: (m: Measure) => number) => {
  const cells = [before, now].filter((m): m is Measure => !!m).map((m) => kb(pick(m)).padStart(10));
  const change = before ? `  ${pick(now) - pick(before) >= 0 ? '+' : ''}${kb(pick(now) - pick(before))}` : '';
  console.log(`  ${label.padEnd(7)}${cells.join('')}${change}`);
};
console.log(
  before
    ? `bundle: /login route (gzip)  ${'before'.padStart(10)}${'after'.padStart(10)}\n  (${before.dist} → ${now.dist})`
    : `bundle: /login route (gzip), ${now.dist}`,
);
row('js', (m) => m.js);
row('css', (m) => m.css);
row('total', (m) => m.js + m.css);
console.log(`  budget ${kb(BUDGET)}`);
row('then', (m) => m.later);
console.log(
  '  (then: loaded while the page already shows and takes typing: the session machine, the SSO probe)',
);
console.log(
  `bundle: largest lazy chunk: ${now.lazy?.src} ${kb(now.lazy?.size ?? 0)} (gzip, own file only; screens and languages)`,
);
if (argv.includes('--files'))
  for (const { file, size } of [...now.files].sort((a, b) => b.size - a.size))
    console.log(`  ${kb(size).padStart(9)}  ${file}`);

if (argv.includes('--check') && now.js + now.css > BUDGET) {
  console.error(
    `bundle: the /login route is ${kb(now.js + now.css - BUDGET)} over its budget of ${kb(BUDGET)}`,
  );
  process.exit(1);
}
