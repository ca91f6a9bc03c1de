/**
 * Issue 25, point 5: a reviewer can seek in a recorded call. A call is answered and its recording (a real
 * MediaRecorder webm, which has neither duration nor cues) uploaded through the API; the video screen of the
 * profile then plays it in Chromium: its duration is finite, seeking to the middle fires `seeked`, and the file
 * is served in ranges (206).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { io } from 'socket.io-client';
import { DEMO } from './support';

const RECORDING = readFileSync(join(import.meta.dirname, '..', 'server', 'fixtures', 'recording.webm'));

test('a recorded call plays and seeks to its middle, served in ranges', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
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
  const customer = io(baseURL as string, {
    path: '/socket.io',
    transports: ['websocket'],
    auth: { customer: token, call_id: call.id },
  });
  await new Promise((resolve) => customer.once('queue.position', resolve));
  const socket = io(baseURL as string, {
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

  const ranges: number[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/storage/recordings/')) ranges.push(response.status());
  });
  await page.goto('/login');
  await page.getByLabel('E-mail', { exact: true }).fill(DEMO.agent.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.agent.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible({ timeout: 60_000 });
  await page.goto(`/profile/3/video/${call.id}`);
  const video = page.getByLabel(`Recording of call ${call.id}`);
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
