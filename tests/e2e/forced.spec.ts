import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { totpCode } from '../../server/auth/totp';

async function signIn(
  page: Page,
  email: string,
  password: string,
  labels = { email: 'E-mail', password: 'Password', submit: 'Sign in' },
) {
  await page.getByLabel(labels.email, { exact: true }).fill(email);
  await page.getByLabel(labels.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: labels.submit, exact: true }).click();
}

/** The newest e-mailed code for an address, from the server's dev-only outbox. */
async function mailedCode(request: APIRequestContext, to: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const answer = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
      const body: unknown = await answer.json();
      const messages = (Array.isArray(body) ? body : ((body as { results?: unknown[] }).results ?? [])) as {
        body?: string;
      }[];
      code = messages[0]?.body?.match(/\b\d{6}\b/)?.[0];
      return code;
    })
    .toBeTruthy();
  return code as string;
}

test('a forced password reset opens the reset dialog; the new password then signs in', async ({
  page,
  request,
}) => {
  await page.goto('/login');
  await signIn(page, 'reset@acme.test', 'User@2026');
  const dialog = page.getByRole('dialog', { name: 'Your password must be changed' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('E-mail')).toHaveValue('reset@acme.test');
  await dialog.getByRole('button', { name: 'Send code' }).click();
  await expect(dialog.getByText('We sent a code to reset@acme.test.')).toBeVisible();
  await expect(dialog.getByRole('timer')).toContainText('You can send the code again in');

  const code = await mailedCode(request, 'reset@acme.test');
  await dialog.getByLabel('Code').fill(code);
  await dialog.getByLabel('New password', { exact: true }).fill('weak');
  await dialog.getByLabel('Confirm the new password').fill('weak2');
  await dialog.getByRole('button', { name: 'Change password' }).click();
  await expect(
    dialog.getByText(
      'The password needs 8 or more characters with an upper-case letter, a lower-case letter and a symbol.',
    ),
  ).toBeVisible();
  await expect(dialog.getByText('Passwords do not match')).toBeVisible();

  await dialog.getByLabel('New password', { exact: true }).fill('Fresh@2026');
  await dialog.getByLabel('Confirm the new password').fill('Fresh@2026');
  await dialog.getByRole('button', { name: 'Change password' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status')).toHaveText('Password successfully changed');

  await signIn(page, 'reset@acme.test', 'Fresh@2026');
  await expect(page.getByRole('heading', { name: 'Customers' })).toBeVisible();
});

test('a forced two-factor reset sets up two-factor, ends the session, then the code signs in', async ({
  page,
}) => {
  await page.goto('/login');
  await signIn(page, 'mfa-reset@acme.test', 'User@2026');
  const dialog = page.getByRole('dialog', { name: 'Set up two-factor authentication' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Get QR Code' }).click();
  const prompt = page.getByRole('dialog', { name: 'Confirm with your password' });
  await prompt.getByLabel('Password', { exact: true }).fill('User@2026');
  await prompt.getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(dialog.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await dialog.getByTestId('two-factor-secret').textContent()) ?? '';
  await dialog.getByLabel('Code').fill(totpCode(secret));
  await dialog.getByRole('button', { name: 'Verify' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status')).toHaveText(
    'Two-factor authentication is set up. Sign in with your code.',
  );
  expect(await page.evaluate(() => localStorage.getItem('accounts'))).toBeNull();

  await signIn(page, 'mfa-reset@acme.test', 'User@2026');
  // The set-up's code used its time step (a code signs in once): the app's next code signs in.
  await page.getByLabel('Code').fill(totpCode(secret, Math.floor(Date.now() / 1000) + 30));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: 'Customers' })).toBeVisible();
});

test.describe('two-factor in settings, in Turkish', () => {
  test.use({ locale: 'tr-TR' });

  test('asks for the password (wrong, then right), shows the QR code, verifies, then disables', async ({
    page,
  }) => {
    const tr = { email: 'E-posta', password: 'Şifre', submit: 'Giriş yap' };
    await page.goto('/login');
    await signIn(page, 'viewer@acme.test', 'User@2026', tr);
    await expect(page.getByRole('heading', { name: 'Müşteriler' })).toBeVisible();
    await page.goto('/settings');
    await page.getByRole('button', { name: 'QR kodu al' }).click();
    const prompt = page.getByRole('dialog', { name: 'Şifrenizle onaylayın' });
    await prompt.getByLabel('Şifre', { exact: true }).fill('Yanlis-sifre1');
    await prompt.getByRole('button', { name: 'Onayla' }).click();
    await expect(prompt.getByText('Yanlış şifre')).toBeVisible();
    await prompt.getByLabel('Şifre', { exact: true }).fill('User@2026');
    await prompt.getByRole('button', { name: 'Onayla' }).click();
    await expect(page.getByRole('img', { name: 'Doğrulama uygulamanız için QR kod' })).toHaveAttribute(
      'width',
      '200',
    );
    const secret = (await page.getByTestId('two-factor-secret').textContent()) ?? '';
    await page.getByLabel('Kod').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Doğrula' }).click();
    await expect(page.getByText('Hesabınızda iki adımlı doğrulama açık.')).toBeVisible();

    await page.getByRole('button', { name: "2FA'yı kapat" }).click();
    await prompt.getByLabel('Şifre', { exact: true }).fill('User@2026');
    await prompt.getByRole('button', { name: 'Onayla' }).click();
    await expect(page.getByRole('button', { name: 'QR kodu al' })).toBeVisible();
  });
});

test('signing in works with the keyboard alone', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByLabel('E-mail')).toBeFocused();
  await page.keyboard.type('agent@acme.test');
  await page.keyboard.press('Tab');
  await page.keyboard.type('User@2026');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Customers' })).toBeVisible();
});
