import { type Account, accountKey, STORAGE_KEYS } from '../../src/services/accounts';
import { PERMISSIONS } from '../../src/services/permissions';

export const adminAccount = (overrides: Partial<Account> = {}): Account => ({
  id: 1,
  email: 'admin@acme.test',
  access: 'header.payload.signature',
  server: 'http://127.0.0.1:9',
  company_id: 1,
  regions: [],
  permissions: [...PERMISSIONS],
  role: 'Admin',
  name: 'Ada Admin',
  start_page: 'customers',
  ...overrides,
});

/** Writes accounts into a Storage the way the studio stores them; the first is active. */
export function storeAccounts(storage: Storage, accounts: Account[]): void {
  storage.setItem(STORAGE_KEYS.accounts, JSON.stringify(accounts));
  const [active] = accounts;
  if (active) storage.setItem(STORAGE_KEYS.active, accountKey(active));
}
