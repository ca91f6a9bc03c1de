import type { Page } from '@playwright/test';
import { expect, test } from './cspGuard';
import { DEMO } from './support';

/**
 * Plan and payment in both languages: buy a package through the payment service's checkout
 * with the declined test card, try again from the return page, pay with the succeeding card, and find
 * both sessions in the history. The plan changes only through the payment service's signed notification.
 */
const shots = process.env.PAYMENT_SCREENSHOTS;

const LANGUAGES = [
  {
    locale: 'en-US',
    login: { email: 'E-mail', password: 'Password', submit: 'Sign in', landing: 'Customers' },
    tab: 'Plan and payment',
    currentPlan: 'Current plan',
    history: 'Payment history',
    package: 'Starter',
    buy: 'Buy Starter',
    confirm: 'Replace my plan: go to checkout',
    card: 'Card number',
    expiry: 'Expiry date (MM/YY)',
    cvc: 'Security code (CVC)',
    name: 'Name on card',
    pay: /^Pay /,
    declined: 'Payment declined',
    tryAgain: 'Try again',
    paid: 'Payment successful',
    back: 'Back to plan and payment',
    statusPaid: 'Paid',
    statusDeclined: 'Declined',
    receipt: /^Receipt R-/,
    dark: 'Switch to the dark theme',
    light: 'Switch to the light theme',
  },
  {
    locale: 'tr-TR',
    login: { email: 'E-posta', password: 'Şifre', submit: 'Giriş yap', landing: 'Müşteriler' },
    tab: 'Plan ve ödeme',
    currentPlan: 'Mevcut plan',
    history: 'Ödeme geçmişi',
    package: 'Growth',
    buy: 'Growth satın al',
    confirm: 'Planımı değiştir: ödeme sayfasına git',
    card: 'Kart numarası',
    expiry: 'Son kullanma tarihi (AA/YY)',
    cvc: 'Güvenlik kodu (CVC)',
    name: 'Kart üzerindeki ad',
    pay: / öde$/,
    declined: 'Ödeme reddedildi',
    tryAgain: 'Yeniden dene',
    paid: 'Ödeme başarılı',
    back: 'Plan ve ödemeye dön',
    statusPaid: 'Ödendi',
    statusDeclined: 'Reddedildi',
    receipt: /^Makbuz R-/,
    dark: 'Koyu temaya geç',
    light: 'Açık temaya geç',
  },
] as const;

type Texts = (typeof LANGUAGES)[number];

async function payWith(page: Page, x: Texts, card: string) {
  await expect(page).toHaveURL(/\/checkout\/cs_test_/, { timeout: 15_000 });
  await page.getByLabel(x.card).fill(card);
  await page.getByLabel(x.expiry).fill('12/34');
  await page.getByLabel(x.cvc).fill('123');
  await page.getByLabel(x.name).fill('Ada Lovelace');
  await page.getByRole('button', { name: x.pay }).click();
}

async function shoot(page: Page, x: Texts, name: string) {
  if (!shots) return;
  const lang = x.locale.slice(0, 2);
  await page.screenshot({ path: `${shots}/${name}-${lang}-light.png`, fullPage: true });
  const isStudio = !page.url().includes('/checkout/');
  if (isStudio) await page.getByRole('button', { name: x.dark }).click();
  else await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `${shots}/${name}-${lang}-dark.png`, fullPage: true });
  if (isStudio) await page.getByRole('button', { name: x.light }).click();
  else await page.emulateMedia({ colorScheme: 'light' });
}

for (const x of LANGUAGES) {
  test.describe(x.locale, () => {
    test.use({ locale: x.locale });

    test(`buys ${x.package}: declined card, try again, paid (${x.locale})`, async ({ page }) => {
      await page.goto('/login');
      await page.getByLabel(x.login.email, { exact: true }).fill(DEMO.admin.email);
      await page.getByLabel(x.login.password, { exact: true }).fill(DEMO.admin.password);
      await page.getByRole('button', { name: x.login.submit, exact: true }).click();
      await expect(page.getByRole('heading', { name: x.login.landing })).toBeVisible();

      await page.goto('/company-settings');
      await page.getByRole('tab', { name: x.tab }).click();
      await expect(page.getByRole('heading', { name: x.currentPlan, exact: true })).toBeVisible();
      await expect(page.getByTestId('current-plan')).toBeVisible();
      const history = page.getByRole('table', { name: x.history });
      await expect(history.locator('tbody tr').first()).toBeVisible();
      const rowsBefore = await history.locator('tbody tr').count();
      await shoot(page, x, 'plan-tab');

      // Declined card: the return page says so and offers another try.
      await page.getByRole('button', { name: x.buy }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: x.confirm }).click();
      await expect(page.locator('html')).toHaveAttribute('lang', x.locale.slice(0, 2));
      await shoot(page, x, 'checkout');
      const firstCheckout = page.url();
      await payWith(page, x, '4000 0000 0000 0002');
      await expect(page).toHaveURL(/\/return\?session_id=cs_test_/);
      await expect(page.getByRole('heading', { name: x.declined })).toBeVisible({ timeout: 15_000 });
      await shoot(page, x, 'return-declined');

      // Try again: a new checkout session; the succeeding card pays it.
      await page.getByRole('button', { name: x.tryAgain }).click();
      await expect(page).toHaveURL(/\/checkout\/cs_test_/, { timeout: 15_000 });
      expect(page.url()).not.toBe(firstCheckout);
      await payWith(page, x, '4242 4242 4242 4242');
      await expect(page.getByRole('heading', { name: x.paid })).toBeVisible({ timeout: 15_000 });
      await expect(page.getByRole('link', { name: x.receipt })).toBeVisible();
      await shoot(page, x, 'return-paid');

      // Back on the tab: the new plan, and both sessions in the history, newest first.
      await page.getByRole('button', { name: x.back }).click();
      await expect(page.getByRole('tab', { name: x.tab })).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByTestId('current-plan')).toContainText(x.package);
      await expect(history.locator('tbody tr')).toHaveCount(rowsBefore + 2);
      await expect(history.locator('tbody tr').nth(0)).toContainText(x.statusPaid);
      await expect(history.locator('tbody tr').nth(0).getByRole('link', { name: x.receipt })).toBeVisible();
      await expect(history.locator('tbody tr').nth(1)).toContainText(x.statusDeclined);
    });
  });
}
