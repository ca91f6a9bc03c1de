import type { Browser, Page } from '@playwright/test';
import { answerAndTalk, Contexts, endWithStatus, goOnline, joinQueue, playing } from './callSupport';
import { expect, test } from './cspGuard';
import { DEMO, signIn } from './support';

/**
 * Answering from every screen: the ring dialog answers into a working call on any studio route,
 * profile tabs included, and the call survives moves to other screens and a language change. Moves inside the
 * studio go through the history (as its links do), never a reload: the socket and the call desk must stay.
 */
// E2E_TIME_SCALE (callSupport.ts) stretches the test's time too on a loaded machine.
test.describe.configure({ mode: 'serial', timeout: 180_000 * Number(process.env.E2E_TIME_SCALE ?? 1) });

const PROFILE = 3;
const contexts = new Contexts();
const newPage = (browser: Browser) => contexts.page(browser);

test.afterEach(async () => {
  await contexts.closeAll();
});

/** A move inside the studio, as a link does it (no reload). */
async function go(page: Page, path: string) {
  await page.evaluate((to) => window.history.pushState(null, '', to), path);
  await expect(page).toHaveURL(new RegExp(`${path.replace(/[?]/g, '\\?')}$`));
}

/** Counts the WebSockets the page opens from now on. */
function countSockets(page: Page) {
  const counter = { opened: 0 };
  page.on('websocket', () => {
    counter.opened += 1;
  });
  return counter;
}

const tokenOf = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('accounts') ?? '[]')[0].access as string);

