/**
 * The reviewers' desk in the studio, in both languages: two reviewers in two browsers work the queue.
 * The maker (admin@acme.test) takes a High-risk case, and it leaves the checker's (reviewer@acme.test) Unassigned
 * view at once; the maker approves it and it waits as "Awaiting second review"; the checker confirms it and the
 * profile is Approved. Another case is returned with a note, and the maker sees it back without a reload.
 * Screenshots of the list and the case panel in both themes are kept as test artefacts.
 */
import type { APIRequestContext, Browser, Page, TestInfo } from '@playwright/test';
import type { ReviewCase } from '#contract/review';
import { baseURL } from '../../playwright.config';
import { expect, test } from './cspGuard';
import { DEMO, tokenOf } from './support';

const REVIEWER = { email: 'reviewer@acme.test', password: 'User@2026' } as const;
/** Profile statuses an approval may leave (the transition table), none of them reading "Approved" already. */
const APPROVABLE = ['Pending Review', 'Pending Approval', 'Temp. Approval Expired'];

const TEXT = {
  'en-US': {
    email: 'E-mail',
    password: 'Password',
    signIn: 'Sign in',
    nav: 'Main navigation',
    unassigned: 'Unassigned',
    pageSize: 'Cases per page',
    take: 'Take',
    decide: 'Decide',
    awaiting: 'Awaiting second review',
    maker: 'You made this decision',
    confirm: 'Confirm',
    return: 'Return',
    returnNote: 'Why it goes back (10 to 1000 characters)',
    returned: 'Returned by a second reviewer',
    approved: 'Approved',
    confirmed: 'Decision confirmed',
    tooShort: 'The note must be at least 10 characters',
  },
  tr: {
    email: 'E-posta',
    password: 'Şifre',
    signIn: 'Giriş yap',
    nav: 'Ana gezinme',
    unassigned: 'Atanmamış',
    pageSize: 'Sayfa başına vaka',
    take: 'Üstlen',
    decide: 'Karar ver',
    awaiting: 'İkinci inceleme bekliyor',
    maker: 'Bu kararı siz verdiniz',
    confirm: 'Onayla',
    return: 'Geri gönder',
    returnNote: 'Neden geri gidiyor (10 ile 1000 karakter)',
    returned: 'İkinci inceleyici geri gönderdi',
    approved: 'Onaylandı',
    confirmed: 'Karar onaylandı',
    tooShort: 'Not en az 10 karakter olmalı',
  },
} as const;
type Lng = keyof typeof TEXT;

async function browserFor(browser: Browser, lng: Lng, who: { email: string; password: string }) {
  const context = await browser.newContext({ baseURL, locale: lng === 'tr' ? 'tr-TR' : 'en-US' });
  const page = await context.newPage();
  const text = TEXT[lng];
  await page.goto('/login');
  await page.getByLabel(text.email, { exact: true }).fill(who.email);
  await page.getByLabel(text.password, { exact: true }).fill(who.password);
  await page.getByRole('button', { name: text.signIn, exact: true }).click();
  await expect(page.getByRole('navigation', { name: text.nav })).toBeVisible({ timeout: 30_000 });
  return page;
}

/** Two unassigned High-risk cases among the first 100 of the Unassigned view whose profile an approval may change. */
async function highRiskCases(request: APIRequestContext): Promise<[ReviewCase, ReviewCase]> {
  const token = await tokenOf(request, DEMO.admin);
  const response = await request.get('/api/v2/review/cases?view=unassigned&limit=100', {
    headers: { authorization: `Bearer ${token}` },
  });
  const { results } = (await response.json()) as { results: ReviewCase[] };
  const picked = results.filter(
    (c, n, all) =>
      ['High', 'Very High'].includes(c.risk_level) &&
      APPROVABLE.includes(c.profile_status) &&
      c.queue_name !== 'Escalations' &&
      all.findIndex((other) => other.profile === c.profile) === n,
  );
  if (!picked[0] || !picked[1]) throw new Error('the demo has no two approvable High-risk cases left');
  return [picked[0], picked[1]];
}

async function openUnassigned(page: Page, lng: Lng) {
  if (!page.url().endsWith('/review')) await page.goto('/review');
  await page.getByRole('radio', { name: TEXT[lng].unassigned, exact: true }).click();
  await page.getByRole('combobox', { name: TEXT[lng].pageSize }).selectOption('100');
}

async function shoot(page: Page, testInfo: TestInfo, name: string, part: ReturnType<Page['locator']>) {
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((dark) => document.body.classList.toggle('bp6-dark', dark), theme === 'dark');
    const path = testInfo.outputPath(`${name}-${theme}.png`);
    await part.screenshot({ path });
    await testInfo.attach(`${name}-${theme}`, { path, contentType: 'image/png' });
  }
  await page.evaluate(() => document.body.classList.remove('bp6-dark'));
}

