/**
 * The studio's wording in a real browser: what a new user reads on sign-in, the invitation, the empty
 * customer list, the Reports page, the dashboard's axis and the API documentation, in both languages and both
 * themes.
 * WORDS_SCREENSHOTS=<folder> also writes a 1440×900 screenshot of every screen in each language and theme.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { PNG } from 'pngjs';
import { Contexts, goOnline, joinLink, joinQueue } from './callSupport';
import { expect, test } from './cspGuard';
import { DEMO, signIn } from './support';

test.use({ viewport: { width: 1440, height: 900 } });
// Its tests stand alone (each signs in or invites on its own): they spread over the workers rather than
// running one after the other on one (the file is the last one given out, and alone it ended the run 70 s
// after the other worker had finished).
test.describe.configure({ mode: 'parallel' });

const shots = process.env.WORDS_SCREENSHOTS;
if (shots) mkdirSync(shots, { recursive: true });

type Lang = 'en-US' | 'tr';

/** Sets the stored language and theme, and loads the page again. */
async function show(page: Page, lang: Lang, theme: 'light' | 'dark', ready: Locator) {
  await page.evaluate(
    ({ l, th }) => {
      localStorage.setItem('language', l);
      localStorage.setItem('theme', th);
    },
    { l: lang, th: theme },
  );
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  await expect(ready).toBeVisible({ timeout: 90_000 });
}

/** Each language and theme: `check` sees the page in it; a screenshot when asked for. */
async function everyWay(
  page: Page,
  name: string,
  ready: (lang: Lang) => Locator,
  check: (lang: Lang) => Promise<void> = async () => {},
) {
  for (const lang of ['en-US', 'tr'] as const)
    for (const theme of ['light', 'dark'] as const) {
      await show(page, lang, theme, ready(lang));
      await check(lang);
      if (shots) await page.screenshot({ path: join(shots, `${name}-${lang}-${theme}.png`) });
    }
  await show(page, 'en-US', 'light', ready('en-US'));
}

async function adminToken(request: APIRequestContext): Promise<string> {
  const answer = await request.post('/api/v1/login/', {
    data: { username: DEMO.admin.email, password: DEMO.admin.password },
  });
  return ((await answer.json()) as { access: string }).access;
}

async function newestMail(request: APIRequestContext, to: string): Promise<string> {
  let body = '';
  await expect
    .poll(async () => {
      const answer = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
      body = ((await answer.json()) as { body?: string }[])[0]?.body ?? '';
      return body;
    })
    .not.toBe('');
  return body;
}

/** A new user, invited by the admin: the invitation link. */
async function invite(request: APIRequestContext, email: string): Promise<{ link: string; id: number }> {
  const created = await request.post('/api/v2/user', {
    headers: { authorization: `Bearer ${await adminToken(request)}` },
    data: {
      password: DEMO.admin.password,
      first_name: 'Nur',
      last_name: 'Yeni',
      username: email,
      role: 'User',
    },
  });
  expect(created.status()).toBe(201);
  const link = /(http\S+\/reset-password\?\S+)/.exec(await newestMail(request, email))?.[1] ?? '';
  return { link: link.replace(/^https?:\/\/[^/]+/, ''), id: ((await created.json()) as { id: number }).id };
}

async function setActive(request: APIRequestContext, id: number, active: boolean) {
  const answer = await request.patch(`/api/v2/user/${id}`, {
    headers: { authorization: `Bearer ${await adminToken(request)}` },
    data: { password: DEMO.admin.password, is_active: active },
  });
  expect(answer.status()).toBe(200);
}

const PASSWORD = 'Welcome@2026';

