import type { Account } from '../../src/services/accounts';

/** A Storage held in memory, for tests of code that takes a Storage. */
export class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, String(value));
  }
}

export const sampleAccount = (overrides: Partial<Account> = {}): Account => ({
  id: 7,
  email: 'agent@acme.test',
  access: 'token-acme',
  server: 'http://127.0.0.1:9',
  company_id: 1,
  regions: [],
  permissions: ['view_profiles_page'],
  role: 'User',
  name: 'Ada Agent',
  start_page: 'customers',
  ...overrides,
});