/** A fresh join link of the profile, made through the API (as the Video Calls tab does). */
async function apiJoinLink(page: Page, profile: number): Promise<string> {
  const response = await page.request.post('/api/v2/profile/url', {
    headers: { authorization: `Bearer ${await tokenOf(page)}` },
    data: { profile },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { url: string }).url;
}

const ring = (agent: Page) => agent.getByRole('alertdialog');

test('the README walkthrough: answered on the profile’s Video Calls tab, away and back mid-call, recording played there', async ({
  browser,
}) => {
  const agent = await goOnline(await newPage(browser), DEMO.agent);
  const sockets = countSockets(agent);

  // The walkthrough: the join link is made on the Video Calls tab, and the agent stays on it.
  await go(agent, `/profile/${PROFILE}?tab=videoCalls`);
  await agent.getByRole('button', { name: 'Create a join link' }).click();
  const linkField = agent.getByLabel('Customer join link');
  await expect(linkField).toHaveValue(/customer\.html\?token=/);
  const customer = await newPage(browser);
  await joinQueue(customer, await linkField.inputValue());
  await expect(customer.getByTestId('queue-position')).toHaveText(/An agent is free/);
  await expect(ring(agent)).toContainText('Incoming video call');
  // The ring dialog is opaque: its card has a background without transparency (rgb()/oklch() with no alpha).
  const background = await agent
    .locator('.studio-call-ring')
    .evaluate((card) => getComputedStyle(card).backgroundColor);
  expect(background).not.toMatch(/transparent|rgba|\//);
  await answerAndTalk(agent, customer, PROFILE);
  const callUrl = agent.url();

  // An answer and a note saved during the call.
  const question = agent.getByRole('textbox', { name: 'Please state your full name.' });
  await question.fill('Deniz Şahin');
  await question.press('Enter');
  await expect(agent.getByText('Saved', { exact: true })).toBeVisible();
  const note = 'The customer showed the ID card clearly.';
  await agent.getByLabel('A note about the call', { exact: true }).fill(note);
  await agent.getByRole('button', { name: 'Add note' }).click();
  await expect(agent.getByText(note)).toBeVisible();

  // Away to another profile mid-call: "Back to the call" stays, also in Turkish.
  await go(agent, '/profile/5');
  await expect(agent.getByRole('heading', { level: 2 }).first()).toBeVisible();
  await expect(agent.getByRole('button', { name: 'Back to the call' })).toBeVisible();
  await agent.getByRole('combobox', { name: 'Language' }).selectOption('tr');
  await expect(agent.getByRole('button', { name: 'Süren görüşmeye dön' })).toBeVisible();
  await agent.getByRole('combobox', { name: 'Dil' }).selectOption('en-US');
  await agent.getByRole('button', { name: 'Back to the call' }).click();
  // The same call; its address holds the room once the answer's acknowledgement has named it.
  await expect(agent).toHaveURL(new RegExp(`${callUrl.replace(/\/[^/]+\/(\d+)$/, '/[^/]+/$1')}$`));
  await playing(agent, "Customer's video");
  await playing(customer, "The agent's video");
  // What was saved is still there.
  await expect(agent.getByRole('textbox', { name: 'Please state your full name.' })).toHaveValue(
    'Deniz Şahin',
  );
  await expect(agent.getByText(note)).toBeVisible();

  await endWithStatus(agent, 'Complete');
  await expect(customer.getByRole('heading', { name: 'The call has ended' })).toBeVisible();
  await expect(agent.getByText('Video call status updated successfully')).toBeVisible({ timeout: 30_000 });
  await expect(agent.getByText('Call closed')).toBeVisible();
  // Closed: the answers and notes read only, no snapshot to take.
  const side = agent.locator('.studio-call-side');
  await expect(side.getByRole('definition').filter({ hasText: 'Deniz Şahin' })).toBeVisible();
  await expect(side.getByRole('textbox')).toHaveCount(0);
  await expect(side.getByRole('button', { name: 'Add note' })).toHaveCount(0);
  await expect(side.getByRole('button', { name: 'Save a snapshot of the ID' })).toHaveCount(0);

  // The recording plays from the Video Calls tab, with the answer and the note beside it.
  await go(agent, `/profile/${PROFILE}?tab=videoCalls`);
  // This call's row (the tab may first show the list it cached, with earlier calls of the profile, while it reads
  // it again).
  const callId = callUrl.split('/').at(-1);
  const row = agent.getByRole('row').filter({ has: agent.locator(`a[href$="/video/${callId}"]`) });
  await expect(row).toContainText('Complete');
  await row.getByRole('link', { name: 'Watch' }).click();
  const player = agent.getByLabel(/^Recording of call \d+$/);
  await expect(player).toBeVisible();
  await expect
    .poll(() => player.evaluate((v: HTMLVideoElement) => Number.isFinite(v.duration) && v.duration > 0), {
      timeout: 20_000,
    })
    .toBe(true);
  await player.evaluate((v: HTMLVideoElement) => v.play());
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0);
  const entries = agent.getByRole('region', { name: 'Answers and notes' });
  await expect(entries).toContainText('Please state your full name.');
  await expect(entries).toContainText('Deniz Şahin');
  await expect(entries).toContainText(note);

  // One socket all along: into a profile, out of it, a call, a language change.
  expect(sockets.opened).toBe(0);
});

test('answered from a document, the customers list and the dashboard', async ({ browser }) => {
  const agent = await goOnline(await newPage(browser), DEMO.agent);
  const sockets = countSockets(agent);
  // A document page of the first demo profile that has one (the ringing customer's profile may have none).
  let documentPath = '';
  for (let profile = 1; profile <= 20 && !documentPath; profile++) {
    const documents = await agent.request.get(`/api/v2/profile/${profile}/documents`, {
      headers: { authorization: `Bearer ${await tokenOf(agent)}` },
    });
    const [document] = documents.ok() ? ((await documents.json()) as { id: number }[]) : [];
    if (document) documentPath = `/profile/${profile}/document/${document.id}`;
  }
  expect(documentPath).not.toBe('');

  for (const [path, title] of [
    // The document page is titled by its document's kind: any title but the calls page's it came from.
    [documentPath, '^(?!Calls )'],
    ['/customers', 'Customers'],
    ['/dashboard', 'Dashboard'],
  ] as const) {
    await go(agent, path);
    await expect(agent).toHaveTitle(new RegExp(title));
    const customer = await newPage(browser);
    await joinQueue(customer, await apiJoinLink(agent, PROFILE));
    await expect(ring(agent)).toContainText('Incoming video call');
    await expect(agent).toHaveURL(new RegExp(`${path}$`));
    await answerAndTalk(agent, customer, PROFILE);
    await endWithStatus(agent, 'Complete');
    await expect(agent.getByText('Call closed')).toBeVisible({ timeout: 30_000 });
    await customer.context().close();
  }
  expect(sockets.opened).toBe(0);
});

test('moving /dashboard → /profile/3 → /calls opens no new WebSocket', async ({ browser }) => {
  const page = await newPage(browser);
  await signIn(page, DEMO.agent);
  await go(page, '/dashboard');
  await expect(page).toHaveTitle(/Dashboard/);
  const sockets = countSockets(page);
  await go(page, `/profile/${PROFILE}`);
  await expect(page.getByRole('tablist')).toBeVisible();
  await go(page, '/calls');
  await expect(page).toHaveTitle(/Calls/);
  await go(page, `/profile/${PROFILE}/amlHistory`);
  await expect(page).toHaveTitle(/AML history/);
  await go(page, '/dashboard');
  await expect(page).toHaveTitle(/Dashboard/);
  expect(sockets.opened).toBe(0);
});
