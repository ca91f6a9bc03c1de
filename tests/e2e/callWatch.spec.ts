import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type APIRequestContext, chromium, expect, type Locator, test } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../../playwright.config';
import {
  answerAndTalk,
  Contexts,
  endWithStatus,
  goOnline,
  joinLink,
  joinQueue,
  playing,
} from './callSupport';
import { DEMO, signIn, tokenOf } from './support';

/**
 * A supervisor watches a live call (three browsers): both videos play for the supervisor, who sends nothing;
 * the agent sees who watches and reads the whisper; the customer is told a supervisor may join and never sees
 * the whisper; the evidence package lists the watcher and the whisper. Then a wall of four calls at once (a fifth
 * Watch's refusal is the server's rule, tested in tests/server/callWatch.test.ts).
 */
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const PROFILE = 7;
const contexts = new Contexts();

test.afterEach(async () => {
  await contexts.closeAll();
});

test('a supervisor watches a call receive-only, whispers to the agent, and the evidence lists it', async ({
  browser,
  request,
}) => {
  const agent = await goOnline(await contexts.page(browser), DEMO.agent);
  const link = await joinLink(agent, PROFILE);
  const customer = await contexts.page(browser);
  await joinQueue(customer, link);
  await expect(customer.getByTestId('supervisor-notice')).toContainText('A supervisor may join this call');
  await expect(agent.getByRole('alertdialog')).toContainText('Incoming video call');
  await answerAndTalk(agent, customer, PROFILE);
  const callId = Number(/\/(\d+)$/.exec(agent.url())?.[1]);

  const supervisor = await contexts.page(browser);
  // The watcher never asks for a camera or a microphone.
  await supervisor.addInitScript(() => {
    const asked = { count: 0 };
    (window as unknown as { cameraAsked: typeof asked }).cameraAsked = asked;
    const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = (constraints) => {
      asked.count += 1;
      return original(constraints);
    };
  });
  await signIn(supervisor, DEMO.admin);
  await supervisor.goto('/calls');
  await supervisor.getByRole('link', { name: `Watch call ${callId}` }).click();
  await expect(supervisor).toHaveURL(/\/watch$/);
  await playing(supervisor, "Customer's video");
  await playing(supervisor, "Agent's video");
  expect(
    await supervisor.evaluate(
      () => (window as unknown as { cameraAsked: { count: number } }).cameraAsked.count,
    ),
  ).toBe(0);

  // The agent knows at once who watches.
  await expect(agent.getByTestId('call-watchers')).toHaveText('Ada Admin is watching');

  // A whisper reaches the agent alone.
  const whisper = 'Ask for the back of the ID again';
  await supervisor.getByLabel('Whisper to the agent').fill(whisper);
  await supervisor.getByRole('button', { name: 'Send' }).click();
  await expect(agent.getByTestId('call-whispers')).toContainText(`Ada Admin whispers: ${whisper}`);
  await expect(customer.getByTestId('supervisor-notice')).toBeVisible();
  expect(await customer.content()).not.toContain(whisper);

  // Watching survives the supervisor's reload: the wall takes the watch up again and the videos play.
  await supervisor.reload();
  await playing(supervisor, "Customer's video");

  await endWithStatus(agent, 'Complete');
  await expect(supervisor.getByTestId('watch-ended')).toBeVisible({ timeout: 30_000 });
  expect(await customer.content()).not.toContain(whisper);

  // The evidence package lists the watcher (from, to) and the whisper; the reviewer sees the whisper.
  const token = await tokenOf(request, DEMO.admin);
  const zip = await request.get(`/api/v2/videocall/${callId}/evidence`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(zip.status()).toBe(200);
  const dir = mkdtempSync(join(tmpdir(), 'watch-e2e-'));
  try {
    writeFileSync(join(dir, 'package.zip'), await zip.body());
    const json = JSON.parse(
      execFileSync('unzip', ['-p', join(dir, 'package.zip'), 'call.json'], { encoding: 'utf8' }),
    ) as {
      watchers: { name: string; started_at: string; ended_at: string | null }[];
      whispers: { text: string }[];
    };
    expect(json.watchers).toEqual([
      expect.objectContaining({
        name: 'Ada Admin',
        started_at: expect.any(String),
        ended_at: expect.any(String),
      }),
    ]);
    expect(json.whispers.map((w) => w.text)).toEqual([whisper]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await supervisor.goto(`/profile/${PROFILE}?tab=videoCalls`);
  await expect(supervisor.getByTestId(`whispers-${callId}`)).toContainText(whisper);
});

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
/** The wall's waits: nine pages, four calls and the forwarded videos on two cores. */
const WALL_TIMEOUT = 30_000 * Number(process.env.E2E_TIME_SCALE ?? 1);

/** True once the video element of the tile shows frames that move. */
async function playsIn(tile: Locator, label: string): Promise<void> {
  const video = tile.getByLabel(label, { exact: true });
  await expect(video).toBeVisible();
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth > 0 && v.currentTime > 0), {
      timeout: WALL_TIMEOUT,
    })
    .toBe(true);
}

/**
 * A small moving picture for the fake cameras (Y4M, 128×96 at 10 frames a second): nine browsers with calls in
 * them share two cores, and Chromium's default fake camera (640×480 at 30) made the calls' encoders starve the
 * pages. What is tested (who watches what, and that it plays) does not depend on the picture's size.
 */
function smallCamera(dir: string): string {
  const [width, height, frames] = [128, 96, 8];
  const parts: Buffer[] = [Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`)];
  for (let frame = 0; frame < frames; frame++) {
    const luma = Buffer.alloc(width * height, 40);
    // A bright bar that moves across the picture, so that frames differ.
    const left = Math.floor((frame * width) / frames);
    for (let y = 0; y < height; y++) luma.fill(220, y * width + left, y * width + left + width / frames);
    parts.push(Buffer.from('FRAME\n'), luma, Buffer.alloc((width * height) / 2, 128));
  }
  const file = join(dir, 'camera.y4m');
  writeFileSync(file, Buffer.concat(parts));
  return file;
}

/** A new agent of the company (role User), invited through the API, with the password the invitation sets. */
async function newAgent(request: APIRequestContext, admin: string, email: string, lastName: string) {
  const created = await request.post('/api/v2/user', {
    headers: auth(admin),
    data: {
      password: DEMO.admin.password,
      first_name: 'Wall',
      last_name: lastName,
      username: email,
      role: 'User',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  let code = '';
  await expect
    .poll(async () => {
      const mails = (await (await request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as {
        body?: string;
      }[];
      code = /\b(\d{6})\b/.exec(mails[0]?.body ?? '')?.[1] ?? '';
      return code;
    })
    .not.toBe('');
  const password = 'Wall@2026';
  const set = await request.post('/api/v2/user/reset_password/submit', {
    data: { email, otp: code, new_password: password },
  });
  expect(set.status()).toBe(200);
  return { id: ((await created.json()) as { id: number }).id, email, password, name: `Wall ${lastName}` };
}

test('a wall of four watched calls at once, each with its agent and both videos', async ({ request }) => {
  const dir = mkdtempSync(join(tmpdir(), 'watch-wall-'));
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [...chromiumArgs, `--use-file-for-fake-video-capture=${smallCamera(dir)}`],
  });
  const admin = await tokenOf(request, DEMO.admin);
  const run = Date.now().toString(36);
  const names = ['One', 'Two', 'Three', 'Four'];
  const agents = await Promise.all(
    names.map((name) => newAgent(request, admin, `wall-${name.toLowerCase()}-${run}@acme.test`, name)),
  );
  // The supervisor takes no calls here: no ring covers the wall.
  await request.post('/api/v2/videocall/agent_status', { headers: auth(admin), data: { status: 'Offline' } });
  const profiles = [41, 42, 43, 45];
  const callIds: number[] = [];
  try {
    const [supervisor, ...desks] = await Promise.all([
      contexts.page(browser).then(async (page) => {
        await signIn(page, DEMO.admin);
        return page;
      }),
      ...agents.map(async (agent) => goOnline(await contexts.page(browser), agent)),
    ]);
    // One call after the other, so that each rings while only its agent is free and that agent answers it.
    for (const [index, desk] of desks.entries()) {
      const profile = profiles[index] as number;
      const link = await request.post('/api/v2/profile/url', { headers: auth(admin), data: { profile } });
      const { token } = (await link.json()) as { token: string };
      const customer = await contexts.page(browser);
      await joinQueue(customer, `/customer.html?token=${token}`);
      await desk.getByRole('button', { name: 'Answer', exact: true }).click();
      await expect(desk).toHaveURL(new RegExp(`/call/${profile}/[0-9a-f-]{36}/\\d+$`));
      callIds.push(Number(/\/(\d+)$/.exec(desk.url())?.[1]));
    }

    // The supervisor watches all four from the Calls screen: one wall, each tile its agent's, both videos playing.
    // Back to Calls through the studio's navigation: the page (and its socket in the watched calls' channels)
    // stays, as a supervisor's does.
    const toCalls = () =>
      supervisor
        .getByRole('navigation', { name: 'Main navigation' })
        .getByRole('link', { name: 'Calls' })
        .click();
    await supervisor.goto('/calls');
    for (const callId of callIds) {
      await toCalls();
      await supervisor.getByRole('link', { name: `Watch call ${callId}` }).click();
      await expect(supervisor.getByTestId(`watch-tile-${callId}`)).toBeVisible({ timeout: WALL_TIMEOUT });
    }
    for (const [index, callId] of callIds.entries()) {
      const tile = supervisor.getByTestId(`watch-tile-${callId}`);
      await expect(tile.getByRole('heading')).toHaveText(`Agent: ${agents[index]?.name}`);
      await playsIn(tile, "Customer's video");
      await playsIn(tile, "Agent's video");
    }
    await expect(supervisor.getByTestId(/^watch-tile-/)).toHaveCount(4);
  } finally {
    // Every call is closed, so no agent of a later spec is held in one.
    for (const callId of callIds)
      await request.post(`/api/v2/videocall/${callId}/close`, {
        headers: auth(admin),
        data: { status: 4, reason: 'Closed after the wall test' },
      });
    await contexts.closeAll();
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
    // And no agent of this test is left free to be offered a later spec's calls.
    for (const agent of agents)
      await request.post('/api/v2/videocall/agent_status', {
        headers: auth(admin),
        data: { status: 'Offline', user: agent.id },
      });
  }
});
