/**
 * Self-service account creation, end to end: e-mail and password, the code read from the mail
 * outbox (a wrong one first), a plan, the company profile, a reload in the middle, the hosted checkout with
 * the test cards (declined, then paid), the first steps, and the new admin inviting a colleague.
 * SIGNUP_SCREENSHOTS=<folder> also photographs every step in both languages and both themes.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './cspGuard';

const shots = process.env.SIGNUP_SCREENSHOTS;
const PASSWORD = 'Founder#2026';
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

// A whole sign-up with a checkout round trip on a loaded 2-core machine.
test.describe.configure({ timeout: shots ? 240_000 : 60_000 });

/** The code of the newest e-mail to an address in the server's dev-only outbox ('' when none). */
async function newestCode(request: APIRequestContext, to: string): Promise<string> {
  const answer = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
  const messages = (await answer.json()) as { body?: string }[];
  return /\b(\d{6})\b/.exec(messages[0]?.body ?? '')?.[1] ?? '';
}

/** Waits for a (new) 6-digit code mailed to an address. */
async function mailedCode(request: APIRequestContext, to: string, not = ''): Promise<string> {
  let code = '';
  await expect
    .poll(async () => {
      code = await newestCode(request, to);
      return code !== '' && code !== not;
    })
    .toBe(true);
  return code;
}

/** Photographs the current step in both languages and both themes (the flow survives the reloads). */
async function photograph(page: Page, step: string) {
  if (!shots) return;
  const original = await page.evaluate(() => [
    localStorage.getItem('language'),
    localStorage.getItem('theme'),
  ]);
  for (const language of ['en-US', 'tr']) {
    for (const theme of ['light', 'dark']) {
      await page.evaluate(
        ([l, t]) => {
          localStorage.setItem('language', l as string);
          localStorage.setItem('theme', t as string);
        },
        [language, theme],
      );
      await page.reload();
      await expect(page.locator('.studio-signup-step')).toBeVisible();
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: `${shots}/signup-${step}-${language}-${theme}.png`, fullPage: true });
    }
  }
  await page.evaluate(([l, t]) => {
    if (l) localStorage.setItem('language', l);
    else localStorage.removeItem('language');
    if (t) localStorage.setItem('theme', t);
    else localStorage.removeItem('theme');
  }, original);
  await page.reload();
}

