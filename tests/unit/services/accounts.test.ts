import { describe, expect, it, vi } from 'vitest';
import { AccountStore, accountKey, onLogoutInOtherTab, STORAGE_KEYS } from '../../../src/services/accounts';
import { MemoryStorage, sampleAccount } from '../../support/memoryStorage';

const acme = sampleAccount();
const globex = sampleAccount({ company_id: 2, email: 'ops@globex.test', access: 'token-globex' });

function storeWith(...accounts: ReturnType<typeof sampleAccount>[]) {
  const storage = new MemoryStorage();
  const store = new AccountStore(storage);
  for (const account of accounts) store.save(account);
  return { storage, store };
}

describe('AccountStore', () => {
  it('reads as signed out when nothing is stored', () => {
    const { store } = storeWith();
    expect(store.list()).toEqual([]);
    expect(store.active()).toBeNull();
  });

  it('stores one account per company and server and marks the last saved as active', () => {
    const { store, storage } = storeWith(acme, globex);
    expect(store.list().map(accountKey)).toEqual([accountKey(acme), accountKey(globex)]);
    expect(store.active()?.email).toBe('ops@globex.test');
    expect(storage.getItem(STORAGE_KEYS.active)).toBe(accountKey(globex));
  });

  it('replaces an account of the same company and server instead of adding a second', () => {
    const { store } = storeWith(acme, { ...acme, access: 'fresh' });
    expect(store.list()).toHaveLength(1);
    expect(store.active()?.access).toBe('fresh');
  });

  it('switches to another stored account and refuses unknown keys', () => {
    const { store } = storeWith(acme, globex);
    expect(store.switchTo(accountKey(acme))).toBe(true);
    expect(store.active()?.email).toBe(acme.email);
    expect(store.switchTo('99@http://nowhere')).toBe(false);
    expect(store.active()?.email).toBe(acme.email);
  });

  it('logout forgets the active account, clears the marker, keeps the others and signals other tabs', () => {
    const { store, storage } = storeWith(acme, globex);
    expect(store.logout()).toBe('ops@globex.test');
    expect(store.active()).toBeNull();
    expect(storage.getItem(STORAGE_KEYS.active)).toBeNull();
    expect(store.list().map((a) => a.email)).toEqual([acme.email]);
    expect(Number(storage.getItem(STORAGE_KEYS.logoutEvent))).toBeGreaterThan(0);
  });

  it('forgets another stored account and keeps the active one, without a logout signal', () => {
    const { store, storage } = storeWith(acme, globex);
    store.forget(accountKey(acme));
    expect(store.list().map((a) => a.email)).toEqual([globex.email]);
    expect(store.active()?.email).toBe(globex.email);
    expect(storage.getItem(STORAGE_KEYS.logoutEvent)).toBeNull();
  });

  it('logout all forgets every account', () => {
    const { store, storage } = storeWith(acme, globex);
    store.logoutAll();
    expect(store.list()).toEqual([]);
    expect(store.active()).toBeNull();
    expect(storage.getItem(STORAGE_KEYS.logoutEvent)).not.toBeNull();
  });

  it('treats corrupt or ill-formed stored data as signed out, never as a crash', () => {
    const storage = new MemoryStorage();
    const store = new AccountStore(storage);
    storage.setItem(STORAGE_KEYS.accounts, '{not json');
    storage.setItem(STORAGE_KEYS.active, 'x');
    expect(store.list()).toEqual([]);
    expect(store.active()).toBeNull();
    storage.setItem(STORAGE_KEYS.accounts, JSON.stringify([{ email: 1 }, null, 'x', acme]));
    expect(store.list().map((a) => a.email)).toEqual([acme.email]);
    storage.setItem(STORAGE_KEYS.accounts, JSON.stringify({ not: 'a list' }));
    expect(store.list()).toEqual([]);
  });

  it('an account stored before the start page existed, or with an unknown one, opens the customers list', () => {
    const storage = new MemoryStorage();
    const store = new AccountStore(storage);
    const { start_page: _, ...old } = acme;
    const reviewer = { ...globex, start_page: 'review' };
    const odd = sampleAccount({ company_id: 3, access: 'token-3' });
    storage.setItem(
      STORAGE_KEYS.accounts,
      JSON.stringify([old, reviewer, { ...odd, start_page: 'reports' }]),
    );
    storage.setItem(STORAGE_KEYS.active, accountKey(old));
    expect(store.list().map((a) => a.start_page)).toEqual(['customers', 'review', 'customers']);
    expect(store.active()).toEqual({ ...old, start_page: 'customers' });
    store.save({ ...acme, start_page: 'review' });
    expect(store.active()?.start_page).toBe('review');
  });

  it('an account without a token is not active', () => {
    const { store } = storeWith({ ...acme, access: '' });
    expect(store.active()).toBeNull();
    expect(store.switchTo(accountKey(acme))).toBe(false);
  });

  it('survives a storage that throws (blocked or full)', () => {
    const broken = new MemoryStorage();
    broken.getItem = () => {
      throw new Error('blocked');
    };
    broken.setItem = () => {
      throw new Error('full');
    };
    const store = new AccountStore(broken);
    expect(() => store.save(acme)).not.toThrow();
    expect(store.active()).toBeNull();
  });

  it('tells subscribers about changes', () => {
    const { store } = storeWith();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.save(acme);
    store.logout();
    unsubscribe();
    store.save(acme);
    expect(listener).toHaveBeenCalledTimes(2);
  });
});

describe('sign-out listeners (server-side sessions)', () => {
  it('names the accounts signed out by logout, Remove and Logout All, each once', () => {
    const third = sampleAccount({ company_id: 3, email: 'ops@initech.test', access: 'token-initech' });
    const { store } = storeWith(acme, globex, third);
    const ended: string[][] = [];
    const stop = store.onSignOut((accounts) => ended.push(accounts.map((a) => a.access)));
    store.logout();
    store.logout(); // nobody active any more: nothing to end
    store.forget(accountKey(acme));
    store.save(globex);
    store.save(acme);
    store.logoutAll();
    stop();
    store.save(acme);
    store.logout();
    expect(ended).toEqual([['token-initech'], [acme.access], ['token-globex', acme.access]]);
  });
});

describe('onLogoutInOtherTab', () => {
  it('reacts to the logout-event key only', () => {
    const target = new EventTarget() as unknown as Window;
    const onLogout = vi.fn();
    const stop = onLogoutInOtherTab(target, onLogout);
    const storageEvent = (key: string) => Object.assign(new Event('storage'), { key });
    target.dispatchEvent(storageEvent('accounts'));
    target.dispatchEvent(storageEvent(STORAGE_KEYS.logoutEvent));
    stop();
    target.dispatchEvent(storageEvent(STORAGE_KEYS.logoutEvent));
    expect(onLogout).toHaveBeenCalledTimes(1);
  });
});
