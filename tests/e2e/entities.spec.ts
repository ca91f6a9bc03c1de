import { expect, type Page, test } from '@playwright/test';
import { path, signIn } from './support';

const rows = (page: Page, name: string) => page.getByRole('table', { name }).locator('tbody tr');

/** Requests to the API while the entity area is open (it runs on sample data and makes none). */
function apiCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    // The shell's own reads (its socket token, the company's payment status for the unpaid banner) are the
    // shell's, not the entity area's.
    const shell =
      url.pathname === '/api/v2/user/socket_token' || /^\/api\/v2\/company\/\d+$/.test(url.pathname);
    if (url.pathname.startsWith('/api/') && !shell) calls.push(url.pathname);
  });
  return calls;
}

test('entities: filter in the URL, open one, walk the six tabs, open a document, change the status locally', async ({
  page,
}) => {
  await signIn(page);
  await page.getByRole('link', { name: 'Entities' }).click();
  const calls = apiCalls(page);
  await expect(page.getByRole('heading', { name: 'Entities' })).toBeVisible();
  await expect(rows(page, 'Business entities')).toHaveCount(13);

  await page.getByRole('combobox', { name: 'Status' }).selectOption('Risk');
  await expect.poll(() => path(page)).toBe('/entities?status=Risk');
  await expect(rows(page, 'Business entities')).toHaveCount(3);
  await page.getByRole('combobox', { name: 'Country' }).selectOption('ES');
  await expect.poll(() => path(page)).toBe('/entities?status=Risk&country=ES');
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Country' })).toHaveValue('ES');
  await expect(rows(page, 'Business entities')).toHaveCount(1);
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await page.getByRole('combobox', { name: 'Legal form' }).selectOption('jointStock');
  await page.getByRole('combobox', { name: 'Risk level' }).selectOption('Normal');
  await expect.poll(() => path(page)).toBe('/entities?risk=Normal&type=jointStock');
  await expect(rows(page, 'Business entities').locator('td:first-child')).toHaveText([
    'Lumière Conseil S.A.S.',
    'Kapadokya Turizm Otelcilik A.Ş.',
  ]);
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await page.getByRole('searchbox', { name: 'Search entities' }).fill('costa azul');
  await expect(rows(page, 'Business entities')).toHaveCount(1);
  await page.getByRole('link', { name: 'Costa Azul Inversiones S.L.' }).click();
  await expect.poll(() => path(page)).toBe('/entity/8');

  // Status (default): the header, the checks, a change kept for this tab only.
  await expect(page.getByRole('heading', { name: 'Costa Azul Inversiones S.L.' })).toBeVisible();
  // Blueprint's tab list carries no name of its own; the entity screen has one tab list.
  const tabs = page.getByRole('tablist');
  await expect(tabs.getByRole('tab')).toHaveText([
    'Status',
    'AI Agent',
    'Documents',
    'Entity Details',
    'Employees',
    'Questionnaire',
  ]);
  await expect(tabs.getByRole('tab', { name: 'Status' })).toHaveAttribute('aria-selected', 'true');
  const checks = page.getByRole('table', { name: 'Verification checks' });
  await expect(checks.getByRole('row', { name: /Adverse media/ })).toContainText('Failed');
  await expect(checks.getByRole('row', { name: /UBO threshold/ })).toContainText(
    '2 persons above the threshold',
  );
  await expect(page.getByText(/kept in this browser tab only/)).toBeVisible();
  await page.getByRole('combobox', { name: 'Status' }).selectOption('Clear');
  await expect(page.locator('header').getByText('Clear', { exact: true })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'the sample data says Risk' })).toBeVisible();
  await page.getByRole('button', { name: 'Back to the sample values' }).click();
  await expect(page.locator('header').getByText('Risk', { exact: true })).toBeVisible();

  await tabs.getByRole('tab', { name: 'AI Agent' }).click();
  // wouter's nested search update keeps the nested root's slash (/entity/8/?tab=…), as on the profile.
  await expect.poll(() => path(page)).toMatch(/^\/entity\/8\/?\?tab=aiAgent$/);
  await expect(page.getByText(/drawn up by fixed rules/)).toBeVisible();
  const drivers = page.getByRole('list', { name: 'Risk drivers, most serious first' }).getByRole('listitem');
  await expect(drivers.first()).toContainText('Adverse media: Regional press');

  await tabs.getByRole('tab', { name: 'Entity Details' }).click();
  await expect(page.getByText('Registro Mercantil de Málaga')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Intermediate companies' })).toContainText(
    'Inversiones Ibéricas del Sur S.A.',
  );

  await tabs.getByRole('tab', { name: 'Employees' }).click();
  const people = rows(page, 'Individuals');
  await expect(people).toHaveCount(2);
  await expect(people.first()).toContainText('Javier Morales Ruiz');
  await expect(people.first()).toContainText('UBO');
  await expect(people.first()).toContainText('through 1 company layer');
  const chart = page.getByRole('list', { name: 'Ownership chart' });
  await expect(chart.getByText('holds 52% · effective 52%')).toBeVisible();
  await expect(chart.getByText('holds 50% · effective 26%')).toHaveCount(2);
  // A threshold of 50 %: 50 % is not above it, so no one is a UBO.
  await page.getByRole('spinbutton', { name: 'UBO threshold' }).fill('50');
  await expect.poll(() => path(page)).toMatch(/^\/entity\/8\/?\?tab=employees&threshold=50$/);
  await expect(people.first()).not.toContainText('UBO');

  await tabs.getByRole('tab', { name: 'Questionnaire' }).click();
  const questions = rows(page, 'Questionnaire');
  await expect(questions).toHaveCount(10);
  await expect(questions.locator('td:first-child')).toHaveText([
    '1',
    '2',
    '3',
    '4',
    '5',
    '6',
    '7',
    '8',
    '9',
    '10',
  ]);
  await expect(questions.nth(4).locator('td').nth(1)).toHaveText('Is the business cash-intensive?');
  await expect(questions.nth(4).locator('td').nth(2)).toHaveText('Yes');

  await tabs.getByRole('tab', { name: 'Documents' }).click();
  await page.getByRole('button', { name: 'Open Proof of address' }).click();
  const viewer = page.getByRole('dialog', { name: /Proof of address/ });
  await expect(viewer).toBeVisible();
  await expect(viewer.getByRole('img', { name: 'Proof of address' })).toHaveJSProperty('complete', true);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('dialog', { name: /Certificate of incorporation/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.getByRole('link', { name: 'Open the documents page' }).click();
  await expect.poll(() => path(page)).toBe('/entity/8/documents');
  await expect(page.getByRole('list', { name: 'Documents' }).getByRole('listitem')).toHaveCount(4);
  expect(calls).toEqual([]);
});

