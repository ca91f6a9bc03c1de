import type { Page } from '@playwright/test';
import type { CallQuality } from '#contract/callQuality';
import { answerAndTalk, Contexts, endWithStatus, goOnline, joinLink, joinQueue } from './callSupport';
import { expect, test } from './cspGuard';
import { DEMO, tokenOf } from './support';

/**
 * Both sides of a live call measure what they receive (Chromium's fake camera), the agent sees
 * both sides' figures in the call's header (the customer's told live by the server), and both sides' samples are
 * stored with the call.
 */
test.describe.configure({ mode: 'serial', timeout: 240_000 * Number(process.env.E2E_TIME_SCALE ?? 1) });

const shots = process.env.QUALITY_SCREENSHOTS;
const PROFILE = 5;
const contexts = new Contexts();

test.afterEach(async () => {
  await contexts.closeAll();
});

/** A part of the call screen in both languages and themes (only when QUALITY_SCREENSHOTS is set). */
/**
 * The page's browser reports the video it receives at this size (what a weak camera or link gives): the studio's
 * own path (getStats → sample → call machine → views) runs on it unchanged.
 */
async function receivesVideoAt(page: Page, width: number, height: number) {
  await page.addInitScript(
    ([frameWidth, frameHeight]) => {
      const original = RTCPeerConnection.prototype.getStats;
      RTCPeerConnection.prototype.getStats = async function (this: RTCPeerConnection, ...args: []) {
        const report = await original.apply(this, args);
        const scaled = new Map<string, unknown>();
        for (const [id, entry] of report as Map<string, { type: string; kind?: string }>)
          scaled.set(
            id,
            entry.type === 'inbound-rtp' && entry.kind === 'video'
              ? { ...entry, frameWidth, frameHeight }
              : entry,
          );
        return scaled as unknown as RTCStatsReport;
      };
    },
    [width, height] as const,
  );
}

async function shoot(agent: Page, selector: string, name: string) {
  if (!shots) return;
  const part = agent.locator(selector);
  for (const [lang, label] of [
    ['en-US', 'Language'],
    ['tr', 'Dil'],
  ] as const) {
    if (lang === 'tr') await agent.getByRole('combobox', { name: 'Language' }).selectOption('tr');
    for (const theme of ['light', 'dark'] as const) {
      await agent.evaluate((on) => document.body.classList.toggle('bp6-dark', on), theme === 'dark');
      await part.screenshot({ path: `${shots}/${name}-${lang}-${theme}.png` });
    }
    if (lang === 'tr') await agent.getByRole('combobox', { name: label }).selectOption('en-US');
  }
  await agent.evaluate(() => document.body.classList.remove('bp6-dark'));
}