test('invitation, a disabled account and a session ended by an admin say what happened', async ({
  page,
  request,
}) => {
  test.setTimeout(300_000);
  const email = `words-${Date.now()}@acme.test`;
  const { link, id } = await invite(request, email);

  // The invitation: "Set your password" with the one password rule.
  await page.goto(link);
  await everyWay(
    page,
    'invitation',
    (lang) =>
      page.getByRole('heading', { name: lang === 'tr' ? 'Şifrenizi belirleyin' : 'Set your password' }),
    async (lang) => {
      await expect(page.getByText(lang === 'tr' ? 'en az 8 karakter' : '8 or more characters')).toBeVisible();
      await page.getByLabel(lang === 'tr' ? 'Yeni şifre' : 'New password', { exact: true }).fill('Welcome1');
    },
  );
  await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm the new password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue(email);

  // Signed in; the admin disables the account: the studio's next request (a click here, or its socket's
  // reconnect, refused by the server, whichever comes first) lands on sign-in, which says why. Not a reload:
  // a reload after the end was taken would open a signed-out sign-in page, with no end to tell.
  await signIn(page, { email, password: PASSWORD });
  await setActive(request, id, false);
  const customers = page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Customers' });
  await customers.click({ timeout: 5_000 }).catch(() => {
    // The socket's reconnect told first: the navigation is gone already.
  });
  const ended = (lang: Lang) =>
    page.getByText(
      lang === 'tr'
        ? 'Hesabınız devre dışı bırakıldığı için oturumunuz kapatıldı. Yöneticinize başvurun.'
        : 'Your account has been disabled, so you were signed out. Contact your administrator.',
    );
  await expect(ended('en-US')).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/login\?.*ended=disabled/);
  await everyWay(page, 'session-ended', ended);

  // The right password of the disabled account is told so; a wrong one learns nothing.
  const tryPassword = async (password: string) => {
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  };
  await page.goto('/login');
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await tryPassword('Wrong@2026');
  await expect(page.getByRole('alert')).toHaveText('Invalid Credentials');
  await tryPassword(PASSWORD);
  await expect(page.getByRole('alert')).toHaveText(
    'Your account is disabled. Contact your administrator to have it enabled again.',
  );
  await page.evaluate(() => localStorage.setItem('language', 'tr'));
  await page.reload();
  await page.getByLabel('E-posta', { exact: true }).fill(email);
  await page.getByLabel('Şifre', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Giriş yap', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Hesabınız devre dışı. Yeniden etkinleştirilmesi için yöneticinize başvurun.',
  );
  if (shots)
    for (const theme of ['light', 'dark'] as const) {
      for (const lang of ['en-US', 'tr'] as const) {
        await show(page, lang, theme, page.getByRole('button', { name: /^(Sign in|Giriş yap)$/ }));
        await page.getByLabel(lang === 'tr' ? 'E-posta' : 'E-mail', { exact: true }).fill(email);
        await page.getByLabel(lang === 'tr' ? 'Şifre' : 'Password', { exact: true }).fill(PASSWORD);
        await page.getByRole('button', { name: /^(Sign in|Giriş yap)$/ }).click();
        await expect(page.getByRole('alert')).toBeVisible();
        await page.screenshot({ path: join(shots, `login-disabled-${lang}-${theme}.png`) });
      }
    }
  await setActive(request, id, true);
});

test('a company with no customers is told so, not that filters match nothing', async ({ page }) => {
  test.setTimeout(300_000);
  await signIn(page);
  // A new company's list: the server answers no profile (only the list request; the rest is real).
  await page.route(
    (url) => /\/api\/v2\/profile$/.test(url.pathname),
    (route) =>
      route.request().method() === 'GET'
        ? route.fulfill({ json: { count: 0, next: null, previous: null, results: [] } })
        : route.continue(),
  );
  await page.goto('/customers');
  await everyWay(page, 'customers-empty', (lang) =>
    page.getByRole('heading', { name: lang === 'tr' ? 'Henüz müşteri yok' : 'No customers yet' }),
  );
  await expect(page.getByText('No profile matches these filters')).toHaveCount(0);
  // With a filter set, nothing matching is what it says.
  await page.getByRole('combobox', { name: 'Status' }).selectOption('Rejected');
  await expect(page.getByRole('heading', { name: 'No customers found' })).toBeVisible();
});

test('the Reports link opens Reports; the decisions chart has room above its tallest bar', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await signIn(page);
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Reports' })
    .click();
  await expect(page.getByRole('heading', { name: 'Reports', level: 2 })).toBeVisible();
  await everyWay(page, 'reports', (lang) =>
    page.getByRole('heading', { name: lang === 'tr' ? 'Raporlar' : 'Reports', level: 2 }),
  );

  await page.goto('/dashboard');
  const chart = page.locator('figure', { hasText: 'Approvals and rejections' });
  await expect(chart.locator('.recharts-bar-rectangle').first()).toBeVisible({ timeout: 60_000 });
  // The plot's top edge is the axis' top tick; the tallest bar stays below it.
  const top = await chart.evaluate((figure) => {
    const bars = [...figure.querySelectorAll('.recharts-bar-rectangle path')].map(
      (bar) => bar.getBoundingClientRect().top,
    );
    const grid = [...figure.querySelectorAll('.recharts-cartesian-grid-horizontal line')].map(
      (line) => line.getBoundingClientRect().top,
    );
    return { bar: Math.min(...bars), axis: Math.min(...grid) };
  });
  expect(top.bar - top.axis).toBeGreaterThan(8);
  await everyWay(page, 'dashboard', (lang) =>
    page.locator('figure', {
      hasText: lang === 'tr' ? 'Onaylar ve retler' : 'Approvals and rejections',
    }),
  );
});

