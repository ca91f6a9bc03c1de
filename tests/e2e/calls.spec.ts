import type { Browser, Page } from '@playwright/test';
import {
  answerAndTalk,
  Contexts,
  endWithStatus,
  goOnline,
  joinLink,
  joinQueue,
  playing,
} from './callSupport';
import { expect, test } from './cspGuard';
import { DEMO, signIn } from './support';
import { videoFrameRate } from './webmFrames';

/**
 * Live video calls end to end: a customer and two Online agents in separate browser contexts with
 * Chromium's fake camera, one real simple-peer call through the reference server, the recording uploaded and
 * played back on the profile.
 */
// 240 s: the first test (two agents, a call with questions, a note, a snapshot, the wrap-up, the upload and the
// playback) took 1.4 min, then 2.1 min in CI beside a busy second worker.
test.describe.configure({ mode: 'serial', timeout: 240_000 });

const PROFILE = 3;
const contexts = new Contexts();
const newPage = (browser: Browser) => contexts.page(browser);
const onlineAgent = async (browser: Browser, who: { email: string; password: string }) =>
  goOnline(await newPage(browser), who);
const inCall = (agent: Page, customer: Page) => answerAndTalk(agent, customer, PROFILE);

test.afterEach(async () => {
  await contexts.closeAll();
});

/** An Online agent in a call with a customer who joined through the profile's link. */
async function callInProgress(browser: Browser) {
  const agent = await onlineAgent(browser, DEMO.agent);
  const link = await joinLink(agent, PROFILE);
  const customer = await newPage(browser);
  await joinQueue(customer, link);
  await expect(agent.getByRole('alertdialog')).toContainText('Incoming video call');
  await inCall(agent, customer);
  return { agent, customer };
}

/** Fails every recording upload of the page until the returned function is called. */
async function breakUploads(page: Page, times = Number.POSITIVE_INFINITY) {
  let left = times;
  await page.route('**/api/v2/videocall/*', async (route) => {
    if (route.request().method() === 'PATCH' && left > 0) {
      left -= 1;
      return route.abort('connectionreset');
    }
    return route.continue();
  });
  return () => page.unroute('**/api/v2/videocall/*');
}

