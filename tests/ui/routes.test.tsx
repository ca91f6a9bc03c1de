import { act, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import screens from '../../locales/en-US/screens.json';
import trScreens from '../../locales/tr/screens.json';
import { switchLanguage } from '../../src/services/i18n';
import { PERMISSIONS } from '../../src/services/permissions';
import { App } from '../../src/ui/app/App';
import { adminAccount, storeAccounts } from '../support/accounts';
import { missingKeys } from './setup';

type ScreenKey = keyof typeof screens;

/** Every signed-in path (docs/product/screens.md) and its screen (its title, or the heading given third). */
const paths: [path: string, screen: ScreenKey, heading?: string][] = [
  ['/', 'customers'],
  ['/customers', 'customers'],
  ['/settings', 'settings'],
  ['/company-settings', 'companySettings'],
  ['/return?session_id=cs_1', 'return'],
  ['/admin', 'admin'],
  ['/entities', 'entities'],
  ['/pdf-basic/4', 'pdfBasic'],
  ['/pdf-expand/4', 'pdfExpand'],
  ['/calls', 'calls'],
  ['/call/4/room-9/12', 'call'],
  ['/landing', 'landing'],
  ['/dashboard', 'dashboard'],
  ['/smart-modules', 'smartModules'],
  ['/swagger-documentation', 'swagger'],
  ['/profile/4', 'profile'],
  ['/profile/4/document/8', 'document'],
  ['/profile/4/video/3', 'video'],
  ['/profile/4/amlHistory', 'amlHistory'],
  ['/profile/4/amlRecordDetail/77', 'amlRecordDetail'],
  // The entity screens run on sample data (no request): their heading is the entity's name at once.
  ['/entity/2', 'entity', 'Boğaziçi Lojistik Limited Şirketi'],
  ['/entity/2/documents', 'entityDocuments', 'Boğaziçi Lojistik Limited Şirketi'],
];

const publicPaths: [path: string, screen: ScreenKey][] = [
  ['/login', 'login'],
  ['/reset-password', 'resetPassword'],
  ['/create-account', 'createAccount'],
];

function visit(path: string, { strict = false } = {}) {
  window.history.replaceState(null, '', path);
  return render(
    strict ? (
      <StrictMode>
        <App />
      </StrictMode>
    ) : (
      <App />
    ),
  );
}

// The setup's wait (15 s), not a shorter one: on a loaded machine a screen's chunk takes a few seconds in jsdom.
const heading = (name: string) => screen.findByRole('heading', { level: 2, name });
const currentPath = () => `${window.location.pathname}${window.location.search}`;

afterEach(async () => {
  expect(missingKeys).toEqual([]);
  if (i18next.language !== 'en-US') await act(() => switchLanguage('en-US'));
});

describe('routes and guards (jsdom)', () => {
  it.each(paths)('%s shows the %s screen when signed in and allowed', async (path, key, name) => {
    storeAccounts(localStorage, [adminAccount()]);
    visit(path);
    expect(await heading(name ?? screens[key].title)).toBeInTheDocument();
  });

  it.each(publicPaths)('%s is public and shows %s when signed out', async (path, key) => {
    visit(path);
    expect(await heading(screens[key].title)).toBeInTheDocument();
  });

  it('every placeholder renders in Turkish too, under StrictMode', async () => {
    storeAccounts(localStorage, [adminAccount()]);
    await act(() => switchLanguage('tr'));
    for (const [path, key] of [...paths.slice(0, 6), ['/profile/4/amlHistory', 'amlHistory'] as const]) {
      const view = visit(path, { strict: true });
      expect(await heading(trScreens[key].title)).toBeInTheDocument();
      view.unmount();
    }
  });

  it('signed out on a protected route goes to /login with the original full path', async () => {
    visit('/profile/4/document/8?tab=fields');
    await waitFor(() =>
      expect(currentPath()).toBe(`/login?redirect=${encodeURIComponent('/profile/4/document/8?tab=fields')}`),
    );
    expect(await heading(screens.login.title)).toBeInTheDocument();
  });

  it('signed in on a public route goes to /', async () => {
    storeAccounts(localStorage, [adminAccount()]);
    visit('/login');
    await waitFor(() => expect(currentPath()).toBe('/'));
  });

  it('a route whose permission is missing shows the not-allowed page', async () => {
    storeAccounts(localStorage, [
      adminAccount({ permissions: PERMISSIONS.filter((p) => p !== 'view_dashboard_page') }),
    ]);
    visit('/dashboard');
    expect(await screen.findByText('You are not allowed to visit this page.')).toBeInTheDocument();
  });

  it('/admin needs the admin role besides view_admin_page', async () => {
    storeAccounts(localStorage, [adminAccount({ role: 'User' })]);
    visit('/admin');
    expect(await screen.findByText('You are not allowed to visit this page.')).toBeInTheDocument();
  });

  it('the navbar lists only the areas the permissions allow', async () => {
    storeAccounts(localStorage, [
      adminAccount({ permissions: ['view_profiles_page', 'view_calls_page'], role: 'User' }),
    ]);
    visit('/customers');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    const labels = [...nav.querySelectorAll('a,button')].map((el) => el.textContent);
    expect(labels).toEqual(['Customers', 'Calls']);
  });

  it('/reports redirects to /landing; the root with session_id goes to /return keeping the query', async () => {
    storeAccounts(localStorage, [adminAccount()]);
    const view = visit('/reports');
    await waitFor(() => expect(currentPath()).toBe('/landing'));
    view.unmount();
    visit('/?session_id=cs_test_1&x=2');
    await waitFor(() => expect(currentPath()).toBe('/return?session_id=cs_test_1&x=2'));
  });

  it('/ opens the start page: the desk for a reviewer who chose it, else the customers list', async () => {
    storeAccounts(localStorage, [adminAccount({ start_page: 'review' })]);
    let view = visit('/');
    await waitFor(() => expect(currentPath()).toBe('/review'));
    view.unmount();
    // Chose the desk but may not open it: / stays the customers list (no redirect to a not-allowed screen).
    const noDesk = PERMISSIONS.filter((p) => p !== 'review_profiles');
    storeAccounts(localStorage, [adminAccount({ start_page: 'review', permissions: noDesk })]);
    view = visit('/');
    expect(await heading(screens.customers.title)).toBeInTheDocument();
    expect(currentPath()).toBe('/');
    view.unmount();
    // The payment provider's return still wins over the start page.
    storeAccounts(localStorage, [adminAccount({ start_page: 'review' })]);
    visit('/?session_id=cs_test_2');
    await waitFor(() => expect(currentPath()).toBe('/return?session_id=cs_test_2'));
  });

  it('unknown paths go to /, also inside the profile and entity layouts', async () => {
    storeAccounts(localStorage, [adminAccount()]);
    for (const path of ['/no/such/page', '/profile/4/nothing', '/entity/2/x/y']) {
      const view = visit(path);
      await waitFor(() => expect(currentPath()).toBe('/'));
      view.unmount();
    }
  });
});
