import { expect, type Page, test } from '@playwright/test';
import { totpCode } from '../../server/auth/totp';
import { path } from './support';

/** Demo logins printed by the server (server/db/seed). */
const demo = {
  admin: { email: 'admin@acme.test', password: 'Admin@2026' },
  agent: { email: 'agent@acme.test', password: 'User@2026' },
  viewer: { email: 'viewer@acme.test', password: 'User@2026' },
  mfa: { email: 'mfa@acme.test', password: 'User@2026', secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' },
  shared: { email: 'shared@demo.test', password: 'User@2026' },
  globexAdmin: { email: 'admin@globex.test', password: 'Admin@2026' },
  api: { email: 'api@acme.test', password: 'Api@2026' },
};

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const navLinks = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link');

test.describe('sign-in', () => {
  test('each demo role signs in and sees the areas its permissions allow', async ({ page }) => {
    const expected: [keyof typeof demo, string[]][] = [
      ['admin', ['Customers', 'Review desk', 'Calls', 'Dashboard', 'Reports', 'Entities', 'Admin']],
      // The agent's group Reviewers grants review_profiles.
      ['agent', ['Customers', 'Review desk', 'Calls', 'Dashboard', 'Reports']],
      ['viewer', ['Customers']],
    ];
    for (const [role, areas] of expected) {
      await page.goto('/login');
      await signIn(page, demo[role]);
      await expect(navLinks(page)).toHaveText(areas);
      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menuitem', { name: 'Logout' }).click();
      await expect(page).toHaveURL(/\/login/);
    }
  });

  test('returns to the redirect query after signing in', async ({ page }) => {
    await page.goto('/dashboard?range=6m');
    await expect(page).toHaveURL(/\/login\?redirect=/);
    await signIn(page, demo.agent);
    await expect.poll(() => path(page)).toBe('/dashboard?range=6m');
    await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  });

  test('wrong credentials say Invalid Credentials and keep the e-mail', async ({ page }) => {
    await page.goto('/login');
    await signIn(page, { email: demo.agent.email, password: 'Wrong-pass1' });
    await expect(page.getByRole('alert')).toHaveText('Invalid Credentials');
    await expect(page.getByLabel('E-mail')).toHaveValue(demo.agent.email);
  });

  test('a malformed e-mail is refused before any request', async ({ page }) => {
    let requests = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/login')) requests += 1;
    });
    await page.goto('/login');
    await signIn(page, { email: 'not-an-email', password: 'x' });
    await expect(page.getByText('This is not a valid e-mail address.')).toBeVisible();
    expect(requests).toBe(0);
  });

  test('two-factor: the server asks for the code; a code from the secret signs in', async ({ page }) => {
    await page.goto('/login');
    await signIn(page, demo.mfa);
    await expect(page.getByText('Enter the 6-digit code from your authenticator app.')).toBeVisible();
    await page.getByLabel('Code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert')).toHaveText('The code is not valid. Try again.');
    await page.getByLabel('Code').fill(totpCode(demo.mfa.secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('heading', { name: 'Customers' })).toBeVisible();
  });

  test('an account in two regions chooses one and signs in there', async ({ page }) => {
    await page.goto('/login');
    await signIn(page, demo.shared);
    await expect(page.getByText('Choose where to sign in.', { exact: false })).toBeVisible();
    await page.getByText('Türkiye', { exact: true }).click();
    await expect(page.getByRole('radio', { name: 'Türkiye' })).toBeChecked();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: 'Customers' })).toBeVisible();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('accounts') ?? '[]'));
    expect(stored).toHaveLength(1);
    expect(stored[0].server).toMatch(/localhost/);
  });

  test('an API user is never stored as a session', async ({ page }) => {
    await page.goto('/login');
    await signIn(page, demo.api);
    await expect(page.getByRole('alert')).toHaveText(
      'This is an API account: it cannot sign in to the studio.',
    );
    expect(await page.evaluate(() => localStorage.getItem('accounts'))).toBeNull();
  });

  test('signs in to a second company, switches between the accounts, then Logout All', async ({ page }) => {
    await page.goto('/login');
    await signIn(page, demo.admin);
    await expect(navLinks(page).first()).toBeVisible();
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign in to another company' }).click();
    await expect(page.getByText('You are signed in already.', { exact: false })).toBeVisible();
    await signIn(page, demo.globexAdmin);
    await expect(page.getByRole('heading', { name: 'Customers' })).toBeVisible();

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: /admin@acme\.test/ }).click();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('active-account'))).toMatch(/^1@/);

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout All' }).click();
    await expect(page).toHaveURL(/\/login/);
    expect(await page.evaluate(() => localStorage.getItem('accounts'))).toBe('[]');
  });

  test('a 401 ends the session in this tab and the other tab follows', async ({ context }) => {
    const first = await context.newPage();
    await first.goto('/login');
    await signIn(first, demo.agent);
    await expect(navLinks(first).first()).toBeVisible();
    const second = await context.newPage();
    await second.goto('/calls');
    await expect(second.getByRole('heading', { name: 'Calls' })).toBeVisible();

    // This tab's token is no longer accepted (as when it expires): its requests reach the server with a token
    // the server refuses. Only this tab's: had the other tab met a 401 first, it would be the one to end the
    // session, and which tab asks the server first is a race.
    await first.route(
      (url) => url.pathname.startsWith('/api/'),
      (route) => {
        const headers = route.request().headers();
        return route.continue(
          headers.authorization
            ? { headers: { ...headers, authorization: 'Bearer expired.token.value' } }
            : {},
        );
      },
    );
    await first.goto('/settings');
    await expect(first).toHaveURL(/\/login\?email=agent%40acme\.test/);
    await expect(first.getByLabel('E-mail')).toHaveValue('agent@acme.test');
    await expect(second).toHaveURL(/\/login\?redirect=%2Fcalls/);
  });
});

test.describe('sign-in in Turkish', () => {
  test.use({ locale: 'tr-TR' });

  test('the form and its errors are Turkish', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('E-posta').fill(demo.agent.email);
    await page.getByLabel('Şifre').fill('Yanlis-sifre1');
    await page.getByRole('button', { name: 'Giriş yap' }).click();
    await expect(page.getByRole('alert')).toHaveText('Geçersiz kimlik bilgileri');
  });
});
