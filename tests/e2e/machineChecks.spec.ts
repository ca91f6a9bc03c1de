import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { unzipSync } from 'fflate';
import { DEFAULT_IDENT_PROCEDURE } from '#contract/identProcedure';
import type { MachineCheck, MrzResult } from '#contract/machineChecks';
import { chromiumArgs, chromiumPath } from '../../playwright.config';
import { renderDocuments, sampleDocument, y4mOf } from '../../scripts/sampleDocuments';
import { answerAndTalk, Contexts, goOnline, joinLink, joinQueue } from './callSupport';
import { expect, test } from './cspGuard';
import { DEMO, tokenOf } from './support';

/**
 * The machine checks in a guided call, end to end: the customer's fake camera shows a synthetic passport data
 * page (scripts/sampleDocuments.ts: sample face a2, a valid TD3 zone), the agent takes the face screenshot and the
 * ID front of it, and the steps panel shows the face hint and the zone's check; the evidence package's steps.json
 * holds both checks with their engines. The zone's fields, check digits and cross-checks on a readable image are
 * the server test's (tests/server/machineChecks.test.ts). Both screenshots are of the one page (a fake camera plays one
 * file), so the face hint is "likely the same person": the comparison of two different people is the server
 * test's (tests/server/machineChecks.test.ts).
 */
test.describe.configure({ mode: 'serial', timeout: 180_000 * Number(process.env.E2E_TIME_SCALE ?? 1) });

const PROFILE = 8;
const contexts = new Contexts();
const LOAD = { timeout: 30_000 };
const dir = mkdtempSync(join(tmpdir(), 'idv-passport-'));
const video = join(dir, 'passport.y4m');

test.use({
  launchOptions: {
    executablePath: chromiumPath,
    args: [...chromiumArgs, `--use-file-for-fake-video-capture=${video}`],
  },
});

test.beforeAll(async () => {
  // Chromium's fake camera plays a Y4M file, looping: the passport page's pixels as raw I420 frames.
  const drawer = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
  const [page] = await renderDocuments(
    [sampleDocument('e2e-passport', { format: 'TD3', face: 'a2', documentNumber: 'U12345678' })],
    drawer,
  );
  await drawer.close();
  if (!page) throw new Error('the passport page was not drawn');
  writeFileSync(video, y4mOf(page.front, 2));
});

test.afterAll(async ({ request }) => {
  await contexts.closeAll();
  rmSync(dir, { recursive: true, force: true });
  const saved = await request.put('/api/v2/ident_procedure', {
    headers: { authorization: `Bearer ${await tokenOf(request, DEMO.admin)}` },
    data: DEFAULT_IDENT_PROCEDURE,
  });
  expect(saved.status()).toBe(200);
});

test('the agent sees the face hint and the passport zone read, and the evidence package holds them', async ({
  browser,
  request,
}) => {
  const admin = { authorization: `Bearer ${await tokenOf(request, DEMO.admin)}` };
  const guided = await request.put('/api/v2/ident_procedure', {
    headers: admin,
    data: { ...DEFAULT_IDENT_PROCEDURE, guided: true },
  });
  expect(guided.status()).toBe(200);

  const agent = await goOnline(await contexts.page(browser), DEMO.agent);
  const link = await joinLink(agent, PROFILE);
  const customer = await contexts.page(browser);
  await joinQueue(customer, link);
  await expect(agent.getByRole('alertdialog')).toContainText('Incoming video call', LOAD);
  await answerAndTalk(agent, customer, PROFILE);
  const callId = Number(agent.url().split('/').at(-1));

  const panel = agent.locator('.studio-call-steps');
  const current = panel.locator('[aria-current="step"]');
  for (const step of ['Face screenshot', 'ID front']) {
    await expect(current).toContainText(step);
    await current.getByRole('button', { name: `Take screenshot for ${step}` }).click();
    await expect(current.getByRole('img', { name: `Screenshot 1 for ${step}` })).toBeVisible(LOAD);
    if (step === 'ID front') break;
    await current.getByRole('button', { name: `${step} passed` }).click();
  }

  // Within seconds of the ID front: the face hint and the zone's check, beside the step.
  await expect(current.getByTestId('face-hint')).toContainText(/Likely the same person \(\d\.\d\d\)/, LOAD);
  await expect(current.getByTestId('mrz-check')).toBeVisible(LOAD);
  const checks = (await (
    await request.get(`/api/v2/videocall/${callId}/checks`, { headers: admin })
  ).json()) as MachineCheck[];
  const read = checks.find((c) => c.kind === 'mrz')?.result as MrzResult | undefined;
  // The screenshot is the frame the agent received: on a loaded machine the link sends 320 × 240, where no
  // engine reads a passport's zone, and the panel says so. When it was read, the panel shows the fields.
  if (read?.outcome === 'read') {
    await expect(current.getByTestId('mrz-check')).toContainText('Machine-readable zone (TD3) read');
    await expect(current.getByTestId('mrz-check')).toContainText(read.reading?.fields.document_number ?? '');
  } else {
    await expect(current.getByTestId('mrz-check')).toContainText('No machine-readable zone found');
  }
  expect(checks.map((c) => c.kind).sort()).toEqual(['face_match', 'mrz']);

  const evidence = await request.get(`/api/v2/videocall/${callId}/evidence`, { headers: admin });
  expect(evidence.status()).toBe(200);
  const files = unzipSync(new Uint8Array(await evidence.body()));
  const steps = JSON.parse(Buffer.from(files['steps.json'] as Uint8Array).toString('utf8')) as {
    checks: MachineCheck[];
  };
  const mrz = steps.checks.find((c) => c.kind === 'mrz');
  expect(mrz?.engine.name).toBe('tesseract.js');
  expect(mrz?.result).toEqual(read);
  expect(steps.checks.find((c) => c.kind === 'face_match')?.engine.name).toBe('@vladmandic/human');
});
