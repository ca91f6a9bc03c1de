import { readFileSync } from 'node:fs';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { DEMO, signIn } from './support';

/** The e-mails to an address, newest first, from the server's dev-only outbox. */
async function outbox(request: APIRequestContext, to: string): Promise<{ body?: string }[]> {
  const answer = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
  return (await answer.json()) as { body?: string }[];
}

/** The newest e-mail to an address, once there is one. */
async function newestMail(request: APIRequestContext, to: string): Promise<string> {
  let body = '';
  await expect
    .poll(async () => {
      body = (await outbox(request, to))[0]?.body ?? '';
      return body;
    })
    .not.toBe('');
  return body;
}

/**
 * The one-time code of the newest mail to `to`, once there are more than `seen` mails (how many there were
 * before the step that sends it: an older mail is not taken for the one on its way) and the outbox shows its
 * code (it fills codes in from memory, just after the mail is written).
 */
async function newestCode(request: APIRequestContext, to: string, seen = 0): Promise<string> {
  let code = '';
  await expect
    .poll(async () => {
      const messages = await outbox(request, to);
      code = messages.length > seen ? (/\b(\d{6})\b/.exec(messages[0]?.body ?? '')?.[1] ?? '') : '';
      return code;
    })
    .not.toBe('');
  return code;
}

/** An admin token for set-up steps that are not what a test is about. */
async function adminToken(request: APIRequestContext): Promise<string> {
  const answer = await request.post('/api/v1/login/', {
    data: { username: DEMO.admin.email, password: DEMO.admin.password },
  });
  return ((await answer.json()) as { access: string }).access;
}

/** Invites a user through the API and sets their password through the invitation's code. */
async function invitedUser(request: APIRequestContext, email: string, role: string, password: string) {
  const token = await adminToken(request);
  const created = await request.post('/api/v2/user', {
    headers: { authorization: `Bearer ${token}` },
    data: { password: DEMO.admin.password, first_name: 'Test', last_name: role, username: email, role },
  });
  expect(created.status()).toBe(201);
  const code = await newestCode(request, email);
  const set = await request.post('/api/v2/user/reset_password/submit', {
    data: { email, otp: code, new_password: password },
  });
  expect(set.status()).toBe(200);
}

async function newPage(browser: Browser, locale = 'en-US'): Promise<Page> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, locale });
  return context.newPage();
}

// Each test drives two browser contexts (admin and user) through sign-ins and e-mails: on a loaded 2-core
// machine that can take longer than the default 30 s.
test.describe.configure({ timeout: 60_000 });

const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

