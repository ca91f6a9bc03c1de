/**
 * Every Blueprint icon a studio file names is registered where that file is drawn: Blueprint draws an icon it has
 * no paths for as an empty box, with no error anywhere. Icons load by lists (src/ui/icons.ts): the public list
 * (sign-in and error pages), the shell's (every signed-in page), an area's own `icons.ts` (its screens' chunk) and
 * lists a file registers itself. A file may use the public list, the icons.ts of its folder or a folder above it,
 * the lists it registers, and, unless it is a public page (auth, account sign-up), the shell's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '../../..');
const UI = join(ROOT, 'src/ui');
const ICON_FILES = new Set(
  readdirSync(join(ROOT, 'node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths')).map((f) =>
    f.replace(/\.js$/, ''),
  ),
);
const PUBLIC_PAGES = [join(UI, 'screens/auth'), join(UI, 'screens/account')];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The icon names of a file's own globs, both sizes: `paths/{a,b}.js` or `paths/a.js`. */
function registeredIn(text: string): Set<string> {
  const names = new Set<string>();
  for (const [, group = ''] of text.matchAll(/paths\/\{([^}]+)\}\.js/g))
    for (const name of group.split(',')) names.add(name.trim());
  for (const [, name = ''] of text.matchAll(/paths\/([a-z0-9-]+)\.js/g)) names.add(name);
  return names;
}

/**
 * Icon names a file draws: the string literals of its `icon` props and fields (`icon="x"`, `icon: 'x'`,
 * `icon={ok ? 'x' : 'y'}`), leaving out the ones compared there (`kind === 'confirm'`).
 */
function drawnIn(text: string): string[] {
  const names = new Set<string>();
  for (const [, value = ''] of text.matchAll(/\bicon\w*\s*[=:]\s*(['"][^'"]*['"]|\{[^}\n]*\})/gi)) {
    for (const [, name = ''] of value.matchAll(/(?<![=!]==\s*)['"]([a-z0-9-]+)['"]/g))
      if (ICON_FILES.has(name)) names.add(name);
  }
  return [...names];
}

const read = (path: string) => readFileSync(path, 'utf8');
const publicList = registeredIn(read(join(UI, 'icons.ts')));
const shellList = registeredIn(read(join(UI, 'app/shellIcons.ts')));

/** The icon lists a file's chunk registers: icons.ts in its folder and above, and icons modules its folder imports. */
function areaLists(file: string): Set<string> {
  const names = new Set<string>();
  const add = (list: string) => {
    try {
      for (const name of registeredIn(read(list))) names.add(name);
    } catch {
      // no such list
    }
  };
  for (let dir = dirname(file); dir.startsWith(UI) && dir !== UI; dir = dirname(dir))
    add(join(dir, 'icons.ts'));
  for (const sibling of sources(dirname(file)))
    for (const [, list = ''] of read(sibling).matchAll(/import '(\.{1,2}\/[^']*icons)';/g))
      add(`${join(dirname(sibling), list)}.ts`);
  return names;
}

describe('Blueprint icons', () => {
  it('are registered wherever a studio file draws one', () => {
    const missing: string[] = [];
    for (const file of sources(UI)) {
      const text = read(file);
      const allowed = new Set([...publicList, ...registeredIn(text), ...areaLists(file)]);
      if (!PUBLIC_PAGES.some((dir) => file.startsWith(dir))) for (const name of shellList) allowed.add(name);
      for (const name of drawnIn(text))
        if (!allowed.has(name)) missing.push(`${relative(ROOT, file)}: ${name}`);
    }
    expect(missing).toEqual([]);
  });

  it('finds the icons of a line that names one, and only icon names', () => {
    expect(drawnIn(`<Button icon="cross-circle" text="x" />\n<p className="tick">`)).toEqual([
      'cross-circle',
    ]);
    expect(registeredIn("'/x/16px/paths/{add,cog}.js' '/x/20px/paths/link.js'")).toEqual(
      new Set(['add', 'cog', 'link']),
    );
  });
});