/** WCAG contrast of two sRGB colours. */
function contrast(a: number[], b: number[]): number {
  const lum = (c: number[]) => {
    const [r, g, bl] = c.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The contrast of text as drawn (after the dark theme's filters): the element's screenshot, its most common
 * colour taken as the background and the colour farthest from it as the text.
 */
async function drawnContrast(element: Locator): Promise<number> {
  const png = PNG.sync.read(await element.screenshot());
  const counts = new Map<string, number>();
  const pixels: number[][] = [];
  for (let i = 0; i < png.data.length; i += 4) {
    const pixel = [png.data[i], png.data[i + 1], png.data[i + 2]] as number[];
    pixels.push(pixel);
    const key = pixel.join();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const background = ([...counts.entries()].sort((x, y) => y[1] - x[1])[0]?.[0] ?? '0,0,0')
    .split(',')
    .map(Number);
  return Math.max(...pixels.map((pixel) => contrast(pixel, background)));
}

test('the API documentation: a readable title in the dark theme, summaries in Turkish', async ({ page }) => {
  test.setTimeout(480_000);
  await signIn(page);
  await page.goto('/swagger-documentation');
  const title = page.locator('.swagger-ui .info .title');
  await everyWay(
    page,
    'swagger',
    () => title,
    async (lang) => {
      // swagger-ui draws only the operations near the viewport (a virtualised list of this size): the filter
      // brings GET /profile into it.
      await page.getByPlaceholder('Filter by tag or path').fill('/api/v2/profile');
      await expect(
        page.locator('.opblock-summary-description', {
          hasText: lang === 'tr' ? /^Profilleri listele$/ : /^List profiles$/,
        }),
        // The first draw parses the whole document: up to 25 s on CI's two busy cores.
      ).toBeVisible({ timeout: 90_000 });
      // As clear as the studio's own headings (swagger-ui's grey title came out 7.5:1 in the dark theme; 9.5:1 in the light one).
      expect(await drawnContrast(title)).toBeGreaterThanOrEqual(9);
    },
  );
});

test('a customer with an agent Online and free is told an agent is free, in both languages', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const contexts = new Contexts();
  try {
    const agent = await goOnline(await contexts.page(browser), DEMO.agent);
    const link = await joinLink(agent, 3);
    const customer = await contexts.page(browser);
    await joinQueue(customer, link);
    const position = customer.getByTestId('queue-position');
    await expect(position).toHaveText(
      'You are number 1 in the queue. An agent is free: you will be answered in a moment.',
      { timeout: 30_000 },
    );
    await expect(position).not.toContainText('Expected wait');
    for (const lang of ['en-US', 'tr'] as const) {
      if (lang === 'tr') {
        await customer.locator('.customer-header .customer-link').click();
        await expect(position).toHaveText(
          'Sırada 1. kişisiniz. Boşta bir temsilci var: birazdan yanıtlanacaksınız.',
        );
      }
      for (const theme of ['light', 'dark'] as const) {
        await customer.emulateMedia({ colorScheme: theme });
        if (shots) await customer.screenshot({ path: join(shots, `customer-queue-${lang}-${theme}.png`) });
      }
    }
  } finally {
    await contexts.closeAll();
  }
});

test('settings, the entity summary and the Turkish questionnaire read right in both languages', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await signIn(page);
  // Settings: the new password shows the one rule.
  await page.goto('/settings');
  await everyWay(page, 'settings', (lang) =>
    page.getByText(lang === 'tr' ? 'Şifrede bulunması gerekenler' : 'The password needs'),
  );
  // The entity summary is a sentence.
  await page.goto('/entity/11?tab=aiAgent');
  await everyWay(page, 'entity-summary', (lang) =>
    page.getByText(
      lang === 'tr'
        ? 'Shannon Fintech Ltd şirketinin durumu “Riskli”, risk seviyesi “Çok yüksek” (AML eşleşme).'
        : 'Shannon Fintech Ltd has the status “Risk” and the risk level “Very High” (AML match).',
    ),
  );
  // The questionnaire's questions in the studio's language.
  const row = page.getByRole('table', { name: 'Customers' }).locator('tbody tr').first();
  await page.goto('/customers');
  await row.getByRole('link').click();
  await page.getByRole('tab', { name: 'Questionnaires' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('tab')).toBe('questionnaires');
  await everyWay(page, 'questionnaire', (lang) =>
    page
      .getByRole('tabpanel')
      .getByText(lang === 'tr' ? 'Hesabınızın amacı nedir?' : 'What is the purpose of your account?'),
  );
});
