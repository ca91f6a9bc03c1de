/**
 * Two users in two browsers. A writes a note that mentions B, picking B from the @ autocomplete with
 * the keyboard; B's bell count rises live, without a reload; B opens the notification and lands on the profile,
 * and the count goes back down. In en-US and in Turkish.
 */
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { DEMO, signIn, tokenOf } from './support';

const shots = process.env.MENTIONS_SCREENSHOTS;

const TEXTS = {
  'en-US': {
    noteBox: 'New note',
    add: 'Add note',
    suggestions: 'Colleagues to mention',
    bell: 'Notifications',
    bellUnread: 'Notifications: 1 unread',
    mentioned: (profile: string) => `Ada Admin mentioned you on ${profile}`,
    markAll: 'Mark all read',
  },
  tr: {
    noteBox: 'Yeni not',
    add: 'Not ekle',
    suggestions: 'Bahsedilecek iş arkadaşları',
    bell: 'Bildirimler',
    bellUnread: 'Bildirimler: 1 okunmamış',
    mentioned: (profile: string) => `Ada Admin, ${profile} profilinde sizden bahsetti`,
    markAll: 'Tümünü okundu işaretle',
  },
} as const;

async function freshProfile(request: APIRequestContext, name: string): Promise<number> {
  const access = await tokenOf(request, DEMO.admin);
  const created = await request.post('/api/v2/profile', {
    headers: { authorization: `Bearer ${access}` },
    data: { id_card_number: `MEN${Date.now()}${Math.floor(Math.random() * 1000)}`, name, gender: null },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: number }).id;
}

async function user(
  browser: Browser,
  who: { email: string; password: string },
  language: 'en-US' | 'tr',
  theme: 'light' | 'dark',
): Promise<Page> {
  // The sign-in page follows the browser's language; the studio's is set after it, as a user picks it.
  const context = await browser.newContext({ baseURL, locale: 'en-US' });
  const page = await context.newPage();
  await signIn(page, who);
  await page.evaluate(
    ([lng, th]) => {
      localStorage.setItem('language', lng);
      localStorage.setItem('theme', th);
    },
    [language, theme] as const,
  );
  return page;
}

for (const [language, theme] of [
  ['en-US', 'light'],
  ['tr', 'dark'],
] as const) {
  test(`a mention rings the colleague's bell live and leads to the profile (${language})`, async ({
    browser,
    request,
  }) => {
    const text = TEXTS[language];
    const name = language === 'tr' ? 'Çağla Öztürk' : 'Maya Lindqvist';
    const id = await freshProfile(request, name);
    // B starts with nothing unread.
    const agentToken = await tokenOf(request, DEMO.agent);
    await request.post('/api/v2/notifications/read_all', {
      headers: { authorization: `Bearer ${agentToken}` },
    });

    const b = await user(browser, DEMO.agent, language, theme);
    await b.goto('/customers');
    const bellOfB = b.getByTestId('notification-bell');
    await expect(bellOfB).toHaveAccessibleName(text.bell);

    const a = await user(browser, DEMO.admin, language, theme);
    await a.goto(`/profile/${id}`);
    await expect(a.getByRole('heading', { level: 2, name })).toBeVisible();
    const box = a.getByRole('combobox', { name: text.noteBox });
    await box.click();
    await box.pressSequentially('Please check the selfie, @umu');
    const list = a.getByRole('listbox', { name: text.suggestions });
    await expect(list.getByRole('option', { name: /Umut Agent/ })).toBeVisible();
    if (shots) await a.screenshot({ path: `${shots}/mentions-autocomplete-${language}-${theme}.png` });
    await box.press('Enter');
    await expect(box).toHaveValue('Please check the selfie, @agent ');
    await expect(list).toBeHidden();
    await box.pressSequentially('thanks');
    await a.getByRole('button', { name: text.add }).click();
    await expect(a.getByRole('list').getByText('Please check the selfie, @agent thanks')).toBeVisible();

    // B's bell rises live, without a reload.
    await expect(bellOfB).toHaveAccessibleName(text.bellUnread);
    await bellOfB.click();
    const panel = b.getByRole('region', { name: text.bell });
    const item = panel.getByRole('menuitem', { name: new RegExp(text.mentioned(name)) });
    await expect(item).toBeVisible();
    await expect(item).toContainText('Please check the selfie, @agent thanks');
    if (shots) await b.screenshot({ path: `${shots}/mentions-bell-${language}-${theme}.png` });
    await item.click();
    await expect(b).toHaveURL(new RegExp(`/profile/${id}$`));
    await expect(b.getByRole('heading', { level: 2, name })).toBeVisible();
    await expect(bellOfB).toHaveAccessibleName(text.bell);
    await bellOfB.click();
    await expect(panel.getByRole('button', { name: text.markAll })).toBeDisabled();
    await a.context().close();
    await b.context().close();
  });
}
