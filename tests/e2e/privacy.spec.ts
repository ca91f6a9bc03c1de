/**
 * A person's data from the studio: an Admin sees "Who viewed this profile" with their own opening of it, saves the
 * export ZIP, and erases the person after typing the profile's number (a wrong number is refused); the profile then
 * says its data was erased. The same screens in Turkish and the dark theme. PRIVACY_SCREENSHOTS=<folder> writes them.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { DEMO, signIn, tokenOf } from './support';

const shots = process.env.PRIVACY_SCREENSHOTS;

async function look(page: Page, lang: 'en-US' | 'tr', theme: 'light' | 'dark') {
  await page.evaluate(
    ({ l, th }) => {
      localStorage.setItem('language', l);
      localStorage.setItem('theme', th);
    },
    { l: lang, th: theme },
  );
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
}

test('an Admin sees who viewed a profile, exports it and erases the person', async ({ page, request }) => {
  test.setTimeout(120_000);
  const token = await tokenOf(request, DEMO.admin);
  const created = await request.post('/api/v2/profile', {
    headers: { authorization: `Bearer ${token}` },
    data: { id_card_number: `PRIVACY-${Date.now()}`, name: 'Pia Privacy' },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };

  await signIn(page, DEMO.admin);
  await page.goto(`/profile/${id}`);
  await expect(page.getByRole('heading', { name: 'Pia Privacy' })).toBeVisible({ timeout: 30_000 });

  // The opening of the profile is written within a second: the tab shows it once it is there.
  await expect(async () => {
    await page.goto(`/profile/${id}?tab=access`);
    await expect(page.getByRole('cell', { name: 'Opened the profile' }).first()).toBeVisible({
      timeout: 3_000,
    });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByRole('cell', { name: DEMO.admin.email }).first()).toBeVisible();
  if (shots) {
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'privacy-access-en-US-light.png') });
    await look(page, 'tr', 'dark');
    await expect(page.getByRole('tab', { name: 'Görüntüleyenler' })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByRole('cell', { name: 'Profili açtı' }).first()).toBeVisible();
    await page.screenshot({ path: join(shots, 'privacy-access-tr-dark.png') });
    await look(page, 'en-US', 'light');
  }

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export personal data' }).click();
  expect((await download).suggestedFilename()).toBe(`profile-${id}-export.zip`);

  await page.getByRole('button', { name: 'Erase this person' }).click();
  const dialog = page.getByRole('dialog', { name: 'Erase this person' });
  await dialog.getByLabel(`Type the profile number ${id} to confirm`).fill('1');
  await dialog.getByLabel('Reason').fill('The customer asked by e-mail on 2026-12-01');
  await dialog.getByRole('button', { name: 'Erase' }).click();
  await expect(page.getByText(`Type the profile number ${id} to confirm the erasure.`)).toBeVisible();
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(`Type the profile number ${id} to confirm`).fill(String(id));
  if (shots) await page.screenshot({ path: join(shots, 'privacy-erase-dialog-en-US-light.png') });
  await dialog.getByRole('button', { name: 'Erase' }).click();
  await expect(dialog).toBeHidden();
  // A new profile holds no evidence under retention: it is erased at once.
  await expect(page.getByText('Personal data erased')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Pia Privacy' })).toBeHidden();
  if (shots) {
    await look(page, 'tr', 'dark');
    await expect(page.getByText('Kişisel veriler silindi')).toBeVisible({ timeout: 30_000 });
    await page.screenshot({ path: join(shots, 'privacy-erased-tr-dark.png') });
  }
});

test("an Admin sees the company's reads of personal data beside the audit log", async ({ page, request }) => {
  test.setTimeout(120_000);
  const token = await tokenOf(request, DEMO.admin);
  const created = await request.post('/api/v2/profile', {
    headers: { authorization: `Bearer ${token}` },
    data: { id_card_number: `ACCESS-${Date.now()}`, name: 'Ada Access' },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  // Opening the profile through the API is a read like the studio's.
  const opened = await request.get(`/api/v2/profile/${id}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(opened.status()).toBe(200);

  await signIn(page, DEMO.admin);
  await page.goto('/admin?tab=audit');
  await page.getByRole('radio', { name: 'Data access' }).click();
  await expect(page).toHaveURL(/log=access/);
  const profileFilter = page.getByRole('textbox', { name: 'Profile number' });
  await profileFilter.fill(String(id));
  await profileFilter.press('Enter');
  await expect(page).toHaveURL(new RegExp(`profile=${id}`));
  // Reads are written within a second: the list shows this one once it is there.
  const table = page.getByRole('table', { name: 'Reads of personal data' });
  await expect(async () => {
    await page.reload();
    await expect(table.getByRole('link', { name: `#${id}` }).first()).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await expect(table.getByRole('cell', { name: 'Opened the profile' }).first()).toBeVisible();
  await expect(table.getByRole('cell', { name: DEMO.admin.email }).first()).toBeVisible();
  await expect(page.getByText('Page 1')).toBeVisible();
  if (shots) await page.screenshot({ path: join(shots, 'privacy-data-access-en-US-light.png') });

  await page.getByRole('radio', { name: 'Changes' }).click();
  await expect(page).not.toHaveURL(/log=access/);
  await expect(page.getByRole('table', { name: 'Audit log' })).toBeVisible();
});
