/**
 * Bundle benchmark: builds the studio and prints the gzip size of the JS and CSS the /login route loads
 * (entry, its static imports, the login screen's chunk and the en-US language chunks), and of the largest
 * lazy chunk. Budget: the login route at most 180 KB gzip. `--check` fails (exit 1) over the budget:
 * the test command runs it after its build (scripts/test.sh), so the first load cannot grow past it unseen.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { START_NAMESPACES } from '../src/services/namespaces';

interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

const dist = 'dist';
const BUDGET = 180 * 1024;
if (!process.argv.includes('--no-build')) execFileSync('npx', ['vite', 'build'], { stdio: 'ignore' });
const manifest: Record<string, Chunk> = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));

const gzip = (file: string) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** A chunk with everything it imports statically (what the browser fetches before running it). */
function closure(keys: string[], files = new Set<string>()): Set<string> {
  for (const key of keys) {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) continue;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    closure(chunk.imports ?? [], files);
  }
  return files;
}

/** The entry, the sign-in screen and the en-US namespaces loaded at start. */
const loginKeys = [
  'index.html',
  'src/ui/screens/auth/LoginScreen.tsx',
  ...START_NAMESPACES.map((namespace) => `locales/en-US/${namespace}.json`),
];
const missing = loginKeys.filter((key) => !manifest[key]);
if (missing.length) throw new Error(`Not in the manifest: ${missing.join(', ')}`);
const login = closure(loginKeys);
const sum = (files: Iterable<string>, ext: string) =>
  [...files].filter((f) => f.endsWith(ext)).reduce((total, f) => total + gzip(f), 0);
const js = sum(login, '.js');
const css = sum(login, '.css');

const lazy = Object.values(manifest)
  .filter((chunk) => chunk.isDynamicEntry && /^(src|locales)\//.test(chunk.src ?? ''))
  .map((chunk) => ({ src: chunk.src ?? chunk.file, size: gzip(chunk.file) }))
  .sort((a, b) => b.size - a.size);

console.log('bundle: /login route (gzip)');
console.log(`  js     ${kb(js)}`);
console.log(`  css    ${kb(css)}`);
console.log(`  total  ${kb(js + css)}   (budget ${kb(BUDGET)})`);
console.log(
  `bundle: largest lazy chunk: ${lazy[0]?.src} ${kb(lazy[0]?.size ?? 0)} (gzip, own file only; screens and languages)`,
);
if (process.argv.includes('--check') && js + css > BUDGET) {
  console.error(`bundle: the /login route is ${kb(js + css - BUDGET)} over its budget of ${kb(BUDGET)}`);
  process.exit(1);
}
