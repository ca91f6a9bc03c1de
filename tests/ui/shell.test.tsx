import { Classes } from '@blueprintjs/core';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accountKey, accounts, STORAGE_KEYS } from '../../src/services/accounts';
import { ChunkLoadError } from '../../src/services/chunks';
import { switchLanguage } from '../../src/services/i18n';
import { App } from '../../src/ui/app/App';
import { lazyScreen } from '../../src/ui/app/lazyScreen';
import { reloadPage } from '../../src/ui/app/reload';
import { ScreenSlot } from '../../src/ui/app/routes';
import { showSuccess } from '../../src/ui/toaster';
import { adminAccount, storeAccounts } from '../support/accounts';
import { missingKeys } from './setup';

vi.mock('../../src/ui/app/reload', () => ({ reloadPage: vi.fn() }));

afterEach(async () => {
  vi.mocked(reloadPage).mockClear();
  expect(missingKeys).toEqual([]);
  if (i18next.language !== 'en-US') await act(() => switchLanguage('en-US'));
  document.body.classList.remove(Classes.DARK);
});

const acme = adminAccount();
const globex = adminAccount({
  company_id: 2,
  email: 'ops@globex.test',
  access: 'globex-token',
  name: 'Otto Ops',
});

function showApp(path = '/customers') {
  window.history.replaceState(null, '', path);
  return render(<App />);
}

function Crashing(): never {
  throw new ChunkLoadError('CHUNK_LOAD_TIMEOUT', 'timed out');
}

function Buggy(): never {
  throw new Error('bug');
}

describe('screen slot', () => {
  const failingWith = (error: Error) => lazyScreen(() => Promise.reject(error), 'Nothing' as never);

  it('shows a clear message with Reload when a screen chunk fails', async () => {
    const Broken = failingWith(new TypeError('Failed to fetch dynamically imported module'));
    render(
      <ScreenSlot>
        <Broken />
      </ScreenSlot>,
    );
    expect(await screen.findByText('This part of the studio could not be loaded')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('says which part failed when it is a style chunk', async () => {
    const Broken = failingWith(new Error('Unable to preload CSS for /assets/Screen.css'));
    render(
      <ScreenSlot>
        <Broken />
      </ScreenSlot>,
    );
    expect(
      await screen.findByText('The styles of this screen could not be loaded. Reload to try again.'),
    ).toBeInTheDocument();
  });

  it('shows a generic error (not a white page) for a screen that crashes', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const view = render(
      <ScreenSlot>
        <Crashing />
      </ScreenSlot>,
    );
    expect(await screen.findByText('This part of the studio could not be loaded')).toBeInTheDocument();
    view.unmount();
    render(
      <ScreenSlot>
        <Buggy />
      </ScreenSlot>,
    );
    expect(await screen.findByText('An error occured')).toBeInTheDocument();
    vi.mocked(console.error).mockRestore();
  });
});

describe('shell', () => {
  it('switches the language from the navbar and stores the choice', async () => {
    storeAccounts(localStorage, [acme]);
    showApp();
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Language' }), 'tr');
    expect(await screen.findByRole('heading', { name: 'Müşteriler' })).toBeInTheDocument();
    expect(localStorage.getItem('language')).toBe('tr');
    expect(document.documentElement.lang).toBe('tr');
  });

  it('toggles the dark theme on <body> and stores it', async () => {
    storeAccounts(localStorage, [acme]);
    showApp();
    await userEvent.click(await screen.findByRole('button', { name: 'Switch to the dark theme' }));
    expect(document.body).toHaveClass(Classes.DARK);
    expect(localStorage.getItem('theme')).toBe('dark');
    await userEvent.click(screen.getByRole('button', { name: 'Switch to the light theme' }));
    expect(document.body).not.toHaveClass(Classes.DARK);
  });

  it('switches between stored accounts from the account menu', async () => {
    storeAccounts(localStorage, [acme, globex]);
    showApp('/dashboard');
    await userEvent.click(await screen.findByRole('button', { name: /^Account menu: / }));
    await userEvent.click(await screen.findByText('ops@globex.test'));
    await waitFor(() => expect(accounts.active()?.email).toBe('ops@globex.test'));
    expect(localStorage.getItem(STORAGE_KEYS.active)).toBe(accountKey(globex));
    await waitFor(() => expect(window.location.pathname).toBe('/'));
    expect(showSuccess).toHaveBeenCalledWith('Now working as ops@globex.test');
  });

  it('Logout forgets the active account, signals other tabs and reloads', async () => {
    storeAccounts(localStorage, [acme, globex]);
    showApp();
    await userEvent.click(await screen.findByRole('button', { name: /^Account menu: / }));
    await userEvent.click(await screen.findByText('Logout'));
    expect(accounts.list().map((a) => a.email)).toEqual(['ops@globex.test']);
    expect(localStorage.getItem(STORAGE_KEYS.active)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.logoutEvent)).not.toBeNull();
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('Logout All forgets every account', async () => {
    storeAccounts(localStorage, [acme, globex]);
    showApp();
    await userEvent.click(await screen.findByRole('button', { name: /^Account menu: / }));
    await userEvent.click(await screen.findByText('Logout All'));
    expect(accounts.list()).toEqual([]);
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('a logout in another tab reloads this one', async () => {
    storeAccounts(localStorage, [acme]);
    showApp();
    await screen.findByRole('heading', { name: 'Customers' });
    window.dispatchEvent(new StorageEvent('storage', { key: STORAGE_KEYS.logoutEvent, newValue: '1' }));
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  it('a session that ends (401) sends the user to /login with the email and says why', async () => {
    storeAccounts(localStorage, [acme]);
    showApp('/calls');
    await screen.findByRole('heading', { name: 'Calls' });
    const { raiseAppEvent } = await import('../../src/services/appEvents');
    act(() => {
      accounts.logout();
      raiseAppEvent({ type: 'session.ended', email: 'admin@acme.test', reason: 'disabled' });
    });
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    const query = new URLSearchParams(window.location.search);
    expect(query.get('email')).toBe('admin@acme.test');
    expect(query.get('redirect')).toBe('/calls');
    // On the page, not in a toast that goes away.
    expect(
      await screen.findByText(
        'Your account has been disabled, so you were signed out. Contact your administrator.',
      ),
    ).toBeInTheDocument();
  });

  it('a session that ended while the page started (before the app listened) is still explained', async () => {
    const { raiseAppEvent } = await import('../../src/services/appEvents');
    raiseAppEvent({ type: 'session.ended', email: 'admin@acme.test', reason: 'password_changed' });
    showApp('/calls');
    expect(
      await screen.findByText(
        'Your password was changed, so you were signed out. Sign in with the new password.',
      ),
    ).toBeInTheDocument();
    const query = new URLSearchParams(window.location.search);
    expect(query.get('ended')).toBe('password_changed');
    expect(query.get('redirect')).toBe('/calls');
  });

  it('a session that ends with no reason from the server says that it ended', async () => {
    storeAccounts(localStorage, [acme]);
    showApp('/calls');
    await screen.findByRole('heading', { name: 'Calls' });
    const { raiseAppEvent } = await import('../../src/services/appEvents');
    act(() => {
      accounts.logout();
      raiseAppEvent({ type: 'session.ended', email: 'admin@acme.test', reason: null });
    });
    expect(await screen.findByText('Your session ended. Sign in again.')).toBeInTheDocument();
    expect(new URLSearchParams(window.location.search).get('ended')).toBe('unknown');
  });
});
