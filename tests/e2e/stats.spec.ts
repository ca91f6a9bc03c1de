import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { dayOf, lastMonths } from '#contract/statsRange';
import { DEMO, signIn } from './support';

/** The active account's access token, as the studio stored it. */
async function accessToken(page: Page): Promise<string> {
  return page.evaluate(() => {
    const list = JSON.parse(localStorage.getItem('accounts') ?? '[]') as {
      access: string;
      company_id: number;
      server: string;
    }[];
    const active = localStorage.getItem('active-account');
    return (list.find((a) => `${a.company_id}@${a.server}` === active) ?? list[0])?.access ?? '';
  });
}

/** The figure of a totals card (`<dt>` label, `<dd>` value). */
/** A `YYYY-MM-DD` day as the date inputs show it in en-US ("Nov 25, 2026"). */
const shown = (day: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );

const total = (page: Page, label: string) =>
  page
    .locator('.studio-stats-total')
    .filter({ has: page.getByText(label, { exact: true }) })
    .locator('dd');

test('the dashboard opens on the last 6 months and draws its charts from the data', async ({ page }) => {
  await signIn(page);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 2, name: 'Dashboard' })).toBeVisible();
  const { start, end } = lastMonths(dayOf(new Date()));
  // The range is shown as the studio writes dates, not as ISO days. The first range is the statistics'; the
  // reviewers' desk section below has its own.
  await expect(page.getByLabel('From', { exact: true }).first()).toHaveValue(shown(start));
  await expect(page.getByLabel('To', { exact: true }).first()).toHaveValue(shown(end));
  await expect(page.getByText('Monthly periods')).toBeVisible();

  const token = await accessToken(page);
  const answer = await page.request.get('/api/v2/bitool', { headers: { authorization: `Bearer ${token}` } });
  const data = (await answer.json()) as { totals: { profiles: number; calls: number } };
  expect(data.totals.profiles).toBeGreaterThan(0);
  await expect(total(page, 'New profiles')).toHaveText(String(data.totals.profiles));
  await expect(total(page, 'Calls')).toHaveText(String(data.totals.calls));

  for (const chart of ['New profiles by current status', 'Document checks', 'Call outcomes']) {
    const figure = page.getByRole('figure', { name: chart });
    await expect(figure.locator('.recharts-bar-rectangle').first()).toBeVisible();
  }
});

test('detailed call statistics show the figures of a chosen range and export them as CSV', async ({
  page,
}) => {
  await signIn(page);
  await page.goto('/calls?tab=report');
  await expect(page.getByRole('heading', { level: 3, name: 'Detailed call statistics' })).toBeVisible();
  const { start, end } = lastMonths(dayOf(new Date()));
  await page.getByLabel('From', { exact: true }).fill(shown(start));
  await page.getByLabel('To', { exact: true }).fill(shown(end));
  await page.keyboard.press('Enter');

  const token = await accessToken(page);
  const answer = await page.request.get(`/api/v2/videocall/report?start_date=${start}&end_date=${end}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const report = (await answer.json()) as { totals: { calls: number; answered: number } };
  expect(report.totals.calls).toBeGreaterThan(0);
  await expect(total(page, 'Calls')).toHaveText(String(report.totals.calls));
  await expect(total(page, 'Answered')).toHaveText(String(report.totals.answered));
  const byDay = page.getByRole('table', { name: 'Calls by day' });
  await expect(byDay.locator('tfoot td').nth(1)).toHaveText(String(report.totals.calls));
  await expect(
    page.getByRole('figure', { name: 'Calls per day by status' }).locator('.recharts-bar-rectangle').first(),
  ).toBeVisible();

  await page.getByRole('tab', { name: 'By agent' }).click();
  await expect(page.getByRole('table', { name: 'Calls by agent' })).toBeVisible();

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`call-report_${start}_${end}.csv`);
  const csv = readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '');
  const lines = csv.split('\r\n');
  expect(lines[0]).toMatch(/^Group,Date \/ Agent,Calls,Answered,Handled,/);
  expect(lines).toContainEqual(
    expect.stringMatching(new RegExp(`^Total,${start} – ${end},${report.totals.calls},`)),
  );
  expect(lines.filter((line) => line.startsWith('Day,'))).not.toHaveLength(0);
});

test('the landing page shows only the tiles the account may open', async ({ page }) => {
  await signIn(page);
  await page.goto('/reports');
  await expect(page).toHaveURL(/\/landing$/);
  const tiles = page.getByRole('list', { name: 'Reports' });
  for (const name of [
    'Customers',
    'Calls',
    'Detailed call statistics',
    'Dashboard',
    'Admin',
    'Company settings',
  ])
    await expect(tiles.getByRole('group', { name, exact: true })).toBeVisible();
  await expect(tiles.getByRole('group', { name: 'Dashboard', exact: true })).toContainText(
    /\d+ approved, \d+ rejected/,
  );
  await tiles.getByRole('link', { name: 'Open: Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a user with fewer permissions sees fewer tiles; a Restricted User may not open the page', async ({
  page,
}) => {
  // A User has no admin or company permissions. The Restricted User has view_profiles_page and
  // view_settings_page only, and the landing page needs view_reports_page.
  await signIn(page, DEMO.agent);
  await page.goto('/landing');
  const tiles = page.getByRole('list', { name: 'Reports' });
  await expect(tiles.getByRole('group')).toHaveCount(5);
  for (const name of ['Customers', 'Calls', 'Detailed call statistics', 'Dashboard', 'Settings'])
    await expect(tiles.getByRole('group', { name, exact: true })).toBeVisible();
  await expect(tiles.getByRole('group', { name: 'Admin', exact: true })).toHaveCount(0);

  await page.evaluate(() => localStorage.clear());
  await signIn(page, DEMO.viewer);
  await page.goto('/landing');
  await expect(page.getByText('You are not allowed to visit this page.')).toBeVisible();
});
