/**
 * Keeps Blueprint's list of every icon name (about 700 names, each in three spellings, plus their font code
 * points: ~9 KB gzip) out of the first load. Blueprint's icon loader (`Icons`, which every `Icon` and
 * `Button` imports) only reads that list to check a name before loading it (`Icons.isValidIconName`) and in
 * `Icons.loadAll()`, which the studio never calls. The studio's own loader (src/ui/icons.ts) decides which
 * icons exist, and TypeScript's `IconName` type already limits the names the code can write, so the check
 * is replaced by "a string" for the loader only; `IconNames` imported from `@blueprintjs/icons` elsewhere is
 * the full list, as before. Build only: the dev server pre-bundles Blueprint unchanged.
 */
import type { Plugin } from 'vite';

const ID = 'virtual:blueprint-icon-loader-names';

const SOURCE = `// What @blueprintjs/icons' loader reads of ./iconNames (see build/blueprintIconNames.ts).
export const IconNames = {};
export const IconNamesSet = { has: (name) => typeof name === 'string' && name !== '' };
`;

export function blueprintIconNames(): Plugin {
  return {
    name: 'blueprint-icon-names',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === ID) return `\0${ID}`;
      if (
        source === './iconNames' &&
        importer &&
        /@blueprintjs[\\/]icons[\\/]lib[\\/]esm[\\/]iconLoader\.js$/.test(importer)
      )
        return `\0${ID}`;
      return null;
    },
    load(id) {
      return id === `\0${ID}` ? SOURCE : null;
    },
  };
}
