/**
 * Blueprint icons: only the icons the studio uses are bundled (Blueprint's default loader would pull every
 * icon path into the first load). A list's icons of one size load together, the first time one of them is
 * drawn: the build puts them in one chunk (build/iconChunks.ts).
 * This first-load list holds the icons of the public pages (sign-in, errors); the shell registers the rest
 * (app/shellIcons.ts) and lazy screens their own. Add a name to both globs of the list where it is used.
 */
import { type IconName, type IconPaths, IconSize, Icons } from '@blueprintjs/icons';

const standard = import.meta.glob<IconPaths>(
  '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/{arrow-left,camera,caret-down,chevron-down,chevron-up,cross,disable,error,flash,globe,home,info-sign,key,lock,moon,refresh,shield,small-cross,small-tick,tick,tick-circle,warning-sign}.js',
  { import: 'default' },
);
const large = import.meta.glob<IconPaths>(
  '/node_modules/@blueprintjs/icons/lib/esm/generated/20px/paths/{arrow-left,camera,caret-down,chevron-down,chevron-up,cross,disable,error,flash,globe,home,info-sign,key,lock,moon,refresh,shield,small-cross,small-tick,tick,tick-circle,warning-sign}.js',
  { import: 'default' },
);

const iconName = (file: string) => file.slice(file.lastIndexOf('/') + 1, -'.js'.length);
const loaders = {
  [IconSize.STANDARD]: new Map(Object.entries(standard).map(([file, load]) => [iconName(file), load])),
  [IconSize.LARGE]: new Map(Object.entries(large).map(([file, load]) => [iconName(file), load])),
};

type IconGlob = Record<string, () => Promise<IconPaths>>;

/**
 * Icons only lazy screens use: the screen's chunk holds their glob and registers it when it loads, so the
 * first load does not carry their entries (the /login budget).
 */
export function registerIcons(standardPaths: IconGlob, largePaths: IconGlob): void {
  for (const [file, load] of Object.entries(standardPaths))
    loaders[IconSize.STANDARD].set(iconName(file), load);
  for (const [file, load] of Object.entries(largePaths)) loaders[IconSize.LARGE].set(iconName(file), load);
}

export function installIconLoader(): void {
  Icons.setLoaderOptions({
    loader: async (name: IconName, size: IconSize): Promise<IconPaths> =>
      (await loaders[size].get(name)?.()) ?? [],
  });
}
