/**
 * Which routes need which permission (docs/product/roles.md#route-permissions). Data in one place; the guards read it.
 */
import { PERMISSIONS, type Permission } from '#contract/constants';
import type { Account } from './accounts';

export { PERMISSIONS, type Permission };

export const ADMIN_ROLE = 'Admin';

export interface RouteRule {
  /** First path segment the rule covers ('' is the index route /). */
  segments: readonly string[];
  permission: Permission;
  /** The route also needs the admin role. */
  admin?: boolean;
}

/**
 * The table: /call → view_calls_page; /customers, /profile → view_profiles_page; /settings; /admin, /entities →
 * view_admin_page (and /admin the admin role); /dashboard; /landing → view_reports_page; /company-settings.
 * Shared readings: /calls and /call/… are the calls area; / is the customers page; the PDF pages and the
 * entity layout belong to the areas they show.
 */
export const ROUTE_RULES: readonly RouteRule[] = [
  { segments: ['call', 'calls'], permission: 'view_calls_page' },
  { segments: ['', 'customers', 'profile', 'pdf-basic', 'pdf-expand'], permission: 'view_profiles_page' },
  { segments: ['settings'], permission: 'view_settings_page' },
  { segments: ['admin'], permission: 'view_admin_page', admin: true },
  { segments: ['entities', 'entity'], permission: 'view_admin_page' },
  { segments: ['dashboard'], permission: 'view_dashboard_page' },
  { segments: ['landing'], permission: 'view_reports_page' },
  { segments: ['company-settings'], permission: 'view_company_page' },
  { segments: ['review'], permission: 'review_profiles' },
  { segments: ['watch'], permission: 'monitor_calls' },
];

const firstSegment = (path: string) => path.replace(/^\/+/, '').split(/[/?#]/)[0] ?? '';

/** The rule for a path, or null when the path needs no permission. */
export function ruleFor(path: string): RouteRule | null {
  const segment = firstSegment(path);
  return ROUTE_RULES.find((rule) => rule.segments.includes(segment)) ?? null;
}

export const isAdmin = (account: Pick<Account, 'role'>) => account.role === ADMIN_ROLE;

export const hasPermission = (account: Pick<Account, 'permissions'>, permission: Permission) =>
  account.permissions.includes(permission);

/** Whether the account may visit the path. */
export function canVisit(path: string, account: Pick<Account, 'permissions' | 'role'>): boolean {
  const rule = ruleFor(path);
  if (!rule) return true;
  return hasPermission(account, rule.permission) && (!rule.admin || isAdmin(account));
}
