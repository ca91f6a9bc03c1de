/** /settings → Active sessions: list, end another session, end this one; both languages and themes. */
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { expect, test } from './cspGuard';
import { DEMO, signIn } from './support';

const SAFARI_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0';

/** A second session of the viewer, signed in from "another browser". */
async function otherSession(request: APIRequestContext, userAgent: string): Promise<string> {
  const response = await request.post('/api/v1/login/', {
    headers: { 'user-agent': userAgent },
    data: { username: DEMO.viewer.email, password: DEMO.viewer.password },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { access: string }).access;
}

const sessionsStatus = async (request: APIRequestContext, token: string) =>
  (await request.get('/api/v2/session', { headers: { authorization: `Bearer ${token}` } })).status();

/** Screenshots of the card in both themes (kept as test artefacts). */
async function shoot(page: Page, testInfo: TestInfo, language: string, card: ReturnType<Page['locator']>) {
  for (const theme of ['light', 'dark']) {
    await page.evaluate((value) => localStorage.setItem('theme', value), theme);
    await page.reload();
    await expect(card.getByRole('table')).toBeVisible();
    const path = testInfo.outputPath(`sessions-${language}-${theme}.png`);
    await card.screenshot({ path });
    await testInfo.attach(`sessions-${language}-${theme}`, { path, contentType: 'image/png' });
  }
}

test('lists the sessions and ends another one after a confirmation (English)', async ({
  page,
  request,
}, testInfo) => {
  await signIn(page, DEMO.viewer);
  const other = await otherSession(request, SAFARI_MAC);
  await page.goto('/settings');
  const card = page.locator('.studio-settings-card', {
    has: page.getByRole('heading', { name: 'Active sessions' }),
  });
  const table = card.getByRole('table', { name: 'Active sessions' });
  const safari = table.getByRole('row').filter({ hasText: 'Safari 18 on macOS' });
  await expect(safari).toHaveCount(1);
  await expect(safari).toContainText('127.0.0.1');
  await expect(table.getByRole('row').filter({ hasText: 'This device' })).toHaveCount(1);
  await shoot(page, testInfo, 'en', card);

  // Cancel changes nothing; End session ends it: the other browser's token gets 401 at once.
  await safari.getByRole('button', { name: 'End session: Safari 18 on macOS' }).click();
  const dialog = page.getByRole('dialog', { name: 'End this session?' });
  await expect(dialog).toContainText('Safari 18 on macOS (127.0.0.1) is signed out at once.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  expect(await sessionsStatus(request, other)).toBe(200);
  await safari.getByRole('button', { name: 'End session: Safari 18 on macOS' }).click();
  await dialog.getByRole('button', { name: 'End session' }).click();
  await expect(page.getByText('Session ended')).toBeVisible();
  await expect(safari).toHaveCount(0);
  expect(await sessionsStatus(request, other)).toBe(401);
  // This browser goes on.
  await expect(table.getByRole('row').filter({ hasText: 'This device' })).toHaveCount(1);
});

test.describe('in Turkish', () => {
  test.use({ locale: 'tr-TR' });

  test('ends this device’s session: the studio signs out, the other session goes on', async ({
    page,
    request,
  }, testInfo) => {
    await page.goto('/login');
    await page.getByLabel('E-posta').fill(DEMO.viewer.email);
    await page.getByLabel('Şifre').fill(DEMO.viewer.password);
    await page.getByRole('button', { name: 'Giriş yap' }).click();
    await expect(page).not.toHaveURL(/\/login/);
    const other = await otherSession(request, FIREFOX_LINUX);
    await page.goto('/settings');
    const card = page.locator('.studio-settings-card', {
      has: page.getByRole('heading', { name: 'Etkin oturumlar' }),
    });
    const table = card.getByRole('table', { name: 'Etkin oturumlar' });
    await expect(table.getByRole('columnheader', { name: 'Son görülme' })).toBeVisible();
    await expect(table.getByRole('row').filter({ hasText: 'Linux üzerinde Firefox 132' })).toHaveCount(1);
    const mine = table.getByRole('row').filter({ hasText: 'Bu cihaz' });
    await expect(mine).toHaveCount(1);
    await shoot(page, testInfo, 'tr', card);

    const token = await page.evaluate(() => {
      const accounts = JSON.parse(localStorage.getItem('accounts') ?? '[]') as { access: string }[];
      return accounts[0]?.access ?? '';
    });
    await mine.getByRole('button', { name: /^Oturumu sonlandır: / }).click();
    const dialog = page.getByRole('dialog', { name: 'Bu oturum sonlandırılsın mı?' });
    await expect(dialog).toContainText('Bu, bu tarayıcının oturumu: oturumunuz hemen kapanır.');
    await dialog.getByRole('button', { name: 'Oturumu sonlandır' }).click();
    await expect(page.getByRole('heading', { name: 'Giriş yap' })).toBeVisible();
    expect(await sessionsStatus(request, token)).toBe(401);
    expect(await sessionsStatus(request, other)).toBe(200);
    // The other session ends with its own logout.
    await request.post('/api/v2/session/logout', { headers: { authorization: `Bearer ${other}` } });
    expect(await sessionsStatus(request, other)).toBe(401);
  });
});

test('Logout ends the session on the server: the old token gets 401', async ({ page, request }) => {
  await signIn(page, DEMO.viewer);
  const token = await page.evaluate(() => {
    const accounts = JSON.parse(localStorage.getItem('accounts') ?? '[]') as { access: string }[];
    return accounts[0]?.access ?? '';
  });
  expect(await sessionsStatus(request, token)).toBe(200);
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect.poll(() => sessionsStatus(request, token)).toBe(401);
});
