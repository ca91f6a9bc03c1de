/**
 * The evidence package from the studio. A call is answered and its recording uploaded
 * through the API; on the profile's Video Calls tab, "Download evidence" saves a ZIP that `sha256sum -c`
 * accepts and whose manifest signature the server's public key verifies. An Admin then sets and lifts a legal
 * hold with a reason. EVIDENCE_SCREENSHOTS=<folder> writes the tab and the dialog in en-US light and tr dark.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { io } from 'socket.io-client';
import { checkEvidence } from './evidenceCheck';
import { DEMO, signIn, tokenOf } from './support';

const RECORDING = readFileSync(join(import.meta.dirname, '..', 'server', 'fixtures', 'recording.webm'));
const PROFILE = 9;
const shots = process.env.EVIDENCE_SCREENSHOTS;

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** A call of PROFILE answered and hung up by agent@acme.test, status COMPLETE, with its recording uploaded. */
async function recordedCall(request: APIRequestContext, baseURL: string): Promise<number> {
  const access = await tokenOf(request, DEMO.agent);
  const link = await request.post('/api/v2/profile/url', {
    headers: auth(access),
    data: { profile: PROFILE },
  });
  const { token } = (await link.json()) as { token: string };
  const created = await request.post('/api/v2/videocall', {
    headers: auth(token),
    data: { profile: PROFILE },
  });
  const call = (await created.json()) as { id: number };
  await request.post('/api/v2/videocall/agent_status', { headers: auth(access), data: { status: 'Online' } });
  const socketToken = await request.post('/api/v2/user/socket_token', {
    headers: auth(access),
    data: { studio: true },
  });
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
    expect(await socket.timeout(10_000).emitWithAck('call.answer', { call_id: call.id })).toMatchObject({
      ok: true,
    });
    expect((await socket.timeout(10_000).emitWithAck('call.hangup', { call_id: call.id })).ok).toBe(true);
  } finally {
    socket.close();
    customer.close();
  }
  expect(
    (
      await request.put(`/api/v2/videocall/${call.id}`, { headers: auth(access), data: { status: 3 } })
    ).status(),
  ).toBe(200);
  const uploaded = await request.patch(`/api/v2/videocall/${call.id}`, {
    headers: auth(access),
    multipart: { file: { name: 'call.webm', mimeType: 'video/webm', buffer: RECORDING } },
  });
  expect(uploaded.status()).toBe(200);
  await request.post('/api/v2/videocall/agent_status', {
    headers: auth(access),
    data: { status: 'Offline' },
  });
  return call.id;
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

test('Download evidence saves a signed ZIP; an Admin sets and lifts a legal hold', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const callId = await recordedCall(request, baseURL as string);
  await signIn(page, DEMO.admin);
  await page.goto(`/profile/${PROFILE}?tab=videoCalls`);
  const button = page.getByRole('button', { name: /Download the evidence package of the call/ }).first();
  await expect(button).toBeVisible({ timeout: 60_000 });
  await checkEvidence(page, request, callId, button, ({ checked }) => {
    expect(checked).toContain('recording.webm: OK');
  });
  await expect(page.getByText('Evidence package saved')).toBeVisible();

  // The legal hold: set with a reason, shown as a tag, then lifted.
  await page.getByRole('button', { name: 'Set legal hold' }).click();
  const dialog = page.getByRole('dialog', { name: 'Set a legal hold' });
  await dialog.getByLabel('Reason').fill('Regulator inquiry 2026-17 about this customer');
  if (shots) {
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'evidence-hold-dialog-en-US-light.png') });
  }
  await dialog.getByRole('button', { name: 'Set hold' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Legal hold', { exact: true })).toBeVisible();
  if (shots) {
    await page.screenshot({ path: join(shots, 'evidence-tab-en-US-light.png') });
    await look(page, 'tr', 'dark');
    await expect(page.getByRole('button', { name: /görüşmenin kanıt paketini indir/ }).first()).toBeVisible({
      timeout: 60_000,
    });
    await page.screenshot({ path: join(shots, 'evidence-tab-tr-dark.png') });
    await page.getByRole('button', { name: 'Yasal saklamayı kaldır' }).click();
    await page.getByLabel('Gerekçe').fill('Soruşturma kapandı, saklama gerekmiyor');
    await page.screenshot({ path: join(shots, 'evidence-hold-dialog-tr-dark.png') });
    await page.getByRole('button', { name: 'Vazgeç' }).click();
    await look(page, 'en-US', 'light');
  }
  await page.getByRole('button', { name: 'Lift legal hold' }).click();
  const lift = page.getByRole('dialog', { name: 'Lift the legal hold' });
  await lift.getByLabel('Reason').fill('Inquiry closed, nothing more to keep');
  await lift.getByRole('button', { name: 'Lift hold' }).click();
  await expect(page.getByText('Legal hold lifted')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Set legal hold' })).toBeVisible();
});

test('an Admin sets the evidence retention in company settings, within its bounds', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, DEMO.admin);
  await page.goto('/company-settings?tab=evidence');
  const days = page.getByLabel('Keep evidence for (days)');
  await expect(days).toHaveValue('1826', { timeout: 60_000 });
  await days.fill('200');
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  await days.fill('3653');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Evidence retention saved')).toBeVisible();
  if (shots) {
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'evidence-retention-en-US-light.png') });
    await look(page, 'tr', 'dark');
    await expect(page.getByLabel('Kanıtı sakla (gün)')).toHaveValue('3653', { timeout: 60_000 });
    await page.screenshot({ path: join(shots, 'evidence-retention-tr-dark.png') });
    await look(page, 'en-US', 'light');
  }
  await page.getByLabel('Keep evidence for (days)').fill('1826');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Evidence retention saved')).toBeVisible();
});
