import { expect, type Page, test } from '@playwright/test';
import { DEMO, signIn } from './support';

/** The demo profile whose name is on the AML sample watchlist (server/db/seed/demo.ts DEMO_LISTED_NAMES). */
const LISTED = 'Serhat Gençoğlu';

async function openListedProfile(page: Page) {
  await page.goto(`/customers?search=${encodeURIComponent(LISTED)}`);
  await page.getByRole('link', { name: LISTED }).first().click();
  await expect(page.getByRole('heading', { level: 2, name: LISTED })).toBeVisible();
  await page.getByRole('tab', { name: 'AML & Adverse Media' }).click();
  await expect(page.getByRole('heading', { name: 'AML & Adverse Media', level: 4 })).toBeVisible();
}

test('an AML check finds the listed name; approving records who and when; history and record detail explain it', async ({
  page,
}) => {
  await signIn(page, DEMO.agent);
  await openListedProfile(page);

  await page.getByRole('button', { name: 'Run check', exact: true }).click();
  await expect(page.getByText('AML check finished: 1 match', { exact: true })).toBeVisible();
  const summary = page.getByRole('definition').filter({ hasText: 'Hit' }).first();
  await expect(summary).toBeVisible();
  const record = page.getByRole('group', { name: 'Match: GENCOGLU, Serhat' });
  await expect(record).toContainText('OFAC SDN');
  await expect(record).toContainText('Score 100');
  await expect(record.getByText('Name', { exact: true })).toBeVisible();
  await expect(record.getByText('Nationality', { exact: true })).toBeVisible();
  await expect(page.getByText('Waiting for approval')).toBeVisible();

  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Approve the AML result?');
  await confirm.getByRole('button', { name: 'Approve', exact: true }).click();
  await expect(page.getByText('AML result approved', { exact: true })).toBeVisible();
  await expect(confirm).toBeHidden();
  const approvedBy = page.locator('.studio-field', { hasText: 'Approved by' });
  await expect(approvedBy).toContainText('Umut Agent');
  const approvedOn = page.locator('.studio-field', { hasText: 'Approved on' });
  await expect(approvedOn.locator('dd')).toHaveText(/\d{4}/);
  await expect(
    page
      .getByRole('tabpanel', { name: 'AML & Adverse Media' })
      .getByRole('button', { name: 'Approve', exact: true }),
  ).toBeDisabled();
  await expect(page.getByRole('list', { name: 'Logs' })).toContainText('AML result approved');

  await page.getByRole('link', { name: 'AML history' }).first().click();
  await expect(page.getByRole('heading', { level: 2, name: 'AML history' })).toBeVisible();
  const history = page.getByRole('table', { name: 'AML checks of this customer' });
  const newest = history.getByRole('row').nth(1);
  await expect(newest).toContainText('Local AML lists');
  await expect(newest).toContainText('Hit');
  await expect(newest).toContainText('Sample watchlist');
  await newest.getByRole('link', { name: /^Open record/ }).click();

  await expect(page.getByRole('heading', { level: 2, name: 'AML record' })).toBeVisible();
  const detail = page.getByRole('group', { name: 'Match: GENCOGLU, Serhat' });
  await expect(detail.getByRole('table', { name: 'How the score was built' })).toContainText(
    'A listed nationality matches',
  );
  await expect(detail.getByRole('table', { name: 'Name parts compared' })).toContainText('gencoglu');
  await page.getByRole('link', { name: 'Back to the AML history' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'AML history' })).toBeVisible();
});

test('a Restricted User sees that they may not update AML', async ({ page }) => {
  await signIn(page, DEMO.viewer);
  await openListedProfile(page);
  const panel = page.getByRole('tabpanel', { name: 'AML & Adverse Media' });
  await panel.getByRole('button', { name: 'Run check', exact: true }).click();
  await expect(
    panel.getByRole('alert').filter({ hasText: "You don't have permission to update AML" }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Dismiss', exact: true }).click();
  await expect(
    panel.getByRole('alert').filter({ hasText: "You don't have permission to update AML" }),
  ).toBeHidden();
});
