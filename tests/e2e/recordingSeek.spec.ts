/**
 * A reviewer can seek in a recorded call. A call is answered and its recording (a real MediaRecorder webm,
 * which has neither duration nor cues) uploaded through the API; the video screen of the profile then plays
 * it in Chromium: its duration is finite, seeking to the middle fires `seeked`, and the file is served in
 * ranges (206). The player also marks the call's identification steps on a timeline and lists them; a click
 * on a step plays from its offset.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { io } from 'socket.io-client';
import { DEMO } from './support';

const RECORDING = readFileSync(join(import.meta.dirname, '..', 'server', 'fixtures', 'recording.webm'));

/** A call of profile 3, answered and ended by the agent, with the fixture's recording uploaded. */
async function recordedCall(request: APIRequestContext, baseURL: string) {
  const api = (token: string) => ({ authorization: `Bearer ${token}` });
  const login = await request.post('/api/v1/login/', {
    data: { username: DEMO.agent.email, password: DEMO.agent.password },
  });
  const { access } = (await login.json()) as { access: string };
  // The customer's call, answered by the agent (Online, on a socket of its own).
  const link = await request.post('/api/v2/profile/url', { headers: api(access), data: { profile: 3 } });
  const { token } = (await link.json()) as { token: string };
  const created = await request.post('/api/v2/videocall', { headers: api(token), data: { profile: 3 } });
  const call = (await created.json()) as { id: number };
  await request.post('/api/v2/videocall/agent_status', { headers: api(access), data: { status: 'Online' } });
  const socketToken = await request.post('/api/v2/user/socket_token', {
    headers: api(access),
    data: { studio: true },
  });
  // The customer's page connects: the call joins the queue.
  const customer = io(baseURL, {
    path: '/socket.io',
    transports: ['websocket'],
    auth: { customer: token, call_id: call.id },
  });
  await new Promise((resolve) => customer.once('queue.position', resolve));
  const socket = io(baseURL, {
    path: '/socket.io',
    transports: ['websocket'],
    auth: { token: ((await socketToken.json()) as { token: string }).token },
  });
  try {
    const answered = (await socket.timeout(10_000).emitWithAck('call.answer', { call_id: call.id })) as {
      ok: boolean;
      detail?: string;
    };
    expect(answered).toMatchObject({ ok: true });
    expect((await socket.timeout(10_000).emitWithAck('call.hangup', { call_id: call.id })).ok).toBe(true);
  } finally {
    socket.close();
    customer.close();
  }
  const ended = await request.put(`/api/v2/videocall/${call.id}`, {
    headers: api(access),
    data: { status: 3 },
  });
  expect(ended.status()).toBe(200);
  const uploaded = await request.patch(`/api/v2/videocall/${call.id}`, {
    headers: api(access),
    multipart: { file: { name: 'call.webm', mimeType: 'video/webm', buffer: RECORDING } },
  });
  expect(uploaded.status()).toBe(200);

  return { callId: call.id, access };
}

/** Signs in as the agent in the page. */
async function signInAgent(page: Page) {
  await page.goto('/login');
  await page.getByLabel('E-mail', { exact: true }).fill(DEMO.agent.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.agent.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible({ timeout: 60_000 });
}

test('a recorded call plays and seeks to its middle, served in ranges', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { callId } = await recordedCall(request, baseURL as string);
  const ranges: number[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/storage/recordings/')) ranges.push(response.status());
  });
  await signInAgent(page);
  await page.goto(`/profile/3/video/${callId}`);
  const video = page.getByLabel(`Recording of call ${callId}`);
  await expect(video).toBeVisible({ timeout: 30_000 });
  const seek = await video.evaluate(async (element) => {
    const player = element as HTMLVideoElement;
    player.muted = true;
    if (player.readyState < 1)
      await new Promise((resolve) => player.addEventListener('loadedmetadata', resolve, { once: true }));
    const duration = player.duration;
    const seeked = new Promise((resolve) => player.addEventListener('seeked', resolve, { once: true }));
    player.currentTime = duration / 2;
    await seeked;
    return { duration, currentTime: player.currentTime };
  });
  expect(Number.isFinite(seek.duration)).toBe(true);
  expect(seek.duration).toBeGreaterThan(1);
  expect(seek.currentTime).toBeCloseTo(seek.duration / 2, 0);
  expect(ranges).toContain(206);
});

