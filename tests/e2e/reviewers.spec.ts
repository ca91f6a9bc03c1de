/**
 * Two reviewers on the same profile: each sees the other's presence; a status change by one
 * appears live on the other's copy; an edit saved against a version someone else moved meanwhile opens the
 * conflict dialog, keeps what was typed, and applies it again.
 */
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { DEMO, signIn } from './support';

async function freshProfile(request: APIRequestContext, name: string): Promise<number> {
  const login = await request.post('/api/v1/login/', {
    data: { username: DEMO.agent.email, password: DEMO.agent.password },
  });
  const { access } = (await login.json()) as { access: string };
  const created = await request.post('/api/v2/profile', {
    headers: { authorization: `Bearer ${access}` },
    data: { id_card_number: `REV${Date.now()}${Math.floor(Math.random() * 1000)}`, name, gender: null },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: number }).id;
}

async function reviewer(browser: Browser, who: { email: string; password: string }): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: 'en-US' });
  const page = await context.newPage();
  await signIn(page, who);
  return page;
}

test('two reviewers: presence, a live status change, and a conflict that keeps the typed edit', async ({
  browser,
  request,
}) => {
  const id = await freshProfile(request, 'Selin Çakır');
  const a = await reviewer(browser, DEMO.admin);
  const b = await reviewer(browser, DEMO.agent);
  await a.goto(`/profile/${id}`);
  await b.goto(`/profile/${id}`);
  await expect(a.getByRole('heading', { level: 2, name: 'Selin Çakır' })).toBeVisible();
  await expect(b.getByRole('heading', { level: 2, name: 'Selin Çakır' })).toBeVisible();

  // Each sees the other (and not themself).
  const presenceOf = (page: Page) => page.getByRole('list', { name: 'Also open by' });
  await expect(presenceOf(a)).toContainText('Umut Agent');
  await expect(presenceOf(b)).toContainText('Ada Admin');
  await expect(presenceOf(a)).not.toContainText('Ada Admin');

  // B starts editing: the dialog holds the version it opened on.
  await b.getByRole('button', { name: 'Edit' }).click();
  const edit = b.getByRole('dialog', { name: 'Edit profile' });
  await edit.getByLabel('Phone').fill('+90 532 111 2233');
  await edit.getByLabel('Province').fill('Ankara');
  await edit.getByLabel('City').fill('Çankaya');
  await edit.getByLabel('Street').fill('Atatürk Bulvarı 5');

  // A changes the status: B's copy shows it live, with a notice.
  await a.getByRole('button', { name: /^Change status: Created$/ }).click();
  await a.getByRole('option', { name: 'Pending Review' }).click();
  await expect(a.getByText('Customer status changed successfully')).toBeVisible();
  await expect(b.getByRole('button', { name: /^Change status: Pending Review$/ })).toBeVisible();
  await expect(b.getByRole('status').filter({ hasText: 'Ada Admin changed the status.' })).toBeVisible();

  // B saves against the version it opened on: refused, with what changed meanwhile; the typing stays.
  await edit.getByRole('button', { name: 'Save' }).click();
  const conflict = b.getByRole('dialog', { name: 'Changed by someone else meanwhile' });
  await expect(conflict).toBeVisible();
  const status = conflict.getByRole('row', { name: /Status/ });
  await expect(status).toContainText('Created');
  await expect(status).toContainText('Pending Review');
  await expect(edit.getByLabel('Phone')).toHaveValue('+90 532 111 2233');
  await expect(edit.getByLabel('Street')).toHaveValue('Atatürk Bulvarı 5');

  // Applied again against the new version: saved, and A sees it live.
  await conflict.getByRole('button', { name: 'Apply my change again' }).click();
  await expect(b.getByText('Customer updated successfully')).toBeVisible();
  await expect(conflict).toBeHidden();
  await expect(edit).toBeHidden();
  await expect(b.getByRole('button', { name: /^Change status: Pending Review$/ })).toBeVisible();
  await expect(a.getByRole('tabpanel')).toContainText('Atatürk Bulvarı 5');
  await expect(
    a.getByRole('status').filter({ hasText: 'Umut Agent edited the profile details.' }),
  ).toBeVisible();

  // B closes the profile: A's presence list empties at once.
  await b.context().close();
  await expect(presenceOf(a)).toBeHidden();
  await a.context().close();
});
