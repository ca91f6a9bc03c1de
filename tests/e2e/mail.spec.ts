/**
 * The Admin's Mail tab: a message the server queued is listed with its status, and each template
 * previews in both languages (the HTML part in a sandboxed frame, the text part beside it).
 */
import { expect, test } from './cspGuard';
import { DEMO, signIn } from './support';

test('an Admin sees the company’s e-mail and previews a template in Turkish', async ({ page, request }) => {
  // A message of the company: the agent's password reset code (the local stand-in sends it at once).
  const sent = await request.post('/api/v2/user/reset_password/send', { data: { email: DEMO.agent.email } });
  expect(sent.status()).toBe(200);
  await signIn(page);
  await page.goto('/admin?tab=mail');
  const table = page.getByRole('table', { name: 'E-mail' });
  const row = table.getByRole('row').filter({ hasText: DEMO.agent.email }).first();
  await expect(row).toContainText('Your password reset code');
  await expect(row).toContainText('Sent');

  await page.getByLabel('Template', { exact: true }).selectOption('password_reset');
  await page.getByLabel('Template language', { exact: true }).selectOption('tr');
  await expect(page.getByText('Parola sıfırlama kodunuz').first()).toBeVisible();
  const frame = page.frameLocator('iframe[title="HTML part of the e-mail"]');
  await expect(frame.getByRole('heading', { name: 'Parola sıfırlama kodunuz' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Plain-text part' })).toContainText('123456');
});
