import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type APIRequestContext, chromium, expect, type Locator, test } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../../playwright.config';
import { Contexts, goOnline, joinQueue } from './callSupport';
import { DEMO, signIn, tokenOf } from './support';

/**
 * A supervisor's wall of four live calls (nine browsers): each tile is its agent's, and both videos of every call
 * play. It runs alone, after everything else: nine pages with calls in them fill two cores. Who may watch, the
 * fifth call refused and the room closed to others are the server's rules (tests/server/callWatch.test.ts); how
 * the agent's browser offers each watcher the call's media, also when the customer's stream arrives late, is
 * tests/unit/services/watchMedia.test.ts.
 */
test.describe.configure({ mode: 'serial', timeout: 300_000 * Number(process.env.E2E_TIME_SCALE ?? 1) });

const contexts = new Contexts();
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
