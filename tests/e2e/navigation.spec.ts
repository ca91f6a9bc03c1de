/**
 * Instant navigation: data and code in parallel, preload on intent within the permissions, and
 * back to the list from the cache where it was left. Order of requests, never timings.
 */
import { expect, type Page, test } from '@playwright/test';
import { DEMO, path, signIn } from './support';

const rows = (page: Page) => page.getByRole('table', { name: 'Customers' }).locator('tbody tr');
const isProfileChunk = /\/assets\/ProfileScreen-[\w-]+\.js$/;

test("a profile's first request goes out while its chunk is still on its way; back restores the list where it was", async ({
  page,
}) => {
  // Every request of the profile screen's chunk is held until the test lets it go.
  const events: string[] = [];
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(isProfileChunk, async (route) => {
    events.push('chunk requested');
    await released;
    events.push('chunk released');
    await route.continue();
  });
  page.on('request', (request) => {
    if (/\/api\/v2\/profile\/\d+$/.test(new URL(request.url()).pathname)) events.push('profile requested');
  });

  await signIn(page);
  await page.goto('/customers?size=100');
  await expect(rows(page)).toHaveCount(100);
  const link = rows(page).nth(60).getByRole('link');
  const href = (await link.getAttribute('href')) as string;
  await link.scrollIntoViewIfNeeded();
  const scrolled = await page.evaluate(() => window.scrollY);
  expect(scrolled).toBeGreaterThan(0);

  const profileRequest = page.waitForRequest(
    (request) => new URL(request.url()).pathname === `/api/v2${href}`,
  );
  await link.click();
  await profileRequest;
  // The list stays on show while the next screen loads; the loading bar says so.
  await expect(page.getByRole('progressbar', { name: 'Loading…' })).toBeVisible();
  await expect(rows(page)).toHaveCount(100);
  release();
  await expect(page.locator('.studio-profile-header h2')).toBeVisible();
  expect(path(page)).toBe(href);
  expect(events.indexOf('profile requested')).toBeGreaterThan(-1);
  expect(events.indexOf('profile requested')).toBeLessThan(events.indexOf('chunk released'));

  // Back: the list from the cache (no new request for it), at the scroll position it had.
  let listRequests = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/v2/profile') listRequests += 1;
  });
  await page.goBack({ waitUntil: 'commit' });
  await expect(rows(page)).toHaveCount(100);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(scrolled);
  await expect(page.locator('.studio-page .bp6-spinner')).toHaveCount(0);
  expect(listRequests).toBe(0);

  // Forward and back again: the same screens, again without a fallback in between.
  await page.goForward({ waitUntil: 'commit' });
  await expect(page.locator('.studio-profile-header h2')).toBeVisible();
  await page.goBack({ waitUntil: 'commit' });
  await expect(rows(page)).toHaveCount(100);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(scrolled);
});

test('hovering a link preloads its route only for an account allowed to open it', async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  // The viewer (Restricted User) may open profiles but not the calls page.
  await signIn(page, DEMO.viewer);
  await expect(rows(page).first()).toBeVisible();
  await page.evaluate(() => {
    const link = document.createElement('a');
    link.href = '/calls';
    link.textContent = 'Calls (test link)';
    document.querySelector('main')?.prepend(link);
  });
  const callsLink = page.getByRole('link', { name: 'Calls (test link)' });
  await callsLink.hover();
  // Then a profile link: its preload (the profile's first request) comes after whatever the first hover did.
  const profileLink = rows(page).first().getByRole('link');
  const href = (await profileLink.getAttribute('href')) as string;
  const preloaded = page.waitForRequest((request) => new URL(request.url()).pathname === `/api/v2${href}`);
  await profileLink.hover();
  await preloaded;
  expect(path(page)).toBe('/');
  expect(requested.filter((url) => /\/assets\/CallsScreen-/.test(url))).toEqual([]);

  // The preloaded profile opens from the cache: no second request for it.
  const before = requested.filter((url) => url === `/api/v2${href}`).length;
  await profileLink.click();
  await expect(page.locator('.studio-profile-header h2')).toBeVisible();
  expect(requested.filter((url) => url === `/api/v2${href}`).length).toBe(before);
});
