import { startPageOf } from '#contract/constants';
import type { SignedInAccount } from '../machines/session.machine';

/**
 * Accounts stored in the browser (docs/product/entities.md#account, docs/product/states.md#session-end): one per company and server, plus a
 * marker naming the active one. Corrupt or missing data reads as signed out, never as a crash.
 */
export type { Region } from '#contract/auth';

/** A stored account (docs/product/entities.md#account): what the session machine makes when it signs in. */
export type Account = SignedInAccount;

export const STORAGE_KEYS = {
  accounts: 'accounts',
  active: 'active-account',
  logoutEvent: 'logout-event',
} as const;

export const accountKey = (account: Pick<Account, 'company_id' | 'server'>): string =>
  `${account.company_id}@${account.server}`;

const isString = (v: unknown): v is string => typeof v === 'string';

/** An account as stored, before `readAccount` fills what older versions of the studio did not write. */
type StoredAccount = Omit<Account, 'start_page'> & { start_page?: unknown };

function isAccount(v: unknown): v is StoredAccount {
  if (typeof v !== 'object' || v === null) return false;
  const a = v as Record<string, unknown>;
  return (
    typeof a.id === 'number' &&
    isString(a.email) &&
    isString(a.access) &&
    isString(a.server) &&
    typeof a.company_id === 'number' &&
    Array.isArray(a.regions) &&
    Array.isArray(a.permissions) &&
    a.permissions.every(isString) &&
    isString(a.role) &&
    isString(a.name)
  );
}

/**
 * A stored account as the studio uses it: one stored before the start page existed, or with a value
 * this version does not know, opens the customers list, as every account did before.
 */
function readAccount(stored: StoredAccount): Account {
  return { ...stored, start_page: startPageOf(stored.start_page) };
}

export class AccountStore {
  private readonly listeners = new Set<() => void>();
  private readonly signOutListeners = new Set<(ended: Account[]) => void>();
  private cache: { raw: string | null; marker: string | null; accounts: Account[] } | null = null;

  constructor(private readonly storage: Storage) {}

  /** Every stored account that is well formed; anything unreadable is dropped. */
  list(): Account[] {
    const raw = this.read(STORAGE_KEYS.accounts);
    const marker = this.read(STORAGE_KEYS.active);
    if (this.cache && this.cache.raw === raw && this.cache.marker === marker) return this.cache.accounts;
    let accounts: Account[] = [];
    try {
      const parsed: unknown = raw ? JSON.parse(raw) : [];
      accounts = Array.isArray(parsed) ? parsed.filter(isAccount).map(readAccount) : [];
    } catch {
      accounts = [];
    }
    this.cache = { raw, marker, accounts };
    return accounts;
  }

  /** The account the studio works with now; null when signed out. An account without a token is signed out. */
  active(): Account | null {
    const marker = this.read(STORAGE_KEYS.active);
    const account = this.list().find((a) => accountKey(a) === marker);
    return account?.access ? account : null;
  }

  /** Store (or refresh) an account and make it the active one. */
  save(account: Account): void {
    const key = accountKey(account);
    this.write([...this.list().filter((a) => accountKey(a) !== key), account], key);
  }

  /** Make another stored account the active one. Unknown keys change nothing. */
  switchTo(key: string): boolean {
    if (!this.list().some((a) => accountKey(a) === key && a.access)) return false;
    this.write(this.list(), key);
    return true;
  }

  /**
   * Logout of the active account (docs/product/states.md), also the session end of a 401: forget its token and the account,
   * clear the active marker, tell other tabs. Returns the email it was signed in with.
   */
  logout(): string | null {
    const active = this.active();
    const key = active ? accountKey(active) : null;
    this.write(
      this.list().filter((a) => accountKey(a) !== key),
      null,
    );
    this.signalLogout();
    if (active) this.signedOut([active]);
    return active?.email ?? null;
  }

  /** Forgets a stored account (settings' Remove, offered for the accounts that are not active). */
  forget(key: string): void {
    const forgotten = this.list().filter((a) => accountKey(a) === key);
    this.write(
      this.list().filter((a) => accountKey(a) !== key),
      this.read(STORAGE_KEYS.active),
    );
    this.signedOut(forgotten);
  }

  /** Logout All: forget every stored account and tell other tabs. */
  logoutAll(): void {
    const all = this.list();
    this.write([], null);
    this.signalLogout();
    this.signedOut(all);
  }

  /**
   * Calls `listener` with the accounts this browser just signed out of (logout, Logout All, Remove), so
   * their sessions can be ended on their servers too.
   */
  onSignOut(listener: (ended: Account[]) => void): () => void {
    this.signOutListeners.add(listener);
    return () => this.signOutListeners.delete(listener);
  }

  private signedOut(ended: Account[]): void {
    const withToken = ended.filter((a) => a.access);
    if (withToken.length === 0) return;
    for (const listener of [...this.signOutListeners]) listener(withToken);
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private signalLogout(): void {
    this.tryWrite(STORAGE_KEYS.logoutEvent, String(Date.now()));
  }

  private write(accounts: Account[], activeKey: string | null): void {
    this.tryWrite(STORAGE_KEYS.accounts, JSON.stringify(accounts));
    if (activeKey) this.tryWrite(STORAGE_KEYS.active, activeKey);
    else this.tryRemove(STORAGE_KEYS.active);
    for (const listener of [...this.listeners]) listener();
  }

  private read(key: string): string | null {
    try {
      return this.storage.getItem(key);
    } catch {
      return null;
    }
  }

  private tryWrite(key: string, value: string): void {
    try {
      this.storage.setItem(key, value);
    } catch {
      // Storage full or blocked: the session simply is not remembered.
    }
  }

  private tryRemove(key: string): void {
    try {
      this.storage.removeItem(key);
    } catch {
      // As above.
    }
  }
}

/** Calls `onLogout` when another tab signals a logout (storage event `logout-event`, docs/product/screens.md#guards). */
export function onLogoutInOtherTab(target: Window, onLogout: () => void): () => void {
  const handler = (event: StorageEvent) => {
    if (event.key === STORAGE_KEYS.logoutEvent) onLogout();
  };
  target.addEventListener('storage', handler);
  return () => target.removeEventListener('storage', handler);
}

/** The studio's store, over the browser's localStorage. */
export const accounts = new AccountStore(globalThis.localStorage);
