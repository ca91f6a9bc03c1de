import type { IconName } from '@blueprintjs/icons';
import type { Account } from '../../../services/accounts';
import { canVisit } from '../../../services/permissions';

export type TileName =
  | 'customers'
  | 'calls'
  | 'callStats'
  | 'dashboard'
  | 'entities'
  | 'admin'
  | 'settings'
  | 'companySettings';

export interface Tile {
  name: TileName;
  path: string;
  icon: IconName;
}

/** The landing page's tiles, in order; each links to its screen. */
export const TILES: readonly Tile[] = [
  { name: 'customers', path: '/customers', icon: 'people' },
  { name: 'calls', path: '/calls', icon: 'mobile-video' },
  { name: 'callStats', path: '/calls?tab=report', icon: 'timeline-bar-chart' },
  { name: 'dashboard', path: '/dashboard', icon: 'dashboard' },
  { name: 'entities', path: '/entities', icon: 'office' },
  { name: 'admin', path: '/admin', icon: 'shield' },
  { name: 'settings', path: '/settings', icon: 'cog' },
  { name: 'companySettings', path: '/company-settings', icon: 'briefcase' },
];

/** Only the tiles whose screen the account may visit (docs/product/roles.md#route-permissions). */
export const visibleTiles = (account: Pick<Account, 'permissions' | 'role'>): Tile[] =>
  TILES.filter((tile) => canVisit(tile.path, account));
