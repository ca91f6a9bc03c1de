import { describe, expect, it } from 'vitest';
import { canVisit, PERMISSIONS, type Permission, ruleFor } from '../../../src/services/permissions';

const account = (permissions: Permission[], role = 'User') => ({ permissions, role });
const everything = account([...PERMISSIONS], 'Admin');

/** The route permission table (docs/product/roles.md), one row per path (and the paths that share a row). */
const table: [path: string, permission: Permission][] = [
  ['/call/12/room-1/55', 'view_calls_page'],
  ['/calls', 'view_calls_page'],
  ['/customers', 'view_profiles_page'],
  ['/', 'view_profiles_page'],
  ['/profile/5', 'view_profiles_page'],
  ['/profile/5/document/9', 'view_profiles_page'],
  ['/pdf-basic/5', 'view_profiles_page'],
  ['/settings', 'view_settings_page'],
  ['/admin', 'view_admin_page'],
  ['/entities', 'view_admin_page'],
  ['/entity/3/documents', 'view_admin_page'],
  ['/dashboard', 'view_dashboard_page'],
  ['/landing', 'view_reports_page'],
  ['/company-settings', 'view_company_page'],
];

describe('route permissions', () => {
  it.each(table)('%s needs %s', (path, permission) => {
    expect(ruleFor(path)?.permission).toBe(permission);
    expect(canVisit(path, everything)).toBe(true);
    const others = PERMISSIONS.filter((p) => p !== permission);
    expect(canVisit(path, account(others, 'Admin'))).toBe(false);
    if (path !== '/admin') expect(canVisit(path, account([permission]))).toBe(true);
  });

  it('/admin also needs the admin role', () => {
    expect(canVisit('/admin', account(['view_admin_page'], 'User'))).toBe(false);
    expect(canVisit('/admin', account(['view_admin_page'], 'Admin'))).toBe(true);
  });

  it('pages outside the table need no permission', () => {
    for (const path of ['/smart-modules', '/swagger-documentation', '/return?session_id=x', '/not-allowed']) {
      expect(ruleFor(path)).toBeNull();
      expect(canVisit(path, account([]))).toBe(true);
    }
  });

  it('query strings and fragments do not change the rule', () => {
    expect(ruleFor('/customers?page=2')?.permission).toBe('view_profiles_page');
    expect(ruleFor('/dashboard#x')?.permission).toBe('view_dashboard_page');
  });
});
