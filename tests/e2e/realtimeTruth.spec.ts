import { expect, test } from '@playwright/test';
import {
  answerAndTalk,
  availability,
  Contexts,
  endWithStatus,
  goOnline,
  joinLink,
  joinQueue,
} from './callSupport';
import { OwnServer } from './ownServer';
import { DEMO, signIn } from './support';

/**
 * What every screen shows is what the server holds, in real browsers: an agent who signs in a second
 * time, and a server that restarts under a live queue.
 */
test.describe.configure({ mode: 'serial', timeout: 300_000 });

const PROFILE = 5;
const contexts = new Contexts();

test.afterEach(async () => {
  await contexts.closeAll();
});

test('an agent who signs in again elsewhere keeps ringing and answers; every screen agrees, and Offline once no studio is open', async ({
  browser,
  request,
}) => {
  const supervisor = await contexts.page(browser);
  await signIn(supervisor, DEMO.admin);
  await supervisor.goto('/calls');
  const row = supervisor.getByRole('row').filter({ hasText: 'Umut Agent' });

  const first = await goOnline(await contexts.page(browser), DEMO.agent);
  await expect(row).toContainText('Online');

  // The same account signs in again: in a second browser (another device) and from an API client.
  const second = await contexts.page(browser);
  await signIn(second, DEMO.agent);
  const api = await request.post('/api/v1/login/', {
    data: { username: DEMO.agent.email, password: DEMO.agent.password },
  });
  expect(api.status()).toBe(200);
  // The agent is live in the first browser: the status holds, on every screen.
  await expect(availability(second)).toHaveAccessibleName('Availability: Online');
  await expect(availability(first)).toHaveAccessibleName('Availability: Online');
  await expect(row).toContainText('Online');

  // A customer calls: both of the agent's browsers ring; the first answers and the call runs.
  const link = await joinLink(first, PROFILE);
  const customer = await contexts.page(browser);
  await joinQueue(customer, link);
  await expect(first.getByRole('alertdialog')).toContainText('Incoming video call');
  await expect(second.getByRole('alertdialog')).toContainText('Incoming video call');
  await answerAndTalk(first, customer, PROFILE);
  await expect(second.getByRole('alertdialog')).toHaveCount(0);
  await expect(first.getByText('Set your status to Online to answer')).toHaveCount(0);
  await expect(row).toContainText(/Call \d+/);
  await endWithStatus(first, 'Complete');
  await expect(first.getByText('Video call status updated successfully')).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText('Online');

  // Both browsers closed (within the grace period a dropped studio has), then a new sign-in from an API
  // client: nobody is live, so the new session starts Offline, and the board shows it at once.
  await first.context().close();
  await second.context().close();
  // The server has seen both studios go (closing a browser reaches it a moment later): the dev endpoint
  // counts, and closes, the account's sockets still open.
  await expect
    .poll(async () => (await request.post(`/api/dev/sockets/drop?email=${DEMO.agent.email}`)).json())
    .toEqual({ dropped: 0 });
  const again = await request.post('/api/v1/login/', {
    data: { username: DEMO.agent.email, password: DEMO.agent.password },
  });
  expect(again.status()).toBe(200);
  await expect(row).toContainText('Offline', { timeout: 5_000 });
});

test('after the server crashes and starts again, the studio reconnects, the agent is still Online and answers the waiting customer', async ({
  browser,
}) => {
  // Its own server, so it can be killed and started again on the same data and port.
  const server = new OwnServer(7);
  const own = new Contexts(server.url);
  try {
    await server.start();
    const agent = await goOnline(await own.page(browser), DEMO.agent);
    const link = await joinLink(agent, PROFILE);
    const customer = await own.page(browser);
    await joinQueue(customer, link);
    await expect(customer.getByTestId('queue-position')).toHaveText(/You are number 1 in the queue/);
    await expect(agent.getByRole('alertdialog')).toContainText('Incoming video call');

    server.kill();
    await expect(agent.getByText('Connection lost').first()).toBeVisible();
    // Its icon is drawn: loaded while the server was there, not asked of the server that is gone.
    await expect(
      agent.locator('.studio-connection-banner [data-icon="offline"] path').first(),
    ).toBeAttached();
    // The customer is told too: the place shown before the drop is not claimed while nobody can confirm it.
    await expect(customer.getByTestId('queue-position')).toHaveText(/The connection was lost/);
    await server.start();

    // Back: the banner goes, the status is still the server's Online, and the customer kept their place, as
    // the new server tells it (the agent can only answer a customer who is there).
    await expect(agent.getByText('Connection lost')).toHaveCount(0, { timeout: 30_000 });
    await expect(availability(agent)).toHaveAccessibleName('Availability: Online');
    await expect(customer.getByTestId('queue-position')).toHaveText(/You are number 1 in the queue/, {
      timeout: 30_000,
    });
    await expect(agent.getByTestId('waiting-count')).toHaveText('1');
    await answerAndTalk(agent, customer, PROFILE);
  } finally {
    await own.closeAll();
    server.remove();
  }
});
