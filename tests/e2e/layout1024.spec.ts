/**
 * 1024 px: at 1024×768 in Turkish the navbar holds one row (the areas turn to icons with tooltips
 * below 1280 px) and the customers table shows that it scrolls sideways (its first column stays, the edge
 * that hides columns is shaded). Screenshot baselines of both, made on this machine, and the same in numbers.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './cspGuard';
import { DEMO } from './support';

async function signInAs(page: Page, language: 'en-US' | 'tr', theme: 'light' | 'dark') {
  await page.addInitScript(
    ([l, t]) => {
      localStorage.setItem('language', l as string);
      localStorage.setItem('theme', t as string);
    },
    [language, theme],
  );
  await page.goto('/login');
  await page.locator('#login-email').fill(DEMO.admin.email);
  await page.locator('#login-password').fill(DEMO.admin.password);
  await page.locator('#login-password').press('Enter');
  await expect(page.locator('nav.studio-nav')).toBeVisible();
}

/** The customers list, loaded, with nothing moving (no caret, no spinner). */
async function openCustomers(page: Page) {
  await page.goto('/customers');
  await expect(page.locator('.studio-table-scroll table tbody tr').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
}

test('1024×768 in Turkish: the navbar holds one row; the customers table shows it scrolls', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await signInAs(page, 'tr', 'light');
  await openCustomers(page);

  const navbar = page.locator('.studio-navbar');
  const links = page.locator('nav.studio-nav a');
  const box = await navbar.boundingBox();
  // One row: Blueprint's 50 px bar and its loading-bar border, not two rows of buttons.
  expect(box?.height).toBeLessThanOrEqual(56);
  const tops = await links.evaluateAll((all) => all.map((a) => Math.round(a.getBoundingClientRect().top)));
  expect(new Set(tops).size).toBe(1);
  // Icons only, yet each link keeps its name (and says it in a tooltip).
  await expect(page.getByRole('link', { name: 'Müşteriler' })).toBeVisible();
  await page.getByRole('link', { name: 'Gösterge paneli' }).hover();
  await expect(page.locator('.bp6-tooltip')).toHaveText('Gösterge paneli');
  await page.mouse.move(0, 0);
  await expect(page.locator('.bp6-tooltip')).toBeHidden();

  // The table overflows its scroll container, which says so.
  const frame = page.locator('.studio-table-frame');
  const scroller = page.getByRole('region', { name: 'Müşteri tablosu (yana kayar)' });
  const overflow = await scroller.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(overflow.scroll).toBeGreaterThan(overflow.client);
  await expect(frame).toHaveAttribute('data-overflow', 'end');
  // It scrolls by keyboard too.
  await expect(scroller).toHaveAttribute('tabindex', '0');
  await expect(navbar).toHaveScreenshot('navbar-1024-tr.png', { maxDiffPixelRatio: 0.01 });
  await expect(frame).toHaveScreenshot('customers-1024-tr.png', {
    maxDiffPixelRatio: 0.02,
    // The rows change as other specs add customers: the header, the stuck columns and the shade stay.
    mask: [page.locator('.studio-table-scroll tbody td')],
  });
  // Scrolled to the end: the first column stays, the shade moves to the start.
  await scroller.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  await expect(frame).toHaveAttribute('data-overflow', 'start');
  const first = page.locator('.studio-table-scroll tbody tr:first-child td:first-child');
  const [firstBox, scrollBox] = [await first.boundingBox(), await scroller.boundingBox()];
  expect(Math.abs((firstBox?.x ?? 0) - (scrollBox?.x ?? -100))).toBeLessThanOrEqual(1);
});

test('1280×800 in Turkish: an Admin’s navbar holds one row, the areas as icons', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAs(page, 'tr', 'dark');
  await expect(page.getByRole('link', { name: 'Gösterge paneli' })).toBeVisible();
  await expect(page.locator('nav.studio-nav')).not.toContainText('Gösterge paneli');
  expect((await page.locator('.studio-navbar').boundingBox())?.height).toBeLessThanOrEqual(56);
});

test('1280×800 in English: the areas keep their names in one row', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInAs(page, 'en-US', 'light');
  await expect(page.locator('nav.studio-nav')).toContainText('Dashboard');
  expect((await page.locator('.studio-navbar').boundingBox())?.height).toBeLessThanOrEqual(56);
});

test('1440×900: the navbar shows the areas with their names', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAs(page, 'tr', 'light');
  await expect(page.locator('nav.studio-nav')).toContainText('Gösterge paneli');
  expect((await page.locator('.studio-navbar').boundingBox())?.height).toBeLessThanOrEqual(56);
});