test('a customer calls in, one of two Online agents answers, the recording lands on the profile', async ({
  browser,
}) => {
  const agent = await onlineAgent(browser, DEMO.agent);
  const other = await onlineAgent(browser, DEMO.admin);
  const link = await joinLink(agent, PROFILE);

  const customer = await newPage(browser);
  await joinQueue(customer, link);
  await expect(customer.getByTestId('queue-position')).toHaveText(/You are number 1 in the queue/);

  // Both agents ring, and see the customer waiting on the calls page.
  for (const page of [agent, other]) {
    await expect(page.getByRole('alertdialog')).toContainText('Incoming video call');
    await expect(page.getByTestId('waiting-count')).toHaveText('1');
  }
  // The other agent is told at once, by a toast of 6 s, while the answering agent's call still connects: the
  // toast is looked for from the answer on, not once the videos play (that can take longer than 6 s).
  await Promise.all([
    inCall(agent, customer),
    expect(other.getByText('Call Already Answered')).toBeVisible(),
  ]);
  await expect(other.getByRole('alertdialog')).toHaveCount(0);
  await expect(other.getByTestId('waiting-count')).toHaveText('0');

  // Beside the video: a question answered, a note, and a snapshot of the ID saved as a document page.
  const question = agent.getByRole('textbox', { name: 'Please state your full name.' });
  await question.fill('Deniz Şahin');
  await question.press('Enter');
  await expect(agent.getByText('Saved', { exact: true })).toBeVisible();
  await agent
    .getByLabel('A note about the call', { exact: true })
    .fill('The customer showed the ID card clearly.');
  await agent.getByRole('button', { name: 'Add note' }).click();
  await expect(agent.getByText('The customer showed the ID card clearly.')).toBeVisible();
  await agent.getByRole('button', { name: 'Save a snapshot of the ID' }).click();
  await expect(agent.getByText('Snapshot saved as a document page')).toBeVisible();

  await endWithStatus(agent, 'Complete');
  await expect(customer.getByRole('heading', { name: 'The call has ended' })).toBeVisible();
  await expect(agent.getByText('Video call status updated successfully')).toBeVisible({ timeout: 30_000 });
  await expect(agent.getByText('Call closed')).toBeVisible();

  await agent.getByRole('link', { name: 'Watch the recording' }).click();
  const player = agent.getByLabel(/^Recording of call \d+$/);
  await expect(player).toBeVisible();
  await expect
    .poll(() => player.evaluate((v: HTMLVideoElement) => Number.isFinite(v.duration) && v.duration > 0), {
      timeout: 20_000,
    })
    .toBe(true);
  await player.evaluate((v: HTMLVideoElement) => v.play());
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(0);
  // The recorder draws both sides 30 times a second (docs/decisions/0185-recording-drawn-at-a-cameras-rate.md): the recording has at most that many frames
  // a second. Drawing every 10 ms, as RecordRTC does by default, gave 32 here from cameras that give 20.
  const recording = await agent.request.get((await player.getAttribute('src')) ?? '');
  const frameRate = videoFrameRate(await recording.body());
  // Frames at all; how many the encoder keeps depends on the load (a loaded CI machine dropped most of them).
  expect(frameRate).toBeGreaterThan(0);
  expect(frameRate).toBeLessThanOrEqual(31);

  await agent.goto(`/profile/${PROFILE}?tab=videoCalls`);
  await expect(agent.getByRole('cell', { name: 'Complete', exact: true }).first()).toBeVisible();
  const token = await agent.evaluate(() => JSON.parse(localStorage.getItem('accounts') ?? '[]')[0].access);
  const documents = await agent.request.get(`/api/v2/profile/${PROFILE}/documents`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect((await documents.json()) as { upload_source: string; stream: boolean }[]).toContainEqual(
    expect.objectContaining({ upload_source: 'video_call', stream: true }),
  );
});

test('a failed upload keeps the recording and Try Again sends it', async ({ browser }) => {
  const { agent } = await callInProgress(browser);

  await breakUploads(agent, 1);
  await endWithStatus(agent, 'Incomplete');
  const error = agent.getByRole('alert').filter({ hasText: 'Video Upload Error' });
  await expect(error).toBeVisible({ timeout: 30_000 });
  await expect(error.getByRole('button', { name: 'Download File' })).toBeVisible();
  await error.getByRole('button', { name: 'Try Again' }).click();
  await expect(agent.getByText('Video call status updated successfully')).toBeVisible({ timeout: 30_000 });
  await expect(agent.getByText('Call closed')).toBeVisible();
});

test('a socket killed mid-call shows Connection lost and recovers without ending the call', async ({
  browser,
}) => {
  const { agent } = await callInProgress(browser);

  const dropped = await agent.request.post(`/api/dev/sockets/drop?email=${DEMO.agent.email}`);
  expect((await dropped.json()).dropped).toBeGreaterThan(0);
  await expect(agent.getByText('Connection lost').first()).toBeVisible();
  await expect(agent.getByText('Connection lost')).toHaveCount(0, { timeout: 20_000 });

  // The call went on, and the agent is still Online.
  await playing(agent, "Customer's video");
  await expect(agent.getByRole('button', { name: /^Availability:/ })).toHaveAccessibleName(
    'Availability: Online',
  );

  // Then the agent switches the language mid-call, and back: the same call goes on (the desk and its socket
  // are not rebuilt for a new language).
  await agent.getByRole('combobox', { name: 'Language' }).selectOption('tr');
  await expect(agent.getByRole('button', { name: 'Görüşmeyi bitir' })).toBeVisible();
  await agent.getByRole('combobox', { name: 'Dil' }).selectOption('en-US');
  await playing(agent, "Customer's video");
  await endWithStatus(agent, 'Complete');
  await expect(agent.getByText('Video call status updated successfully')).toBeVisible({ timeout: 30_000 });
});

test('a supervisor watches the queue and the agents move live, without a reload or polling', async ({
  browser,
}) => {
  const supervisor = await newPage(browser);
  await signIn(supervisor, DEMO.admin);
  await supervisor.goto('/calls');
  const waiting = supervisor.getByTestId('stat-waiting');
  await expect(waiting).toHaveText(/^\d+$/);
  const before = Number(await waiting.textContent());
  const requests: string[] = [];
  supervisor.on('request', (request) => {
    if (request.url().includes('/api/')) requests.push(request.url());
  });

  const agent = await onlineAgent(browser, DEMO.agent);
  const link = await joinLink(agent, PROFILE);
  const customer = await newPage(browser);
  await joinQueue(customer, link);
  await expect(waiting).toHaveText(String(before + 1));
  await expect(supervisor.getByTestId('stat-longest')).toHaveText(/^\d+:\d\d$/);

  // The agent goes on a break from the shell: the board shows it.
  const row = supervisor.getByRole('row').filter({ hasText: 'Umut Agent' });
  await expect(row).toContainText('Online');
  const status = agent.getByRole('button', { name: /^Availability:/ });
  await status.click();
  await agent.getByRole('menuitemradio', { name: 'Break' }).click();
  await expect(status).toHaveAccessibleName('Availability: Break');
  await expect(row).toContainText('Break');

  // The customer leaves: the count falls, and today's missed calls rise.
  const missed = Number(await supervisor.getByTestId('stat-missed').textContent());
  await customer.close();
  await expect(waiting).toHaveText(String(before));
  await expect(supervisor.getByTestId('stat-missed')).toHaveText(String(missed + 1));
  expect(requests).toEqual([]);
});

test('a recording whose upload failed survives a reload, uploads from the calls page, and can be deleted', async ({
  browser,
}) => {
  const { agent } = await callInProgress(browser);
  const repair = await breakUploads(agent);
  await endWithStatus(agent, 'Escalated');
  await expect(agent.getByRole('alert').filter({ hasText: 'Video Upload Error' })).toBeVisible({
    timeout: 30_000,
  });
  await repair();

  // A reload loses the page, not the recording: the calls page offers it again.
  await agent.goto('/calls');
  const pending = agent.locator('.studio-calls-pending');
  await expect(pending.getByRole('heading', { name: 'Recordings waiting for upload' })).toBeVisible();
  await pending.getByRole('button', { name: 'Upload' }).first().click();
  await expect(agent.getByText('Video call status updated successfully')).toBeVisible({ timeout: 30_000 });
  await expect(pending).toHaveCount(0);

  // The recording plays on the profile; deleting it asks first, then keeps the call.
  await agent.goto(`/profile/${PROFILE}?tab=videoCalls`);
  await agent.getByRole('row').filter({ hasText: 'Escalated' }).getByRole('link', { name: 'Watch' }).click();
  await expect(agent.getByLabel(/^Recording of call \d+$/)).toBeVisible();
  await agent.getByRole('button', { name: 'Delete video' }).click();
  const dialog = agent.getByRole('dialog', { name: 'Delete this video?' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await agent.getByRole('button', { name: 'Delete video' }).click();
  await dialog.getByRole('button', { name: 'Delete video' }).click();
  await expect(agent.getByText('Video deleted successfully')).toBeVisible();
  await expect(agent).toHaveURL(new RegExp(`/profile/${PROFILE}\\?tab=videoCalls$`));
  await expect(agent.getByRole('row').filter({ hasText: 'Escalated' }).first()).toContainText('None');
});
