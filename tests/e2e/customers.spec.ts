import { expect, type Page, test } from '@playwright/test';
import { DAY_MS } from '#contract/time';
import { path, signIn } from './support';

const rows = (page: Page) => page.getByRole('table', { name: 'Customers' }).locator('tbody tr');

test('the customers list pages, filters, searches and sorts on the server, all kept in the URL', async ({
  page,
}) => {
  await signIn(page);
  await expect(rows(page)).toHaveCount(20);
  const range = page.getByRole('navigation', { name: 'Customers' }).getByRole('status');
  await expect(range).toHaveText(/^1–20 of [\d,]+$/);
  const total = Number((await range.textContent())?.split(' of ')[1]?.replace(/,/g, ''));
  expect(total).toBeGreaterThanOrEqual(200);

  await page.getByRole('button', { name: 'Next page' }).click();
  await expect.poll(() => path(page)).toBe('/?page=2');
  await expect(range).toHaveText(`21–40 of ${total.toLocaleString('en-US')}`);

  await page.getByRole('combobox', { name: 'Status' }).selectOption('Rejected');
  await expect.poll(() => path(page)).toBe('/?status=Rejected');
  await expect(rows(page).first()).toBeVisible();
  await expect(async () => {
    for (const tag of await rows(page).locator('td:nth-child(6)').allTextContents())
      expect(tag).toBe('Rejected');
  }).toPass();

  await page.getByRole('button', { name: 'Sort by Name' }).click();
  await expect.poll(() => path(page)).toBe('/?status=Rejected&ordering=name');
  // The database's collation decides the exact order; the first letters must rise. The address changes before
  // the sorted page arrives, so the rows are read until they are the new ones.
  const initialsOf = (list: string[]) => list.map((name) => name.charAt(0));
  const initials = async () => initialsOf(await rows(page).locator('td:nth-child(2)').allTextContents());
  let names: string[] = [];
  await expect(async () => {
    names = await rows(page).locator('td:nth-child(2)').allTextContents();
    expect(initialsOf(names)).toEqual(initialsOf(names).sort());
  }).toPass();
  await page.getByRole('button', { name: 'Sort by Name' }).click();
  await expect.poll(() => path(page)).toBe('/?status=Rejected&ordering=-name');
  await expect(async () => {
    const descending = await initials();
    expect(descending).toEqual([...descending].sort().reverse());
  }).toPass();
  await page.getByRole('button', { name: 'Sort by Name' }).click();
  await expect.poll(() => path(page)).toBe('/?status=Rejected&ordering=name');

  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Status' })).toHaveValue('Rejected');
  await expect(rows(page).locator('td:nth-child(2)')).toHaveText(names);

  const first = names[0] ?? '';
  await page.getByRole('searchbox', { name: 'Search customers' }).fill(first);
  await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe(first);
  await expect(async () => {
    for (const name of await rows(page).locator('td:nth-child(2)').allTextContents())
      expect(name).toContain(first);
  }).toPass();

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect.poll(() => path(page)).toBe('/?ordering=name');
});

test('a search without results says so; a row opens its profile', async ({ page }) => {
  await signIn(page);
  await page.getByRole('searchbox', { name: 'Search customers' }).fill('no such customer zzz');
  await expect(page.getByText('No customers found')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  const link = rows(page).first().getByRole('link');
  const id = await rows(page).first().locator('td').first().textContent();
  await link.click();
  await expect.poll(() => path(page)).toBe(`/profile/${id}`);
});

test('the created-date filter takes dates as the studio writes them, in either language, and keeps days in the URL', async ({
  page,
}) => {
  await signIn(page);
  await expect(rows(page)).toHaveCount(20);
  const from = page.getByLabel('Created from', { exact: true });
  const until = page.getByLabel('Created until', { exact: true });

  await from.fill('Jan 1, 2000');
  await until.click();
  await expect.poll(() => new URL(page.url()).searchParams.get('created_after')).toBe('2000-01-01');
  await expect(from).toHaveValue('Jan 1, 2000');
  await expect(rows(page)).toHaveCount(20);

  // A day before the first ends the list; a date typed halfway changes nothing and goes back on leaving.
  await until.fill('Dec 31, 2000');
  await from.click();
  await expect.poll(() => new URL(page.url()).searchParams.get('created_before')).toBe('2000-12-31');
  await expect(page.getByText('No customers found')).toBeVisible();
  await until.fill('Dec 3');
  await from.click();
  await expect(until).toHaveValue('Dec 31, 2000');
  expect(new URL(page.url()).searchParams.get('created_before')).toBe('2000-12-31');
  await expect(page.getByText('No customers found')).toBeVisible();

  // The same days, read in Turkish after a reload.
  await page.evaluate(() => localStorage.setItem('language', 'tr'));
  await page.reload();
  await expect(page.getByLabel('Oluşturulma başlangıcı', { exact: true })).toHaveValue('1 Oca 2000');
  await expect(page.getByLabel('Oluşturulma bitişi', { exact: true })).toHaveValue('31 Ara 2000');
  await page.getByLabel('Oluşturulma bitişi', { exact: true }).fill('');
  await page.getByLabel('Oluşturulma başlangıcı', { exact: true }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('created_before')).toBeNull();
  await expect(page.getByRole('table', { name: 'Müşteriler' }).locator('tbody tr')).toHaveCount(20);

  // The calendar's shortcuts are the studio's, in Turkish too.
  await page.getByLabel('Oluşturulma başlangıcı', { exact: true }).click();
  await page.getByText('Son 30 gün', { exact: true }).click();
  await expect
    .poll(() => new URL(page.url()).searchParams.get('created_before'))
    .toMatch(/^\d{4}-\d{2}-\d{2}$/);
  const after = new URL(page.url()).searchParams.get('created_after') ?? '';
  const before = new URL(page.url()).searchParams.get('created_before') ?? '';
  expect((Date.parse(before) - Date.parse(after)) / DAY_MS).toBe(29);
});