test('an admin adds a Restricted User; the invitation sets a password; they may not open /admin', async ({
  page,
  browser,
  request,
}) => {
  const email = `restricted-${unique()}@acme.test`;
  await signIn(page);
  await page.goto('/admin');
  await page.getByRole('button', { name: 'Add user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  await dialog.getByLabel('First name').fill('Rita');
  await dialog.getByLabel('Last name').fill('Stricted');
  await dialog.getByLabel('E-mail (username)').fill(email);
  await dialog.getByLabel('Role').selectOption('Restricted User');
  await dialog.getByRole('button', { name: 'Add and invite' }).click();
  const prompt = page.getByRole('dialog', { name: 'Confirm with your password' });
  await expect(prompt).toContainText('Add Rita Stricted and send the invitation?');
  await prompt.getByLabel('Password').fill('wrong-password');
  await prompt.getByRole('button', { name: 'Confirm' }).click();
  await expect(prompt.getByText('Wrong password')).toBeVisible();
  await prompt.getByLabel('Password').fill(DEMO.admin.password);
  await prompt.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('User successfully created')).toBeVisible();
  await page.getByLabel('Search users').fill(email);
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Restricted User');
  await expect(row).toContainText('Never');

  const link = /(http\S+\/reset-password\?\S+)/.exec(await newestMail(request, email))?.[1] ?? '';
  const invited = await newPage(browser);
  await invited.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  // The invitation is the new user's "Set your password", with the one password rule.
  await expect(invited.getByRole('heading', { name: 'Set your password' })).toBeVisible();
  await expect(invited.getByText('8 or more characters')).toBeVisible();
  await invited.getByLabel('New password', { exact: true }).fill('Invited2026');
  await invited.getByLabel('Confirm the new password').fill('Invited2026');
  await invited.getByRole('button', { name: 'Set password' }).click();
  await expect(
    invited.getByText(
      'The password needs 8 or more characters with an upper-case letter, a lower-case letter and a symbol.',
    ),
  ).toBeVisible();
  await invited.getByLabel('New password', { exact: true }).fill('Invited@2026');
  await invited.getByLabel('Confirm the new password').fill('Invited@2026');
  await invited.getByRole('button', { name: 'Set password' }).click();
  await expect(invited.getByText('Password successfully changed')).toBeVisible();
  await signIn(invited, { email, password: 'Invited@2026' });
  await invited.goto('/admin');
  await expect(invited.getByText('You are not allowed to visit this page.')).toBeVisible();
  await invited.context().close();
});

test.describe('in Turkish', () => {
  test.use({ locale: 'tr-TR' });

  test('zorunlu şifre sıfırlama: yönetici ister, kullanıcı bir sonraki girişte yeni şifre belirler', async ({
    page,
    browser,
    request,
  }) => {
    const email = `reset-${unique()}@acme.test`;
    await invitedUser(request, email, 'User', 'Before@2026');
    await page.goto('/login');
    await page.getByLabel('E-posta', { exact: true }).fill(DEMO.admin.email);
    await page.getByLabel('Şifre', { exact: true }).fill(DEMO.admin.password);
    await page.getByRole('button', { name: 'Giriş yap', exact: true }).click();
    await expect(page.getByRole('navigation', { name: 'Ana gezinme' })).toBeVisible();
    await page.goto(`/admin?search=${encodeURIComponent(email)}`);
    const row = page.getByRole('row').filter({ hasText: email });
    await row.getByRole('button', { name: /için işlemler/ }).click();
    await page.getByRole('menuitem', { name: 'Şifre sıfırlamayı zorunlu kıl' }).click();
    const prompt = page.getByRole('dialog', { name: 'Şifrenizle onaylayın' });
    await prompt.getByLabel('Şifre').fill(DEMO.admin.password);
    await prompt.getByRole('button', { name: 'Onayla' }).click();
    await expect(page.getByText('Kullanıcı başarıyla güncellendi')).toBeVisible();
    await expect(row).toContainText('Şifre sıfırlama gerekli');

    const user = await newPage(browser, 'tr-TR');
    await user.goto('/login');
    await user.getByLabel('E-posta', { exact: true }).fill(email);
    await user.getByLabel('Şifre', { exact: true }).fill('Before@2026');
    await user.getByRole('button', { name: 'Giriş yap', exact: true }).click();
    const dialog = user.getByRole('dialog', { name: 'Şifrenizi değiştirmeniz gerekiyor' });
    // The invitation's mail is there already: the code is in the next one.
    const seen = (await outbox(request, email)).length;
    await dialog.getByRole('button', { name: 'Kod gönder' }).click();
    const code = await newestCode(request, email, seen);
    await dialog.getByLabel('Kod').fill(code);
    await dialog.getByLabel('Yeni şifre', { exact: true }).fill('After@2026');
    await dialog.getByLabel('Yeni şifreyi onaylayın').fill('After@2026');
    await dialog.getByRole('button', { name: 'Şifreyi değiştir' }).click();
    await expect(dialog).toBeHidden();
    await user.getByLabel('E-posta', { exact: true }).fill(email);
    await user.getByLabel('Şifre', { exact: true }).fill('After@2026');
    await user.getByRole('button', { name: 'Giriş yap', exact: true }).click();
    await expect(user.getByRole('navigation', { name: 'Ana gezinme' })).toBeVisible();
    await user.context().close();
  });
});

test('disabling a signed-in user sends their studio back to /login; the audit log shows it and exports CSV', async ({
  page,
  browser,
  request,
}) => {
  const email = `disabled-${unique()}@acme.test`;
  await invitedUser(request, email, 'User', 'Working@2026');
  const user = await newPage(browser);
  await signIn(user, { email, password: 'Working@2026' });

  await signIn(page);
  await page.goto(`/admin?search=${encodeURIComponent(email)}`);
  const row = page.getByRole('row').filter({ hasText: email });
  await row.getByRole('button', { name: /Actions for/ }).click();
  await page.getByRole('menuitem', { name: 'Disable' }).click();
  const prompt = page.getByRole('dialog', { name: 'Confirm with your password' });
  await expect(prompt).toContainText('Their sessions end at once.');
  await prompt.getByLabel('Password').fill(DEMO.admin.password);
  await prompt.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('User successfully disabled')).toBeVisible();
  await expect(row.getByText('No', { exact: true })).toBeVisible();

  // The server closed the user's socket; its reconnect is refused (401) and the session ends.
  await expect(user).toHaveURL(/\/login/, { timeout: 15_000 });
  await user.context().close();

  await page.getByRole('tab', { name: 'Audit log' }).click();
  await page.getByRole('combobox', { name: 'Action' }).selectOption({ label: 'User disabled' });
  await expect(page).toHaveURL(/action=user_disabled/);
  const entry = page.getByRole('row').filter({ hasText: 'User disabled' }).first();
  await expect(entry).toContainText('admin@acme.test');
  await expect(entry).toContainText('Enabled: yes → no');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^audit-log_.*\.csv$/);
  const csv = readFileSync(await file.path(), 'utf8').replace(/^\uFEFF/, '');
  expect(csv.split('\r\n')[0]).toBe('Time,User,Address,Object type,Object id,Action,Changes,Before,After');
  expect(csv).toMatch(
    /admin@acme.test,127\.0\.0\.1,User,\d+,User disabled,Enabled: yes → no,"{""is_active"":true}","{""is_active"":false}"/,
  );
});

test('settings: own details and a password change with the current one', async ({ page, request }) => {
  const email = `settings-${unique()}@acme.test`;
  await invitedUser(request, email, 'Restricted User', 'Settings@2026');
  await signIn(page, { email, password: 'Settings@2026' });
  await page.goto('/settings');
  await page.getByLabel('First name').fill('Selin');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('User successfully updated')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Account menu' })).toContainText('Selin');

  await page.getByLabel('Current password').fill('wrong');
  await page.getByLabel('New password', { exact: true }).fill('Changed@2026');
  await page.getByLabel('Confirm the new password').fill('Changed@2026');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Wrong password' })).toBeVisible();
  await page.getByLabel('Current password').fill('Settings@2026');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password successfully changed')).toBeVisible();
  const login = await request.post('/api/v1/login/', { data: { username: email, password: 'Changed@2026' } });
  expect(login.status()).toBe(200);
});