const shots = process.env.RECORDING_SCREENSHOTS;

test('the player marks the steps of the call and jumps to each, by mouse and keyboard', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const { callId, access } = await recordedCall(request, baseURL as string);
  // The agent recorded two results in the wrap-up (offsets within the fixture's seconds).
  for (const [kind, result, offset_ms] of [
    ['id_front', 'failed', 900],
    ['consent', 'passed', 400],
  ] as const) {
    const step = await request.post(`/api/v2/videocall/${callId}/steps`, {
      headers: { authorization: `Bearer ${access}` },
      data: { kind, result, details: {}, offset_ms },
    });
    expect(step.status()).toBe(201);
  }

  await signInAgent(page);
  await page.goto(`/profile/3/video/${callId}`);
  const steps = page.getByRole('region', { name: 'Steps of the identification' });
  const list = steps.getByRole('listitem');
  // In the order of the recording, each with its time, name and result.
  await expect(list).toHaveText([/0:00\s*Consent\s*Passed/, /0:00\s*ID front\s*Failed/], {
    timeout: 30_000,
  });
  // The markers, once the player knows the duration: at their share of it, coloured by result.
  const markers = page.getByTestId('recording-timeline').locator('button');
  await expect(markers).toHaveCount(2, { timeout: 30_000 });
  await expect(markers.nth(0)).toHaveAttribute('data-step', 'consent');
  await expect(markers.nth(1)).toHaveClass(/studio-recording-marker-failed/);
  const video = page.getByLabel(`Recording of call ${callId}`);
  const time = () => video.evaluate((v: HTMLVideoElement) => v.currentTime);

  // The keyboard: on the list's second step, Enter plays from 0.9 s.
  const idFront = steps.getByRole('button', { name: /ID front\s*Failed/ });
  await expect(idFront).toHaveAttribute('title', 'Play from 0:00: ID front, Failed');
  await idFront.focus();
  await page.keyboard.press('Enter');
  await expect.poll(time).toBeCloseTo(0.9, 1);
  // The mouse, on the marker.
  await markers.nth(0).click();
  await expect.poll(time).toBeCloseTo(0.4, 1);

  for (const dark of [false, true]) {
    await page.evaluate((on) => document.body.classList.toggle('bp6-dark', on), dark);
    const result = await new AxeBuilder({ page })
      .setLegacyMode()
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .include('.studio-recording-steps')
      .analyze();
    expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
    if (shots)
      await page.screenshot({
        path: `${shots}/recording-steps-en-${dark ? 'dark' : 'light'}.png`,
        fullPage: true,
      });
  }

  // In Turkish: the names of the steps and the results follow the studio's language.
  await page.evaluate(() => localStorage.setItem('language', 'tr'));
  await page.reload();
  await expect(
    page.getByRole('region', { name: 'Kimlik doğrulama adımları' }).getByRole('listitem'),
  ).toHaveText([/Onay\s*Başarılı/, /Kimlik ön yüzü\s*Başarısız/], { timeout: 30_000 });
  await expect(markers).toHaveCount(2, { timeout: 30_000 });
  for (const dark of [false, true]) {
    await page.evaluate((on) => document.body.classList.toggle('bp6-dark', on), dark);
    if (shots)
      await page.screenshot({
        path: `${shots}/recording-steps-tr-${dark ? 'dark' : 'light'}.png`,
        fullPage: true,
      });
  }
});
