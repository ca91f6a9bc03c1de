import { expect, type Page, test } from '@playwright/test';
import { path } from './support';

async function signIn(page: Page, email = 'agent@acme.test', password = 'User@2026') {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Customers' })).toBeVisible();
}

test('creating a profile, editing it, and changing its status with a confirmed rejection', async ({
  page,
}) => {
  await signIn(page);
  const idCard = `E2E${Date.now()}`;
  await page.getByRole('button', { name: 'New profile' }).click();
  const create = page.getByRole('dialog', { name: 'New profile' });
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create.getByText('This field can not be empty.')).toBeVisible();
  await create.getByLabel('ID card number').fill(idCard);
  await create.getByLabel('Name').fill('Deniz Testoğlu');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Deniz Testoğlu' })).toBeVisible();
  expect(path(page)).toMatch(/^\/profile\/\d+$/);

  // Edit: the address needs every part.
  await page.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit profile' });
  await edit.getByLabel('City').fill('İzmir');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByText('Please enter address details').first()).toBeVisible();
  await edit.getByLabel('Province').fill('İzmir');
  await edit.getByLabel('Street').fill('Kordon Boyu 1');
  await edit.getByLabel('E-mail').fill('deniz@example.com');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Customer updated successfully')).toBeVisible();
  await expect(edit).toBeHidden();
  await expect(page.getByRole('tabpanel')).toContainText('Kordon Boyu 1, İzmir, İzmir');

  // A status that needs no confirmation, then Rejected with its reason.
  await page.getByRole('button', { name: /^Change status: Created$/ }).click();
  await page.getByRole('option', { name: 'Pending Review' }).click();
  await expect(page.getByText('Customer status changed successfully')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Change status: Pending Review$/ })).toBeVisible();

  await page.getByRole('button', { name: /^Change status: Pending Review$/ }).click();
  await page.getByRole('option', { name: 'Rejected' }).click();
  const confirm = page.getByRole('dialog', { name: 'Change the status to Rejected?' });
  await confirm.getByLabel('Reason').fill('too short');
  await confirm.getByRole('button', { name: 'Change status' }).click();
  await expect(confirm.getByText('Too short: at least 10 characters.')).toBeVisible();
  await confirm.getByLabel('Reason').fill('The identity card photo is forged.');
  await confirm.getByRole('button', { name: 'Change status' }).click();
  await expect(page.getByRole('button', { name: /^Change status: Rejected$/ })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Logs' })).toContainText('Rejected');
});

test('quick add creates a qa_ profile; notes keep 10 to 200 characters; Ask AI and the help desk answer', async ({
  page,
}) => {
  await signIn(page);
  await page.getByRole('button', { name: 'Quick add' }).click();
  await expect.poll(() => path(page)).toMatch(/^\/profile\/\d+$/);
  await expect(page.getByRole('tabpanel')).toContainText(/qa_[A-Za-z0-9]{10,20}/);

  const notes = page.getByRole('complementary', { name: 'Profile sidebar' });
  await notes.getByLabel('New note').fill('short');
  await notes.getByRole('button', { name: 'Add note' }).click();
  await expect(notes.getByText('Too short: at least 10 characters.')).toBeVisible();
  await notes.getByLabel('New note').fill('Called the customer about the missing selfie.');
  await notes.getByRole('button', { name: 'Add note' }).click();
  await expect(notes.getByText('Called the customer about the missing selfie.')).toBeVisible();
  await expect(notes.getByLabel('New note')).toHaveValue('');

  await notes.getByLabel('Question', { exact: true }).fill('What is the status of this customer?');
  await notes.getByRole('button', { name: 'Ask' }).click();
  await expect(notes.getByRole('status')).toContainText('Created');

  await notes
    .getByLabel('Message', { exact: true })
    .fill('The selfie upload keeps failing for this profile.');
  await notes.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Your message was sent to the help desk.')).toBeVisible();
});

test('a Restricted User cannot change a status: the change fails and the status stays', async ({ page }) => {
  await signIn(page, 'viewer@acme.test');
  await page.getByRole('table', { name: 'Customers' }).locator('tbody tr').first().getByRole('link').click();
  const button = page.getByRole('button', { name: /^Change status: / });
  const before = (await button.getAttribute('aria-label')) ?? '';
  await button.click();
  await page
    .getByRole('option', { name: before.endsWith('Approved') ? 'Inactive' : 'Approved', exact: true })
    .click();
  await expect(page.getByText(/^Customer status change failed/)).toBeVisible();
  await expect(button).toHaveAttribute('aria-label', before);
});

test.describe('in Turkish', () => {
  test.use({ locale: 'tr-TR' });

  test('a reviewer works on a profile in Turkish: tabs, a note and a status change', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('E-posta').fill('agent@acme.test');
    await page.getByLabel('Şifre').fill('User@2026');
    await page.getByRole('button', { name: 'Giriş yap' }).click();
    await expect(page.getByRole('heading', { name: 'Müşteriler' })).toBeVisible();
    await page.getByRole('button', { name: 'Hızlı ekle' }).click();
    await expect(page.getByRole('tab', { name: 'Profil Bilgileri' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Anketler' })).toBeVisible();

    const sidebar = page.getByRole('complementary', { name: 'Profil kenar çubuğu' });
    await sidebar.getByLabel('Yeni not').fill('Müşteriyle görüşüldü, belge bekleniyor.');
    await sidebar.getByRole('button', { name: 'Not ekle' }).click();
    await expect(sidebar.getByText('Müşteriyle görüşüldü, belge bekleniyor.')).toBeVisible();

    await page.getByRole('button', { name: /^Durumu değiştir: Oluşturuldu$/ }).click();
    await page.getByRole('option', { name: 'İnceleme bekleniyor' }).click();
    await expect(page.getByText('Müşteri durumu başarıyla değiştirildi')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('button', { name: /^Durumu değiştir: İnceleme bekleniyor$/ })).toBeVisible();
  });
});
