import { expect, type Page } from '@playwright/test';
import { type Account, accountKey, STORAGE_KEYS } from '../../src/services/accounts';
import { PERMISSIONS } from '../../src/services/permissions';

export const demoAccount = (origin: string, overrides: Partial<Account> = {}): Account => ({
  id: 1,
  email: 'admin@acme.test',
  access: 'header.payload.signature',
  server: origin,
  company_id: 1,
  regions: [],
  permissions: [...PERMISSIONS],
  role: 'Admin',
  name: 'Ada Admin',
  ...overrides,
});

/** Stores accounts in the page's origin the way the studio does (the first is active). */
export async function signInAs(page: Page, accounts: Account[]): Promise<void> {
  if (page.url() === 'about:blank') await page.goto('/runtime-config.js');
  await page.evaluate(
    ([list, keys, active]) => {
      localStorage.setItem(keys.accounts, JSON.stringify(list));
      if (active) localStorage.setItem(keys.active, active);
    },
    [accounts, STORAGE_KEYS, accounts[0] ? accountKey(accounts[0]) : null] as const,
  );
}

export const path = (page: Page) => {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
};

/** face@acme.test has sample face a1 as its sign-in photo (server/db/seed). */
export async function signInToPhotoStep(page: Page) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill('face@acme.test');
  await page.getByLabel('Password').fill('User@2026');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Look at the camera and take a photo to confirm it is you.')).toBeVisible();
}
