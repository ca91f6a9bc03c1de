import { answerAndTalk, Contexts, goOnline, joinLink, joinQueue } from './callSupport';
import { expect, test } from './cspGuard';
import { DEMO, signIn } from './support';

/**
 * In the studio: whoever may manage calls closes an agent's call from the agents board, with a
 * status and a reason. The agent's call ends with the reason shown, the customer hears the call has ended, and
 * the board shows the agent free again.
 */
test.describe.configure({ timeout: 180_000 * Number(process.env.E2E_TIME_SCALE ?? 1) });

const PROFILE = 4;
const contexts = new Contexts();

test.afterEach(async () => {
  await contexts.closeAll();
});

test('an admin closes an agent’s call from the board, with a status and a reason', async ({ browser }) => {
  const agent = await goOnline(await contexts.page(browser), DEMO.agent);
  const link = await joinLink(agent, PROFILE);
  const customer = await contexts.page(browser);
  await joinQueue(customer, link);
  await answerAndTalk(agent, customer, PROFILE);

  const admin = await contexts.page(browser);
  await signIn(admin, DEMO.admin);
  await admin.goto('/calls');
  const board = admin.getByRole('table', { name: 'Agents' });
  const close = board.getByRole('button', { name: /^Close call \d+ of / });
  await expect(close).toBeVisible();
  await close.click();

  const dialog = admin.getByRole('dialog', { name: /^Close call \d+$/ });
  await expect(dialog.getByLabel('Status of the call')).toHaveValue('8');
  await dialog.getByLabel('Status of the call').selectOption({ label: 'Incomplete' });
  // Too short a reason is refused in place; nothing is sent.
  await dialog.getByLabel('Reason').fill('short');
  await dialog.getByRole('button', { name: 'Close the call' }).click();
  await expect(dialog.getByText('at least 10', { exact: false })).toBeVisible();
  await dialog.getByLabel('Reason').fill('The agent cannot finish this call');
  await dialog.getByRole('button', { name: 'Close the call' }).click();
  await expect(dialog).toBeHidden();
  await expect(admin.getByText(/^Call \d+ is closed\.$/)).toBeVisible();

  // The agent is told why and is free; the customer hears the call has ended; the board agrees.
  await expect(agent.getByText('The call was closed: ', { exact: false })).toBeVisible();
  await expect(customer.getByText('The call has ended')).toBeVisible();
  await expect(close).toBeHidden();
  await expect(board.getByRole('row').filter({ hasText: /Call \d+/ })).toHaveCount(0);
});
