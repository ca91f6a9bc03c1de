import type { IconName } from '@blueprintjs/icons';
import type { ParseKeys } from 'i18next';

export interface Area {
  path: string;
  label: ParseKeys<'common'>;
  icon: IconName;
  /** Other path prefixes that belong to the area (it shows as active there). */
  also?: readonly string[];
}

/** The areas of the navbar, in order; each shows only when the account may visit it. */
export const NAV_AREAS: readonly Area[] = [
  { path: '/customers', label: 'nav.customers', icon: 'people', also: ['/profile'] },
  { path: '/review', label: 'nav.review', icon: 'inbox' },
  { path: '/calls', label: 'nav.calls', icon: 'mobile-video', also: ['/call/'] },
  { path: '/dashboard', label: 'nav.dashboard', icon: 'dashboard' },
  { path: '/landing', label: 'nav.reports', icon: 'timeline-bar-chart' },
  { path: '/entities', label: 'nav.entities', icon: 'office', also: ['/entity/'] },
  { path: '/admin', label: 'nav.admin', icon: 'shield' },
];

/** Areas reached from the account menu. */
export const ACCOUNT_AREAS: readonly Area[] = [
  { path: '/settings', label: 'nav.settings', icon: 'cog' },
  { path: '/company-settings', label: 'nav.companySettings', icon: 'briefcase' },
  { path: '/smart-modules', label: 'nav.smartModules', icon: 'applications' },
  { path: '/swagger-documentation', label: 'nav.apiDocs', icon: 'code' },
];

export const isAreaActive = (area: Area, location: string) =>
  [area.path, ...(area.also ?? [])].some((prefix) => location === prefix || location.startsWith(prefix)) ||
  (area.path === '/customers' && location === '/');