test('a sign-up in English: wrong code then the right one, a reload mid-flow, paid; the new admin invites a user', async ({
  page,
  request,
}) => {
  const email = `founder-${unique()}@newco.test`;
  await page.goto('/login');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL(/\/create-account$/);
  await expect(page.getByText('Step 1 of 6: Your e-mail')).toBeVisible();
  await photograph(page, '1-account');

  // The password rule: inline rules and the strength as the password is typed.
  await page.getByLabel('Work e-mail', { exact: true }).fill(email);
  const password = page.getByLabel('Password', { exact: true });
  await password.fill('weak');
  await expect(page.getByText('Strength: Weak')).toBeVisible();
  await page.getByRole('button', { name: 'Send the code' }).click();
  await expect(
    page.getByText(
      'The password needs 8 or more characters with an upper-case letter, a lower-case letter and a symbol.',
    ),
  ).toBeVisible();
  await expect(page.getByText('This field can not be empty.')).toBeVisible();
  await password.fill('Founder2026');
  await expect(page.getByText('Strength: Weak')).toBeVisible();
  await password.fill(PASSWORD);
  await expect(page.getByText('Strength: Good')).toBeVisible();
  await page.getByLabel('Repeat the password', { exact: true }).fill('Founder#2025');
  await page.getByRole('button', { name: 'Send the code' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel('Repeat the password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Send the code' }).click();

  await expect(page.getByText('Step 2 of 6: Verification code')).toBeVisible();
  await expect(page.getByText(`We sent a 6-digit code to ${email}.`)).toBeVisible();
  await expect(page.getByRole('timer')).toContainText(/You can ask for a new code in \d+ seconds?\./);
  const code = await mailedCode(request, email);
  await photograph(page, '2-code');
  await page.getByLabel('Verification code', { exact: true }).fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'The code is not valid or has expired. Check it, or ask for a new code.',
  );
  await page.getByLabel('Verification code', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();

  await expect(page.getByText('Step 3 of 6: Plan')).toBeVisible();
  const plans = page.getByRole('listitem');
  await expect(plans.filter({ hasText: 'Starter' })).toContainText('€250.00 per 30 days');
  // Counts are written as everywhere else (2,000), with the period the plan really has (30 days).
  await expect(plans.filter({ hasText: 'Growth' }).first()).toContainText('2,000 verifications');
  await expect(plans.filter({ hasText: 'Enterprise' })).toContainText(
    'From 1,000 verifications we agree a custom price',
  );
  await expect(page.getByText(/a month/)).toHaveCount(0);
  await photograph(page, '3-package');
  // The payment service's industries are held unanswered: the reload comes while the step still loads.
  const industries = /\/industry\?/;
  await page.route(industries, () => {});
  await page.getByRole('button', { name: 'Choose Growth' }).click();

  await expect(page.getByText('Step 4 of 6: Company profile')).toBeVisible();
  // A reload in the middle keeps the step, even one before its options came.
  await page.unroute(industries);
  await page.reload();
  await expect(page.getByText('Step 4 of 6: Company profile')).toBeVisible();
  await expect(page.getByLabel('Company name', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByText('Step 3 of 6: Plan')).toBeVisible();
  await page.getByRole('button', { name: 'Choose Starter' }).click();
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.getByText('This field can not be empty.').first()).toBeVisible();
  // The lists ask to choose, not to fill in.
  await expect(page.getByText('Choose an industry.')).toBeVisible();
  await expect(page.getByText('Choose a country.')).toBeVisible();
  await photograph(page, '4-profile');
  await page.getByLabel('Company name', { exact: true }).fill('Newco Payments');
  await page.getByLabel('First name', { exact: true }).fill('Nora');
  await page.getByLabel('Last name', { exact: true }).fill('Founder');
  await page.getByLabel('Phone', { exact: true }).fill('+90 555 123 45 67');
  await page.getByLabel('Industry', { exact: true }).selectOption({ label: 'Payments and e-money' });
  await page.getByLabel('Country', { exact: true }).selectOption('TR');
  await page.getByRole('button', { name: 'Continue to payment' }).click();

  await expect(page.getByText('Step 5 of 6: Payment')).toBeVisible();
  await expect(page.getByText('Starter: €250.00 per 30 days')).toBeVisible();
  await photograph(page, '5-payment');
  await payAtCheckout(page, 'succeeds');

  await expect(page.getByText('Step 6 of 6: First steps')).toBeVisible();
  await expect(page.getByText('Your company Newco Payments is ready')).toBeVisible();
  await photograph(page, '6-done');
  await page.getByRole('button', { name: /Invite a colleague/ }).click();
  await expect(page).toHaveURL(/\/admin\?tab=users$/);
  const colleague = `colleague-${unique()}@newco.test`;
  await page.getByRole('button', { name: 'Add user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  await dialog.getByLabel('First name', { exact: true }).fill('Cole');
  await dialog.getByLabel('Last name', { exact: true }).fill('League');
  await dialog.getByLabel('E-mail (username)', { exact: true }).fill(colleague);
  await dialog.getByRole('button', { name: 'Add and invite' }).click();
  const prompt = page.getByRole('dialog', { name: 'Confirm with your password' });
  await prompt.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await prompt.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('User successfully created')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: colleague })).toBeVisible();
  // The flow is over: /create-account is a public page again, and the signed-in admin is sent to the studio.
  await page.goto('/create-account');
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
});

test('an address that already has an account: only after the code, sign-in and password reset are offered', async ({
  page,
  request,
}) => {
  const email = 'viewer@acme.test';
  const before = await newestCode(request, email);
  await page.goto('/create-account');
  await page.getByLabel('Work e-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Repeat the password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Send the code' }).click();
  // Exactly as for a new address: a code was sent.
  await expect(page.getByText(`We sent a 6-digit code to ${email}.`)).toBeVisible();
  await page.getByLabel('Verification code', { exact: true }).fill(await mailedCode(request, email, before));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('This address already has an account')).toBeVisible();
  await photograph(page, '2-already-registered');
  await page.getByRole('link', { name: 'Reset the password' }).click();
  await expect(page).toHaveURL(`/reset-password?email=${encodeURIComponent(email)}`);
  // The flow was left: /create-account starts again.
  await page.goto('/create-account');
  await expect(page.getByText('Step 1 of 6: Your e-mail')).toBeVisible();
});

const CARDS = { succeeds: '4242 4242 4242 4242', declined: '4000 0000 0000 0002' } as const;

