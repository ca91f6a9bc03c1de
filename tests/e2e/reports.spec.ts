import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { signIn } from './support';

/** Every page's text of a PDF file, read with pdf.js. */
async function pdfText(bytes: Uint8Array): Promise<{ pages: number; text: string }> {
  // pdf.js takes the buffer over (it is detached): it reads a copy.
  const task = getDocument({ data: bytes.slice(), useSystemFonts: false });
  const pdf = await task.promise;
  const texts: string[] = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const content = await (await pdf.getPage(i)).getTextContent();
    texts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await task.destroy();
  return { pages: pdf.numPages, text: texts.join('\n') };
}

/** Clicks "Download PDF" and returns the saved file's name and bytes. */
async function downloadPdf(page: Page): Promise<{ name: string; bytes: Uint8Array }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download PDF' }).click(),
  ]);
  const file = await download.path();
  return { name: download.suggestedFilename(), bytes: new Uint8Array(await readFile(file)) };
}

test('both reports of a profile open from its header and download as PDFs with the name', async ({
  page,
}) => {
  await signIn(page);
  // Approved profiles of the demo data have documents with page images.
  await page.goto('/?status=Approved');
  const row = page.getByRole('table', { name: 'Customers' }).locator('tbody tr').first();
  const name = ((await row.locator('td').nth(1).textContent()) ?? '').trim();
  expect(name).not.toBe('');
  await row.getByRole('link').click();
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
  const id = /\/profile\/(\d+)/.exec(page.url())?.[1];
  expect(id).toBeTruthy();

  await page.getByRole('link', { name: 'Basic PDF' }).click();
  await expect(page).toHaveURL(new RegExp(`/pdf-basic/${id}$`));
  await expect(page.getByRole('heading', { level: 2, name: 'Profile report' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText(name);
  await expect(page.getByRole('heading', { level: 3, name: 'Identity' })).toBeVisible();
  const basic = await downloadPdf(page);
  expect(basic.name).toBe(`profile-${id}-basic.pdf`);
  expect(new TextDecoder().decode(basic.bytes.subarray(0, 5))).toBe('%PDF-');
  const basicText = await pdfText(basic.bytes);
  expect(basicText.text).toContain(name);
  expect(basicText.text).toContain('Profile report');
  expect(basicText.text).toContain(`Page 1 of ${basicText.pages}`);

  await page.getByRole('link', { name: 'Back to the profile' }).click();
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
  await page.getByRole('link', { name: 'Expanded PDF' }).click();
  await expect(page).toHaveURL(new RegExp(`/pdf-expand/${id}$`));
  await expect(page.getByRole('heading', { level: 2, name: 'Expanded profile report' })).toBeVisible();
  for (const heading of ['Documents', 'AML screening', 'Video calls', 'Notes']) {
    await expect(page.getByRole('heading', { level: 3, name: heading })).toBeVisible();
  }
  const expanded = await downloadPdf(page);
  expect(expanded.name).toBe(`profile-${id}-expanded.pdf`);
  expect(new TextDecoder().decode(expanded.bytes.subarray(0, 5))).toBe('%PDF-');
  const expandedText = await pdfText(expanded.bytes);
  expect(expandedText.text).toContain(name);
  expect(expandedText.text).toContain('Expanded profile report');
  expect(expandedText.text).toContain(`Page ${expandedText.pages} of ${expandedText.pages}`);
  // The document pages are embedded as images.
  expect(new TextDecoder('latin1').decode(expanded.bytes)).toMatch(/\/Subtype \/Image/);
});

test('the report screen speaks Turkish and shows the server detail for a missing profile', async ({
  page,
}) => {
  await signIn(page);
  await page.evaluate(() => localStorage.setItem('language', 'tr'));
  await page.goto('/customers');
  const row = page.getByRole('table').locator('tbody tr').first();
  const href = await row.getByRole('link').getAttribute('href');
  const id = /\/profile\/(\d+)/.exec(href ?? '')?.[1];
  expect(id).toBeTruthy();

  await page.goto(`/pdf-expand/${id}`);
  await expect(page.getByRole('heading', { level: 2, name: 'Genişletilmiş profil raporu' })).toBeVisible();
  for (const heading of [
    'Kimlik',
    'Durum ve risk',
    'Belgeler',
    'AML taraması',
    'Görüntülü görüşmeler',
    'Notlar',
  ]) {
    await expect(page.getByRole('heading', { level: 3, name: heading })).toBeVisible();
  }
  await expect(page.getByRole('button', { name: 'PDF indir' })).toBeVisible();

  await page.goto('/pdf-basic/999999');
  await expect(page.getByRole('alert')).toContainText('Rapor yüklenemedi');
  await expect(page.getByRole('alert')).toContainText('Not found.');
});
