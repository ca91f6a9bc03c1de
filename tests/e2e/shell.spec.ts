import { expect, test } from './cspGuard';
import { DEMO, path, signIn } from './support';

test.describe('guards and routes', () => {
  test('a protected route while signed out goes to /login with the full original path', async ({ page }) => {
    await page.goto('/profile/12/document/3?view=fields');
    await expect(page).toHaveURL(/\/login\?redirect=/);
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/profile/12/document/3?view=fields');
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  });

  test('a signed-in user on a public route is sent to /', async ({ page }) => {
    await signIn(page);
    await page.goto('/reset-password');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: 'Customers' })).toBeVisible();
  });

  test('a route without its permission shows the not-allowed page', async ({ page }) => {
    await signIn(page, DEMO.viewer);
    await page.goto('/company-settings');
    await expect(page.getByText('You are not allowed to visit this page.')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link')).toHaveText([
      'Customers',
    ]);
  });

  test('unknown paths go to /', async ({ page }) => {
    await signIn(page);
    await page.goto('/this/does/not/exist');
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/profile/3/unknown-tab');
    await expect(page).toHaveURL(/\/$/);
  });

  test('/reports goes to the landing page; the root with session_id goes to /return with the query', async ({
    page,
  }) => {
    await signIn(page);
    await page.goto('/reports');
    await expect(page).toHaveURL(/\/landing$/);
    await expect(page.getByRole('heading', { name: 'Reports' })).toBeVisible();
    await page.goto('/?session_id=cs_test_42');
    await expect.poll(() => path(page)).toBe('/return?session_id=cs_test_42');
    await expect(page.getByRole('heading', { name: 'Payment', exact: true })).toBeVisible();
  });

  test('the shell navigates between areas with the keyboard-reachable navbar', async ({ page }) => {
    await signIn(page);
    await page.goto('/profile/7');
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Calls' })
      .click();
    await expect.poll(() => path(page)).toBe('/calls');
    await expect(page.getByRole('heading', { name: 'Calls' })).toBeVisible();
  });
});

test.describe('languages', () => {
  test.use({ locale: 'tr-TR' });

  test('a Turkish browser gets Turkish; the switch stores the choice across reloads', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Giriş yap' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'tr');
  });

  test('the stored choice wins over the browser language', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('E-posta').fill(DEMO.admin.email);
    await page.getByLabel('Şifre').fill(DEMO.admin.password);
    await page.getByRole('button', { name: 'Giriş yap' }).click();
    await expect(page.getByRole('heading', { name: 'Müşteriler' })).toBeVisible();
    await page.getByRole('combobox', { name: 'Dil' }).selectOption('en-US');
    await expect(page.getByRole('heading', { name: 'Customers' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Customers' })).toBeVisible();
  });
});

test('an English browser gets English', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
});

test('a logout in one tab reloads the other tab, which then asks to sign in', async ({
  context,
  request,
}) => {
  const first = await context.newPage();
  await signIn(first);
  const second = await context.newPage();
  await second.goto('/dashboard');
  await expect(second.getByRole('heading', { name: 'Dashboard' })).toBeVisible();

  const [token] = await first.evaluate(() =>
    (JSON.parse(localStorage.getItem('accounts') ?? '[]') as { access: string }[]).map((a) => a.access),
  );
  await first.getByRole('button', { name: 'Account menu' }).click();
  await first.getByRole('menuitem', { name: 'Logout' }).click();

  await expect(second).toHaveURL(/\/login\?redirect=%2Fdashboard/);
  await expect(first).toHaveURL(/\/login/);
  // The session ends on the server too (a keepalive request that outlives the page): its token is refused.
  await expect
    .poll(async () =>
      (await request.get('/api/v2/session', { headers: { authorization: `Bearer ${token}` } })).status(),
    )
    .toBe(401);
});

test('a screen chunk that fails to load shows a message with Reload, not a white page', async ({ page }) => {
  await signIn(page);
  await page.route(/\/assets\/DashboardScreen-[^/]+\.js$/, (route) => route.abort());
  await page.goto('/dashboard');
  await expect(page.getByText('This part of the studio could not be loaded')).toBeVisible();
  await page.unroute(/\/assets\/DashboardScreen-[^/]+\.js$/);
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
});
