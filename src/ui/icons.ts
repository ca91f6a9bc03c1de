/**
 * Blueprint icons: only the icons the studio uses are bundled (Blueprint's default loader would pull every
 * icon path into the first load). Each icon's paths load on demand, the first time it is drawn.
 * Add a name to both lists when a screen starts using it.
 */
import { type IconName, type IconPaths, IconSize, Icons } from '@blueprintjs/icons';

const standard = import.meta.glob<IconPaths>(
  '/node_modules/@blueprintjs/icons/lib/esm/generated/16px/paths/{add,arrow-left,briefcase,camera,caret-down,chevron-down,chevron-left,chevron-right,chevron-up,cog,edit,tick-circle,time,cross,dashboard,disable,document,download,error,flash,globe,home,id-number,info-sign,key,lock,log-out,manual,mobile-video,moon,new-person,office,people,person,print,refresh,search,settings,shield,swap-horizontal,tick,timeline-bar-chart,user,video,warning-sign}.js',
  { import: 'default' },
);
const large = import.meta.glob<IconPaths>(
  '/node_modules/@blueprintjs/icons/lib/esm/generated/20px/paths/{add,arrow-left,briefcase,camera,caret-down,chevron-down,chevron-left,chevron-right,chevron-up,cog,edit,tick-circle,time,cross,dashboard,disable,document,download,error,flash,globe,home,id-number,info-sign,key,lock,log-out,manual,mobile-video,moon,new-person,office,people,person,print,refresh,search,settings,shield,swap-horizontal,tick,timeline-bar-chart,user,video,warning-sign}.js',
  { import: 'default' },
);

const iconName = (file: string) => file.slice(file.lastIndexOf('/') + 1, -'.js'.length);
const loaders = {
  [IconSize.STANDARD]: new Map(Object.entries(standard).map(([file, load]) => [iconName(file), load])),
  [IconSize.LARGE]: new Map(Object.entries(large).map(([file, load]) => [iconName(file), load])),
};

export const BUNDLED_ICONS = [...loaders[IconSize.STANDARD].keys()] as IconName[];

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
