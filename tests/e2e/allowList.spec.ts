import type { APIRequestContext, Page } from '@playwright/test';
import { allowedBy } from '#contract/ipRanges';
import { rangesOf } from '../../server/domain/ipAllowList';
import { expect, test } from './cspGuard';
import { DEMO, signIn } from './support';

/**
 * The IP allow-list tab. The browser reaches the server from 127.0.0.1, and the e2e server's
 * database is shared by every spec: each test leaves Acme's list empty again (afterEach clears what is left).
 */
const shots = process.env.ALLOWLIST_SCREENSHOTS;

async function clearList(request: APIRequestContext) {
  const login = await request.post('/api/v1/login/', {
    data: { username: DEMO.admin.email, password: DEMO.admin.password },
  });
  const { access } = (await login.json()) as { access: string };
  const headers = { authorization: `Bearer ${access}` };
  const entries = (await (await request.get('/api/v2/ip-whitelist', { headers })).json()) as {
    id: number;
    address: string;
  }[];
  // Entries holding the browser's 127.0.0.1 go last, so the cleanup never shuts itself out.
  const holdsUs = (address: string) => allowedBy(rangesOf([address]), '127.0.0.1');
  entries.sort((a, b) => Number(holdsUs(a.address)) - Number(holdsUs(b.address)));
  for (const entry of entries) {
    await request.delete(`/api/v2/ip-whitelist/${entry.id}?confirm_lockout=true`, { headers });
  }
}
test.afterEach(async ({ request }) => clearList(request));

/** The open alert dialog holding `text` (a closing one may still be on the page). */
const dialog = (page: Page, text: string) => page.getByRole('alertdialog').filter({ hasText: text });

async function openTab(page: Page, tab: string) {
  await page.goto('/company-settings');
  await page.getByRole('tab', { name: tab }).click();
}

/** Screenshots of the current tab in the other theme too (only when ALLOWLIST_SCREENSHOTS is set). */
async function shoot(page: Page, name: string, tab: string, themes: ('light' | 'dark')[]) {
  if (!shots) return;
  for (const theme of themes) {
    await page.evaluate((value) => localStorage.setItem('theme', value), theme);
    await openTab(page, tab);
    await expect(page.getByRole('table').locator('tbody tr').first()).toBeVisible();
    await page.screenshot({ path: `${shots}/allowlist-${name}-${theme}.png`, fullPage: true });
  }
}