/** Pays on the payment service's hosted checkout with one of its test cards; back on /create-account. */
async function payAtCheckout(page: Page, card: keyof typeof CARDS, lang: 'en' | 'tr' = 'en') {
  const labels =
    lang === 'en'
      ? {
          pay: /^Pay /,
          number: 'Card number',
          expiry: 'Expiry date (MM/YY)',
          cvc: 'Security code (CVC)',
          name: 'Name on card',
        }
      : {
          pay: / öde$/,
          number: 'Kart numarası',
          expiry: 'Son kullanma tarihi (AA/YY)',
          cvc: 'Güvenlik kodu (CVC)',
          name: 'Kart üzerindeki ad',
        };
  await page.getByRole('button', { name: labels.pay }).click();
  await expect(page).toHaveURL(/\/checkout\/[^/?]+/);
  await page.getByLabel(labels.number).fill(CARDS[card]);
  await page.getByLabel(labels.expiry).fill('12/39');
  await page.getByLabel(labels.cvc).fill('123');
  await page.getByLabel(labels.name).fill('Nora Founder');
  await page.getByRole('button', { name: labels.pay }).click();
  await expect(page).toHaveURL(/\/create-account$/);
}

test.describe('in Turkish, dark theme', () => {
  test.use({ locale: 'tr-TR' });

  test('bir kayıt: kod, paket, profil, reddedilen kart, sonra başarılı ödeme; yeni yönetici ilk adımlarda', async ({
    page,
    request,
  }) => {
    const email = `kurucu-${unique()}@yeni.test`;
    await page.goto('/login');
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    await page.getByRole('link', { name: 'Hesap oluştur' }).click();
    await expect(page.getByText('Adım 1 / 6: E-posta adresiniz')).toBeVisible();
    await page.getByLabel('İş e-postası', { exact: true }).fill(email);
    await page.getByLabel('Şifre', { exact: true }).fill('kisa');
    await expect(page.getByText('Güç: Zayıf')).toBeVisible();
    await page.getByLabel('Şifre', { exact: true }).fill('Kurucu#2026-Guclu!');
    await expect(page.getByText('Güç: Güçlü')).toBeVisible();
    await page.getByLabel('Şifreyi tekrar girin', { exact: true }).fill('Kurucu#2026-Guclu!');
    await page.getByRole('button', { name: 'Kodu gönder' }).click();

    await expect(page.getByText('Adım 2 / 6: Doğrulama kodu')).toBeVisible();
    await page.getByLabel('Doğrulama kodu', { exact: true }).fill(await mailedCode(request, email));
    await page.getByRole('button', { name: 'Doğrula' }).click();

    await expect(page.getByText('Adım 3 / 6: Paket')).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: 'Growth' })).toContainText('€800,00');
    await page.getByRole('button', { name: 'Growth seç' }).click();

    await expect(page.getByText('Adım 4 / 6: Şirket profili')).toBeVisible();
    await page.getByLabel('Şirket adı', { exact: true }).fill('Yeni Ödeme A.Ş.');
    await page.getByLabel('Ad', { exact: true }).fill('Nur');
    await page.getByLabel('Soyad', { exact: true }).fill('Kurucu');
    await page.getByLabel('Telefon', { exact: true }).fill('+90 212 555 00 00');
    await page.getByLabel('Sektör', { exact: true }).selectOption({ label: 'Bankacılık' });
    await page.getByLabel('Ülke', { exact: true }).selectOption('TR');
    await page.getByRole('button', { name: 'Ödemeye geç' }).click();

    await expect(page.getByText('Adım 5 / 6: Ödeme')).toBeVisible();
    await payAtCheckout(page, 'declined', 'tr');
    await expect(page.getByRole('alert')).toHaveText(
      'Ödeme reddedildi. Gerekirse başka bir kartla tekrar deneyin.',
    );
    await photograph(page, '5-payment-declined');
    await payAtCheckout(page, 'succeeds', 'tr');

    await expect(page.getByText('Adım 6 / 6: İlk adımlar')).toBeVisible();
    await expect(page.getByText('Yeni Ödeme A.Ş. şirketiniz hazır')).toBeVisible();
    // Signed in: a reload keeps the first steps; leaving them opens the studio.
    await page.reload();
    await expect(page.getByText('Adım 6 / 6: İlk adımlar')).toBeVisible();
    await page.getByRole('button', { name: /Bir webhook ekleyin/ }).click();
    await expect(page).toHaveURL(/\/company-settings$/);
    await expect(page.getByRole('navigation', { name: 'Ana gezinme' })).toBeVisible();
  });
});
