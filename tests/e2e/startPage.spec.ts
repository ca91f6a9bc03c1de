/**
 * A reviewer's start page, in both languages: reviewer@acme.test signs in and lands on the
 * reviewers' desk, admin@acme.test on the customers list; the reviewer chooses Customers in /settings and `/`
 * opens the customers list, then chooses the desk again and `/` opens it. A screenshot of the Preferences card
 * in the dark theme is kept as a test artefact.
 */
import type { APIRequestContext, Browser, Page, TestInfo } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { expect, test } from './cspGuard';
import { DEMO, path, signIn, tokenOf } from './support';

const TEXT = {
  'en-US': {
    desk: 'Review desk',
    customers: 'Customers',
    preferences: 'Preferences',
    startPage: 'Start page',
    savedCustomers: 'Start page saved: Customers',
    savedDesk: 'Start page saved: Review desk',
    toDark: 'Switch to the dark theme',
  },
  tr: {
    desk: 'İnceleme masası',
    customers: 'Müşteriler',
    preferences: 'Tercihler',
    startPage: 'Başlangıç sayfası',
    savedCustomers: 'Başlangıç sayfası kaydedildi: Müşteriler',
    savedDesk: 'Başlangıç sayfası kaydedildi: İnceleme masası',
    toDark: 'Koyu temaya geç',
  },
} as const;
type Lng = keyof typeof TEXT;

async function pageIn(browser: Browser, lng: Lng): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: lng === 'tr' ? 'tr-TR' : 'en-US' });
  return context.newPage();
}

/** The seed gives the reviewer the desk; a run that stopped half-way may have left Customers: put it back. */
async function reviewerOpensDesk(request: APIRequestContext) {
  const token = await tokenOf(request, DEMO.reviewer);
  const { user_id } = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
    user_id: number;
  };
  const response = await request.patch(`/api/v2/user/${user_id}`, {
    headers: { authorization: `Bearer ${token}` },
    data: { start_page: 'review' },
  });
  expect(response.status()).toBe(200);
}

const deskHeading = (page: Page, lng: Lng) => page.getByRole('heading', { level: 2, name: TEXT[lng].desk });
const customersHeading = (page: Page, lng: Lng) =>
  page.getByRole('heading', { level: 2, name: TEXT[lng].customers });

async function chooseStartPage(page: Page, lng: Lng, value: 'customers' | 'review', saved: string) {
  await page.goto('/settings');
  const select = page.getByLabel(TEXT[lng].startPage, { exact: true });
  await select.selectOption(value);
  await expect(page.getByText(saved, { exact: true })).toBeVisible();
  await expect(select).toHaveValue(value);
}

async function shootPreferences(page: Page, lng: Lng, testInfo: TestInfo) {
  const card = page.locator('.studio-settings-card', {
    has: page.getByRole('heading', { name: TEXT[lng].preferences, exact: true }),
  });
  await card.getByRole('button', { name: TEXT[lng].toDark }).click();
  await expect(page.locator('body')).toHaveClass(/bp6-dark/);
  const file = testInfo.outputPath(`settings-preferences-${lng}-dark.png`);
  await card.screenshot({ path: file });
  await testInfo.attach(`settings-preferences-${lng}-dark`, { path: file, contentType: 'image/png' });
}

for (const lng of ['en-US', 'tr'] as const) {
  test(`each user's / opens their start page, and a reviewer changes theirs in /settings (${lng})`, async ({
    browser,
    request,
  }, testInfo) => {
    test.setTimeout(120_000);
    await reviewerOpensDesk(request);

    const admin = await pageIn(browser, lng);
    await signIn(admin, DEMO.admin, lng);
    await expect(customersHeading(admin, lng)).toBeVisible();
    expect(path(admin)).toBe('/');
    // The admin may open the desk too (Admins have review_profiles), so the choice is shown, left at Customers.
    await admin.goto('/settings');
    await expect(admin.getByLabel(TEXT[lng].startPage, { exact: true })).toHaveValue('customers');
    await admin.context().close();

    const reviewer = await pageIn(browser, lng);
    await signIn(reviewer, DEMO.reviewer, lng);
    await expect(deskHeading(reviewer, lng)).toBeVisible();
    expect(path(reviewer)).toBe('/review');

    await chooseStartPage(reviewer, lng, 'customers', TEXT[lng].savedCustomers);
    if (lng === 'tr') await shootPreferences(reviewer, lng, testInfo);
    await reviewer.goto('/');
    await expect(customersHeading(reviewer, lng)).toBeVisible();
    expect(path(reviewer)).toBe('/');

    await chooseStartPage(reviewer, lng, 'review', TEXT[lng].savedDesk);
    await reviewer.goto('/');
    await expect(deskHeading(reviewer, lng)).toBeVisible();
    expect(path(reviewer)).toBe('/review');
    // Replaced, not pushed: Back does not return to `/` (which would only send the reviewer on again).
    await reviewer.goBack();
    expect(path(reviewer)).toBe('/settings');
    await reviewer.context().close();
  });
}
