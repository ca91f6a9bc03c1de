import { useSyncExternalStore } from 'react';
import { type Account, accounts, STORAGE_KEYS } from '../../services/accounts';

function subscribe(onChange: () => void): () => void {
  const unsubscribe = accounts.subscribe(onChange);
  // Another tab may store or switch accounts: read them again.
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEYS.accounts || event.key === STORAGE_KEYS.active || event.key === null)
      onChange();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    unsubscribe();
    window.removeEventListener('storage', onStorage);
  };
}

/** The active stored account, or null when signed out. */
export function useActiveAccount(): Account | null {
  return useSyncExternalStore(subscribe, () => accounts.active());
}

/** Every stored account. */
export function useStoredAccounts(): Account[] {
  return useSyncExternalStore(subscribe, () => accounts.list());
}