for (const lng of ['en-US', 'tr'] as const) {
  test(`two reviewers work the queue under four-eyes (${lng})`, async ({ browser, request }, testInfo) => {
    test.setTimeout(300_000);
    const text = TEXT[lng];
    const [first, second] = await highRiskCases(request);
    const maker = await browserFor(browser, lng, DEMO.admin);
    const checker = await browserFor(browser, lng, REVIEWER);

    // Both see the case unassigned; the maker takes it and it leaves the checker's view without a reload.
    await maker.goto('/review');
    await expect(maker.locator('tbody tr').first()).toBeVisible();
    await shoot(maker, testInfo, `review-list-${lng}`, maker.locator('.studio-page'));
    await openUnassigned(maker, lng);
    await openUnassigned(checker, lng);
    const makerRow = maker.locator(`tr[data-case="${first.id}"]`);
    const checkerRow = checker.locator(`tr[data-case="${first.id}"]`);
    await expect(makerRow).toBeVisible();
    await expect(checkerRow).toBeVisible();
    await makerRow.getByRole('button', { name: new RegExp(`^${text.take}:`) }).click();
    await expect(checkerRow).toHaveCount(0);
    await expect(makerRow).toHaveCount(0);

    // The maker approves the High-risk profile: it waits for a second review.
    await maker.goto(`/profile/${first.profile}`);
    const makerPanel = maker.locator(`article[data-case="${first.id}"]`);
    await makerPanel.getByRole('button', { name: text.decide }).click();
    const decide = maker.getByRole('dialog');
    await decide.getByRole('button', { name: text.decide, exact: true }).click();
    await expect(makerPanel.getByText(text.awaiting).first()).toBeVisible();
    await expect(makerPanel).toContainText(text.maker);
    await expect(makerPanel.getByRole('button', { name: text.confirm, exact: true })).toHaveCount(0);
    await shoot(maker, testInfo, `review-panel-maker-${lng}`, makerPanel);

    // The checker confirms it: the profile is Approved.
    await checker.goto(`/profile/${first.profile}`);
    const checkerPanel = checker.locator(`article[data-case="${first.id}"]`);
    await expect(checkerPanel.getByText(text.awaiting).first()).toBeVisible();
    await shoot(checker, testInfo, `review-panel-checker-${lng}`, checkerPanel);
    await checkerPanel.getByRole('button', { name: text.confirm, exact: true }).click();
    await checker.getByRole('dialog').getByRole('button', { name: text.confirm, exact: true }).click();
    await expect(checker.getByText(text.confirmed)).toBeVisible();
    await expect(checker.locator('.studio-profile-header')).toContainText(text.approved);
    // The decided case leaves the panel; the maker's open copy of the profile follows.
    await expect(checkerPanel).toHaveCount(0);
    await expect(maker.locator('.studio-profile-header')).toContainText(text.approved);

    // Another case: the maker takes and approves it; the checker returns it with a note; the maker sees it back.
    await maker.goto(`/profile/${second.profile}`);
    const secondPanel = maker.locator(`article[data-case="${second.id}"]`);
    await secondPanel.getByRole('button', { name: text.take, exact: true }).click();
    await secondPanel.getByRole('button', { name: text.decide }).click();
    await maker.getByRole('dialog').getByRole('button', { name: text.decide, exact: true }).click();
    await expect(secondPanel.getByText(text.awaiting).first()).toBeVisible();

    await checker.goto(`/profile/${second.profile}`);
    const returning = checker.locator(`article[data-case="${second.id}"]`);
    await returning.getByRole('button', { name: text.return, exact: true }).click();
    const dialog = checker.getByRole('dialog');
    const note = dialog.getByLabel(text.returnNote);
    await note.fill('too short');
    await dialog.getByRole('button', { name: text.return, exact: true }).click();
    await expect(dialog).toContainText(text.tooShort);
    const why =
      lng === 'tr'
        ? 'Belge fotoğrafı okunmuyor, lütfen tekrar bakın'
        : 'The document photo is unreadable, look again';
    await note.fill(why);
    await dialog.getByRole('button', { name: text.return, exact: true }).click();
    await expect(dialog).toHaveCount(0);

    // Live: the maker's panel shows the return and the decision buttons again, without a reload.
    await expect(secondPanel).toContainText(`${text.returned}: ${why}`);
    await expect(secondPanel.getByRole('button', { name: text.decide })).toBeVisible();
    await shoot(maker, testInfo, `review-panel-returned-${lng}`, secondPanel);

    await maker.context().close();
    await checker.context().close();
  });
}