test('an admin adds and deletes entries, warned before locking themself out', async ({ page }) => {
  await signIn(page);
  await openTab(page, 'IP allow-list');
  await expect(page.getByTestId('allowlist-me')).toContainText('Your address: 127.0.0.1 allowed');
  await expect(page.getByText('The list is empty')).toBeVisible();

  const address = page.getByRole('textbox', { name: 'Address or range' });
  const add = page.getByRole('button', { name: 'Add', exact: true });
  await address.fill('10.0.0.1/8');
  await add.click();
  await expect(page.getByText('This is not the start of its range: write 10.0.0.0/8')).toBeVisible();
  await address.fill('999.1.1.1');
  await expect(page.getByText('Not an IPv4 or IPv6 address or CIDR range')).toBeVisible();

  // 10.0.0.0/8 alone would shut out the admin's own 127.0.0.1: the server answers 409, the studio warns.
  await address.fill('10.0.0.0/8');
  await add.click();
  const warning = page.getByRole('alertdialog');
  await expect(warning).toContainText('You would lock yourself out');
  await expect(warning).toContainText('After adding 10.0.0.0/8, your address 127.0.0.1 would not be on');
  if (shots) await page.screenshot({ path: `${shots}/allowlist-lockout-en-light.png` });
  await warning.getByRole('button', { name: 'Cancel' }).click();
  await expect(warning).toBeHidden();
  await expect(page.getByText('The list is empty')).toBeVisible();
  await expect(address).toHaveValue('10.0.0.0/8');

  await address.fill('127.0.0.1/32');
  await page.getByRole('textbox', { name: 'Label' }).fill('Playwright office');
  await add.click();
  const table = page.getByRole('table', { name: 'IP allow-list' });
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await expect(table.locator('tbody tr').first()).toContainText('127.0.0.1/32');
  await expect(table.locator('tbody tr').first()).toContainText('Playwright office');
  await expect(address).toHaveValue('');
  await address.fill('10.0.0.0/8');
  await add.click();
  await expect(table.locator('tbody tr')).toHaveCount(2);
  await address.fill('127.0.0.1');
  await add.click();
  await expect(page.getByText('127.0.0.1 is already on the IP allow-list').first()).toBeVisible();
  await shoot(page, 'en', 'IP allow-list', ['light', 'dark']);
  if (shots) await page.evaluate(() => localStorage.setItem('theme', 'light'));

  // Deleting 127.0.0.1/32 would leave 10.0.0.0/8 only: confirmation, then the lock-out warning.
  await table.getByRole('button', { name: 'Delete 127.0.0.1/32' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Delete 127.0.0.1/32?');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  const lockout = page.getByRole('alertdialog').filter({ hasText: 'You would lock yourself out' });
  await expect(lockout).toContainText('After deleting 127.0.0.1/32, your address 127.0.0.1 would not be on');
  await lockout.getByRole('button', { name: 'Cancel' }).click();
  await expect(lockout).toBeHidden();
  await expect(table.locator('tbody tr')).toHaveCount(2);

  // 10.0.0.0/8 first, then the last entry: the list ends empty without any warning.
  await table.getByRole('button', { name: 'Delete 10.0.0.0/8' }).click();
  await dialog(page, 'Delete 10.0.0.0/8?').getByRole('button', { name: 'Delete' }).click();
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await table.getByRole('button', { name: 'Delete 127.0.0.1/32' }).click();
  await dialog(page, 'Delete 127.0.0.1/32?').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('The list is empty')).toBeVisible();
  await expect(page.getByTestId('allowlist-me')).toContainText('127.0.0.1 allowed');
});

test('the tab in Turkish: the warning names the address, add and delete again', async ({ page }) => {
  await signIn(page);
  await page.evaluate(() => {
    localStorage.setItem('language', 'tr');
    localStorage.setItem('theme', 'dark');
  });
  await openTab(page, 'IP izin listesi');
  await expect(page.getByTestId('allowlist-me')).toContainText('Adresiniz: 127.0.0.1 izinli');
  await expect(page.getByText('Liste boş')).toBeVisible();

  const address = page.getByRole('textbox', { name: 'Adres veya aralık' });
  const add = page.getByRole('button', { name: 'Ekle', exact: true });
  await add.click();
  await expect(page.getByText('Bir adres veya aralık girin')).toBeVisible();
  await address.fill('2001:db8::/32');
  await add.click();
  const warning = page.getByRole('alertdialog');
  await expect(warning).toContainText('Kendi erişiminizi engelleyeceksiniz');
  await expect(warning).toContainText(
    '2001:db8::/32 eklendikten sonra adresiniz 127.0.0.1 IP izin listesinde olmayacak',
  );
  if (shots) await page.screenshot({ path: `${shots}/allowlist-lockout-tr-dark.png` });
  await warning.getByRole('button', { name: 'Vazgeç' }).click();

  await address.fill('127.0.0.1');
  await page.getByRole('textbox', { name: 'Etiket' }).fill('Merkez');
  await add.click();
  const table = page.getByRole('table', { name: 'IP izin listesi' });
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await address.fill('2001:db8::/32');
  await add.click();
  await expect(table.locator('tbody tr')).toHaveCount(2);
  await shoot(page, 'tr', 'IP izin listesi', ['dark', 'light']);

  await table.getByRole('button', { name: 'Sil 2001:db8::/32' }).click();
  await dialog(page, '2001:db8::/32 silinsin mi?').getByRole('button', { name: 'Sil' }).click();
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await table.getByRole('button', { name: 'Sil 127.0.0.1' }).click();
  await dialog(page, '127.0.0.1 silinsin mi?').getByRole('button', { name: 'Sil' }).click();
  await expect(page.getByText('Liste boş')).toBeVisible();
});
