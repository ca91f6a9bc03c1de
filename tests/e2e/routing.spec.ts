/**
 * One-at-a-time call routing in the studio. An Admin switches it on in company settings; a
 * waiting call then rings only the agent it is offered to, with the seconds left, and the queue says whom it is
 * offered to; when the offer lapses and goes to another agent, the ring stops. ROUTING_SCREENSHOTS=<folder>
 * writes the settings tab and the ring in en-US and tr, light and dark.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { io, type Socket } from 'socket.io-client';
import { DEMO, signIn } from './support';

const shots = process.env.ROUTING_SCREENSHOTS;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const looks = [
  ['en-US', 'light'],
  ['en-US', 'dark'],
  ['tr', 'light'],
  ['tr', 'dark'],
] as const;

async function tokenOf(request: APIRequestContext, who: { email: string; password: string }) {
  const login = await request.post('/api/v1/login/', {
    data: { username: who.email, password: who.password },
  });
  return ((await login.json()) as { access: string }).access;
}

async function look(page: Page, lang: 'en-US' | 'tr', theme: 'light' | 'dark') {
  await page.evaluate(
    ({ l, th }) => {
      localStorage.setItem('language', l);
      localStorage.setItem('theme', th);
    },
    { l: lang, th: theme },
  );
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
}

async function setRouting(
  request: APIRequestContext,
  admin: string,
  call_routing: string,
  offer_seconds = 15,
) {
  const answer = await request.put('/api/v2/call_routing', {
    headers: auth(admin),
    data: { call_routing, offer_seconds },
  });
  expect(answer.status()).toBe(200);
}

/** A customer of `profile` waiting in the queue (the join page's socket). */
async function waitingCustomer(request: APIRequestContext, baseURL: string, admin: string, profile: number) {
  const link = await request.post('/api/v2/profile/url', { headers: auth(admin), data: { profile } });
  const { token } = (await link.json()) as { token: string };
  const created = await request.post('/api/v2/videocall', {
    headers: auth(token),
    data: { profile, consent: { language: 'en-US' } },
  });
  const call = (await created.json()) as { id: number };
  const socket = io(baseURL, {
    path: '/socket.io',
    transports: ['websocket'],
    auth: { customer: token, call_id: call.id },
  });
  await new Promise((resolve) => socket.once('queue.position', resolve));
  return { callId: call.id, socket };
}

async function goOnline(page: Page) {
  await page.goto('/calls');
  const status = page.getByRole('button', { name: /^(Availability|Durum)/ });
  await status.waitFor({ timeout: 30_000 });
  if ((await status.getAttribute('aria-label')) !== 'Availability: Online') {
    await status.click();
    await page.getByRole('menuitemradio', { name: 'Online' }).click();
  }
  await page.getByRole('button', { name: 'Availability: Online', exact: true }).waitFor();
}

test('an Admin switches to one agent at a time in company settings, within its bounds', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO.admin);
  await page.goto('/company-settings?tab=call-routing');
  const mode = page.getByLabel('Routing', { exact: true });
  await expect(mode).toHaveValue('ring_all', { timeout: 60_000 });
  const seconds = page.getByLabel('Seconds to answer an offer');
  await expect(seconds).toBeDisabled();
  await mode.selectOption('one_at_a_time');
  // The routing card's own Save (the join links' card beside it has one too).
  const save = page.locator('.bp6-card').filter({ has: mode }).getByRole('button', { name: 'Save' });
  await seconds.fill('200');
  await expect(save).toBeDisabled();
  await seconds.fill('20');
  await save.click();
  await expect(page.getByText('Call routing saved')).toBeVisible();
  if (shots) {
    mkdirSync(shots, { recursive: true });
    for (const [lang, theme] of looks) {
      await look(page, lang, theme);
      await expect(page.locator('#call-routing-seconds')).toHaveValue('20', { timeout: 60_000 });
      await page.screenshot({ path: join(shots, `routing-settings-${lang}-${theme}.png`) });
    }
    await look(page, 'en-US', 'light');
  }
  await setRouting(request, await tokenOf(request, DEMO.admin), 'ring_all');
});

test('the offered agent rings with the seconds left; the ring stops when the offer goes to the next agent', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const admin = await tokenOf(request, DEMO.admin);
  const sockets: Socket[] = [];
  try {
    await signIn(page, DEMO.agent);
    await goOnline(page);
    // Long offers for the screenshots: the agent is the one free agent.
    await setRouting(request, admin, 'one_at_a_time', 120);
    const first = await waitingCustomer(request, baseURL as string, admin, 11);
    sockets.push(first.socket);
    const ring = page.getByRole('alertdialog');
    await expect(ring).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('offer-seconds-left')).toHaveText(/Offered to you: \d+ seconds? left/);
    await expect(page.getByTestId('offered-to').first()).toHaveText('Umut Agent');
    if (shots) {
      mkdirSync(shots, { recursive: true });
      for (const [lang, theme] of looks) {
        await look(page, lang, theme);
        await expect(page.getByRole('alertdialog')).toBeVisible({ timeout: 30_000 });
        await page.screenshot({ path: join(shots, `routing-ring-${lang}-${theme}.png`) });
      }
      await look(page, 'en-US', 'light');
    }
    first.socket.close();
    await expect(ring).toBeHidden({ timeout: 30_000 });

    // Short offers, and a second free agent (the admin, by API and socket): the offer moves on when it lapses.
    await setRouting(request, admin, 'one_at_a_time', 5);
    await request.post('/api/v2/videocall/agent_status', {
      headers: auth(admin),
      data: { status: 'Online' },
    });
    const socketToken = await request.post('/api/v2/user/socket_token', {
      headers: auth(admin),
      data: { studio: true },
    });
    const other = io(baseURL as string, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: { token: ((await socketToken.json()) as { token: string }).token },
    });
    sockets.push(other);
    await new Promise((resolve) => other.once('agent.status', resolve));
    const second = await waitingCustomer(request, baseURL as string, admin, 12);
    sockets.push(second.socket);
    // Whoever is offered it first, within two offers it rings here and then stops as it moves to the admin.
    await expect(ring).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId('offered-to').first()).toHaveText('Umut Agent');
    await expect(ring).toBeHidden({ timeout: 10_000 });
    await expect(page.getByTestId('offered-to').first()).toHaveText('Ada Admin');
  } finally {
    for (const socket of sockets) socket.close();
    await request.post('/api/v2/videocall/agent_status', {
      headers: auth(admin),
      data: { status: 'Offline' },
    });
    await setRouting(request, admin, 'ring_all');
  }
});
