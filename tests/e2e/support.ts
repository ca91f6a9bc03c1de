import { type APIRequestContext, expect, type Page } from '@playwright/test';

/** Demo logins of the seeded server (server/db/seed). */
export const DEMO = {
  admin: { email: 'admin@acme.test', password: 'Admin@2026' },
  agent: { email: 'agent@acme.test', password: 'User@2026' },
  viewer: { email: 'viewer@acme.test', password: 'User@2026' },
  /** The reviewers' desk with second review; `/` opens the desk. */
  reviewer: { email: 'reviewer@acme.test', password: 'User@2026' },
} as const;

/** The sign-in page's labels and the navigation's name, in the studio's languages. */
const SIGN_IN_TEXT = {
  'en-US': { email: 'E-mail', password: 'Password', signIn: 'Sign in', nav: 'Main navigation' },
  tr: { email: 'E-posta', password: 'Şifre', signIn: 'Giriş yap', nav: 'Ana gezinme' },
} as const;

/**
 * Signs in through the sign-in page and waits for the studio. `lng` names the language the page shows (the
 * context's locale picks it): the labels are looked up in it.
 */
export async function signIn(
  page: Page,
  who: { email: string; password: string } = DEMO.admin,
  lng: keyof typeof SIGN_IN_TEXT = 'en-US',
): Promise<void> {
  const text = SIGN_IN_TEXT[lng];
  await page.goto('/login');
  await page.getByLabel(text.email, { exact: true }).fill(who.email);
  await page.getByLabel(text.password, { exact: true }).fill(who.password);
  await page.getByRole('button', { name: text.signIn, exact: true }).click();
  // 30 s: the server's argon2 check and the studio's first chunks, while the other worker (and here a call's
  // two videos) keep both cores busy, took over 10 s in CI.
  await expect(page.getByRole('navigation', { name: text.nav })).toBeVisible({ timeout: 30_000 });
}

export const path = (page: Page) => {
  const url = new URL(page.url());
  return `${url.pathname}${url.search}`;
};

/** face@acme.test has sample face a1 as its sign-in photo (server/db/seed). */
export async function signInToPhotoStep(page: Page) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill('face@acme.test');
  await page.getByLabel('Password').fill('User@2026');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Look at the camera and take a photo to confirm it is you.')).toBeVisible();
}

/** An access token of `who`, signed in through the API (for requests a test makes beside the browser). */
export async function tokenOf(request: APIRequestContext, who: { email: string; password: string }) {
  const login = await request.post('/api/v1/login/', {
    data: { username: who.email, password: who.password },
  });
  return ((await login.json()) as { access: string }).access;
}

/**
 * Every operation swagger-ui lists, as "METHOD /path": the list filtered by each tag in turn with swagger-ui's own
 * filter box. Past 150 rows (tag headers and operations) swagger-ui draws only the rows near the viewport, and a
 * reading that scrolled the whole list with the mouse wheel missed rows now and then on CI's busy cores; one tag's
 * rows are far fewer. `tags`: each tag with the operations the document gives it; a tag's reading waits until they
 * are all drawn (at most 10 s, then the caller's comparison shows what is missing).
 */
export async function listedOperations(page: Page, tags: Map<string, string[]>): Promise<string[]> {
  const blocks = page.locator('.opblock .opblock-summary');
  const drawn = () =>
    blocks.evaluateAll((items) =>
      items.map(
        (item) =>
          `${item.querySelector('.opblock-summary-method')?.textContent?.trim()} ${item
            .querySelector('.opblock-summary-path')
            ?.getAttribute('data-path')}`,
      ),
    );
  // The first draw parses the whole document: up to 25 s on CI's two busy cores.
  await expect(blocks.first()).toBeVisible({ timeout: 90_000 });
  const filter = page.getByPlaceholder('Filter by tag or path');
  const listed = new Set<string>();
  for (const [tag, operations] of tags) {
    await filter.fill(tag);
    let shown: string[] = [];
    await expect
      .poll(
        async () => {
          shown = await drawn();
          return operations.every((operation) => shown.includes(operation));
        },
        { timeout: 10_000 },
      )
      .toBe(true)
      .catch(() => undefined);
    for (const operation of shown) listed.add(operation);
  }
  await filter.fill('');
  return [...listed];
}
