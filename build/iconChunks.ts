/**
 * One chunk per icon list and size. Each list of icons the studio registers (src/ui/icons.ts for the public
 * pages, src/ui/app/shellIcons.ts for the shell, a lazy screen's own `icons.ts`) names Blueprint's path
 * modules in two `import.meta.glob`s, one per size; left alone, every icon became a chunk of its own, fetched
 * when it was first drawn: about 20 requests of a few hundred bytes on each page load of the shell, each
 * drawing its icon again when it came. Grouped, the first icon a list draws fetches all of that list's icons
 * of its size at once (the shell's: 5.7 KB gzip), and the icons it draws appear together. An icon in several lists goes with the public one when it
 * is there (it loads first), else with the first list by path. Icons no list names (Blueprint's own list of
 * every icon, which the studio never loads) stay where they are.
 */
import type { Rolldown } from 'vite';

const ICON_PATHS = /@blueprintjs[\\/]icons[\\/]lib[\\/]esm[\\/]generated[\\/](16|20)px[\\/]paths[\\/]/;
const LISTS = /[\\/]src[\\/]ui[\\/](.+)\.ts$/;
/** src/ui/icons.ts: the public pages' icons, registered with the loader. */
const PUBLIC_LIST = 'icons';

/** The chunk of an icon path module (`icons16-app-shellIcons`), or null for any other module. */
export const iconChunkName = (id: string, lists: readonly string[]): string | null => {
  const size = ICON_PATHS.exec(id)?.[1];
  if (!size) return null;
  const names = lists
    .map((list) => LISTS.exec(list)?.[1]?.replace(/[\\/]/g, '-'))
    .filter((name): name is string => name !== undefined)
    .sort();
  if (names.includes(PUBLIC_LIST)) return `icons${size}-public`;
  return names[0] ? `icons${size}-${names[0]}` : null;
};

/** The code-splitting group of the build (vite.config.ts): the lists are the modules that import an icon lazily. */
export const iconChunks: Rolldown.CodeSplittingGroup = {
  debugName: 'icon lists',
  name: (id, ctx) => iconChunkName(id, ctx.getModuleInfo(id)?.dynamicImporters ?? []),
};