test('the agent sees the call quality live, and both sides’ samples are stored with the call', async ({
  browser,
}) => {
  const agent = await goOnline(await contexts.page(browser), DEMO.agent);
  const link = await joinLink(agent, PROFILE);
  const customer = await contexts.page(browser);
  await joinQueue(customer, link);
  await expect(agent.getByRole('alertdialog')).toContainText('Incoming video call');
  await answerAndTalk(agent, customer, PROFILE);
  const callId = Number(/\/(\d+)$/.exec(agent.url())?.[1]);

  // The figures of what each side receives: the fake camera's 640×480 (or a step down while the bitrate ramps
  // up), its frame rate, the loss and the bitrate; the customer's come from their page through the server.
  const panel = agent.getByRole('region', { name: 'Call quality' });
  for (const name of ['You receive', 'Customer receives']) {
    const figures = panel.getByRole('list', { name });
    await expect(figures).toContainText(/\d+×\d+/, { timeout: 20_000 });
    await expect(figures).toContainText(/\d+ fps/);
    await expect(figures).toContainText(/Loss [\d.,]+ %/);
    await expect(figures).toContainText(/\d[\d,.]* kbit\/s/);
  }
  await shoot(agent, '.studio-call-stage', 'call-quality');

  // Both sides send their samples while the call goes on.
  const token = await tokenOf(agent.request, DEMO.agent);
  const read = async () =>
    (await (
      await agent.request.get(`/api/v2/videocall/${callId}/quality`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as CallQuality;
  await expect
    .poll(
      async () => {
        const quality = await read();
        return [quality.agent?.count ?? 0, quality.customer?.count ?? 0].map((n) => n >= 2);
      },
      { timeout: 30_000 },
    )
    .toEqual([true, true]);
  const quality = await read();
  for (const side of [quality.agent, quality.customer]) {
    expect(side?.height.max).toBeGreaterThan(0);
    expect(side?.fps.max).toBeGreaterThan(0);
    expect(side?.kbps.max).toBeGreaterThan(0);
  }

  await endWithStatus(agent, 'Complete');
  await expect(agent.getByText('Video call status updated successfully')).toBeVisible({ timeout: 30_000 });
});

test('a poor picture is flagged live and the end screen offers Bad quality, which the agent takes', async ({
  browser,
}) => {
  const agent = await contexts.page(browser);
  // The agent's browser reports the received video at 320×240.
  await receivesVideoAt(agent, 320, 240);
  await goOnline(agent, DEMO.agent);
  const link = await joinLink(agent, PROFILE);
  const customer = await contexts.page(browser);
  await joinQueue(customer, link);
  await expect(agent.getByRole('alertdialog')).toContainText('Incoming video call');
  await answerAndTalk(agent, customer, PROFILE);
  const callId = Number(/\/(\d+)$/.exec(agent.url())?.[1]);

  const resolution = agent.getByRole('list', { name: 'You receive' }).locator('[data-quality="height"]');
  await expect(resolution).toContainText('320×240', { timeout: 20_000 });
  await expect(resolution).toHaveAttribute('data-poor', 'true');
  await expect(resolution.getByRole('img', { name: 'below the threshold' })).toBeVisible();
  // Three samples make a verdict (one every 3 s): the live flag the end screen's offer reads too.
  await expect(
    agent.getByRole('list', { name: 'You receive' }).locator('[data-issue="picture"]'),
  ).toBeVisible({
    timeout: 20_000,
  });
  await agent.getByRole('button', { name: 'Hang up' }).click();
  const offer = agent.getByText('Picture quality was poor: end as Bad quality?');
  await expect(offer).toBeVisible({ timeout: 20_000 });
  await shoot(agent, '.studio-call-end', 'call-end-offer');
  await agent.getByRole('button', { name: 'Use it' }).click();
  await expect(agent.getByRole('radio', { name: 'Bad quality', exact: true })).toBeChecked();
  await expect(offer).toBeHidden();
  await agent.getByRole('button', { name: 'Save status' }).click();
  await expect(agent.getByText('Video call status updated successfully')).toBeVisible({ timeout: 30_000 });

  const token = await tokenOf(agent.request, DEMO.agent);
  const held = await agent.request.get(`/api/v2/videocall/${callId}/quality`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const quality = (await held.json()) as CallQuality;
  expect(quality.agent?.height.max).toBe(240);
  expect(quality.agent?.issues).toContain('picture');
  const call = await agent.request.get(`/api/v2/videocall/${callId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(await call.json()).toMatchObject({ status: 6 });
});

test("a poor picture at the customer's end is shown to the agent and offered as the abort reason", async ({
  browser,
}) => {
  // The customer's browser reports the received video at 320×240, the agent's at the camera's 640×480: each
  // side's figures are the test's, not the machine's (on a busy machine the customer's encoder lowers its own
  // picture for the CPU, and the agent then really receives 320×240).
  const agentPage = await contexts.page(browser);
  await receivesVideoAt(agentPage, 640, 480);
  const agent = await goOnline(agentPage, DEMO.agent);
  const link = await joinLink(agent, PROFILE);
  const customer = await contexts.page(browser);
  await receivesVideoAt(customer, 320, 240);
  await joinQueue(customer, link);
  await expect(agent.getByRole('alertdialog')).toContainText('Incoming video call');
  await answerAndTalk(agent, customer, PROFILE);

  const theirs = agent.getByRole('list', { name: 'Customer receives' });
  const resolution = theirs.locator('[data-quality="height"]');
  await expect(resolution).toContainText('320×240', { timeout: 20_000 });
  await expect(resolution).toHaveAttribute('data-poor', 'true');
  // Three samples of the customer make a verdict over the call so far.
  await expect(theirs.locator('[data-issue="picture"]')).toContainText('Poor picture', { timeout: 30_000 });
  // The customer's poor picture is theirs alone: the agent's side shows what the agent receives.
  await expect(
    agent.getByRole('list', { name: 'You receive' }).locator('[data-quality="height"]'),
  ).toContainText('640×480');
  await shoot(agent, '.studio-call-stage', 'call-quality-customer-poor');
  await agent.getByRole('button', { name: 'Hang up' }).click();
  const offer = agent.getByText('Picture quality was poor: end as Bad quality?');
  await expect(offer).toBeVisible({ timeout: 20_000 });
  await agent.getByRole('button', { name: 'Use it' }).click();
  await expect(agent.getByRole('radio', { name: 'Bad quality', exact: true })).toBeChecked();
  await agent.getByRole('button', { name: 'Save status' }).click();
  await expect(agent.getByText('Video call status updated successfully')).toBeVisible({ timeout: 30_000 });
});