test.describe('in Turkish, dark theme', () => {
  test.use({ locale: 'tr-TR', colorScheme: 'dark' });

  test('varlıklar: filtrele, aç, altı sekmeyi gez, bir belgeyi görüntüleyicide aç', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('E-posta').fill('admin@acme.test');
    await page.getByLabel('Şifre').fill('Admin@2026');
    await page.getByRole('button', { name: 'Giriş yap' }).click();
    await expect(page.getByRole('heading', { name: 'Müşteriler' })).toBeVisible();
    await page.goto('/entities');
    const calls = apiCalls(page);
    await page.getByRole('combobox', { name: 'Ülke' }).selectOption('TR');
    await page.getByRole('combobox', { name: 'Durum' }).selectOption('Created');
    await expect.poll(() => path(page)).toBe('/entities?status=Created&country=TR');
    await expect(rows(page, 'Tüzel kişiler')).toHaveCount(3);
    await page.getByRole('link', { name: 'Boğaziçi Lojistik Limited Şirketi' }).click();

    await expect(page.getByRole('heading', { name: 'Boğaziçi Lojistik Limited Şirketi' })).toBeVisible();
    const tabs = page.getByRole('tablist');
    await expect(page.getByRole('table', { name: 'Doğrulama kontrolleri' })).toContainText('Bekliyor');
    await tabs.getByRole('tab', { name: 'Yapay Zekâ Asistanı' }).click();
    await expect(page.getByText(/sabit kurallarla/)).toBeVisible();
    await tabs.getByRole('tab', { name: 'Şirket Bilgileri' }).click();
    await expect(page.getByText('Marmara Holding A.Ş.')).toBeVisible();
    await tabs.getByRole('tab', { name: 'Çalışanlar' }).click();
    await expect(
      page.getByRole('list', { name: 'Ortaklık şeması' }).getByText('pay %60 · etkin %42'),
    ).toBeVisible();
    await tabs.getByRole('tab', { name: 'Anket' }).click();
    await expect(rows(page, 'Anket')).toHaveCount(10);
    await tabs.getByRole('tab', { name: 'Belgeler' }).click();
    await page.getByRole('button', { name: 'Pay defteri belgesini aç' }).click();
    await expect(page.getByRole('dialog', { name: /Pay defteri/ })).toBeVisible();
    await page.keyboard.press('q');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await tabs.getByRole('tab', { name: 'Durum' }).click();
    await expect(tabs.getByRole('tab', { name: 'Durum' })).toHaveAttribute('aria-selected', 'true');
    expect(calls).toEqual([]);
  });
});
