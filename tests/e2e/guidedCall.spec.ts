import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { type CallScreenshot, type CallStep, DEFAULT_IDENT_PROCEDURE } from '#contract/identProcedure';
import { answerAndTalk, Contexts, goOnline, joinLink, joinQueue } from './callSupport';
import { expect, test } from './cspGuard';
import { DEMO, signIn, tokenOf } from './support';

/**
 * The guided call: an Admin turns guidance on, the agent's COMPLETE is refused while
 * mandatory steps are open, the steps panel records each step with its offset in the recording, and the end
 * screen asks for the decision reason. GUIDED_CALL_SCREENSHOTS=<folder> writes the steps panel in en-US and tr,
 * light and dark. The worker's server is shared by the specs it runs: the procedure is reset afterwards.
 */
test.describe.configure({ mode: 'serial', timeout: 240_000 * Number(process.env.E2E_TIME_SCALE ?? 1) });

const shots = process.env.GUIDED_CALL_SCREENSHOTS;
const PROFILE = 4;
const contexts = new Contexts();
const LOAD = { timeout: 30_000 };

test.afterEach(async ({ request }) => {
  await contexts.closeAll();
  const saved = await request.put('/api/v2/ident_procedure', {
    headers: { authorization: `Bearer ${await tokenOf(request, DEMO.admin)}` },
    data: DEFAULT_IDENT_PROCEDURE,
  });
  expect(saved.status()).toBe(200);
});

const panel = (page: Page) => page.locator('.studio-call-steps');

/** No WCAG 2.1 AA violation in a part of the call page (axe), in light and dark. */
async function accessible(agent: Page, selector: string) {
  for (const dark of [false, true]) {
    await agent.evaluate((on) => document.body.classList.toggle('bp6-dark', on), dark);
    const result = await new AxeBuilder({ page: agent })
      .setLegacyMode()
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .include(selector)
      .analyze();
    expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
  }
  await agent.evaluate(() => document.body.classList.remove('bp6-dark'));
}

/** Screenshots of a part of the call page in en-US and tr, light and dark (GUIDED_CALL_SCREENSHOTS). */
async function shoot(agent: Page, selector: string, name: string) {
  if (!shots) return;
  for (const lng of ['en-US', 'tr'] as const)
    for (const theme of ['light', 'dark'] as const) {
      if (lng === 'tr') await agent.getByRole('combobox', { name: 'Language' }).selectOption('tr');
      await agent.evaluate((dark) => document.body.classList.toggle('bp6-dark', dark), theme === 'dark');
      await agent.locator(selector).screenshot({ path: `${shots}/${name}-${lng}-${theme}.png` });
      if (lng === 'tr') await agent.getByRole('combobox', { name: 'Dil' }).selectOption('en-US');
      await agent.evaluate(() => document.body.classList.remove('bp6-dark'));
    }
}

/** Takes `count` screenshots of the customer's video for the current step (Chromium's fake media is the video). */
async function screenshots(agent: Page, step: string, count: number) {
  const current = panel(agent).locator('[aria-current="step"]');
  for (let n = 1; n <= count; n++) {
    await current.getByRole('button', { name: `Take screenshot for ${step}` }).click();
    await expect(current.getByRole('img', { name: `Screenshot ${n} for ${step}` })).toBeVisible(LOAD);
  }
}

/** Passes the current step of the panel (its name in the button's label). */
async function pass(agent: Page, step: string) {
  const current = panel(agent).locator('[aria-current="step"]');
  await expect(current).toContainText(step);
  await current.getByRole('button', { name: `${step} passed` }).click();
  await expect(panel(agent).getByRole('listitem').filter({ hasText: step }).first()).toContainText('Passed');
}

test('an Admin turns guidance on; the agent passes every mandatory step, then saves COMPLETE with a reason', async ({
  browser,
}) => {
  // The Admin turns it on in the procedure tab.
  const admin = await contexts.page(browser);
  await signIn(admin);
  await admin.goto('/company-settings?tab=ident-procedure');
  const guided = admin.getByRole('checkbox', { name: 'Guide agents through the steps' });
  await expect(guided).not.toBeChecked(LOAD);
  await guided.check({ force: true });
  await admin.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(admin.getByText('The identification procedure was saved')).toBeVisible();

  // The agent answers a customer.
  const agent = await goOnline(await contexts.page(browser), DEMO.agent);
  const link = await joinLink(agent, PROFILE);
  const customer = await contexts.page(browser);
  // The customer agrees on the join page: the consent step is passed before the agent answers.
  await joinQueue(customer, link);
  await expect(agent.getByRole('alertdialog')).toContainText('Incoming video call', LOAD);
  await answerAndTalk(agent, customer, PROFILE);
  const callId = Number(agent.url().split('/').at(-1));
  await expect(panel(agent).getByRole('heading', { name: 'Identification steps' })).toBeVisible();
  await expect(panel(agent).locator('[aria-current="step"]')).toContainText('2. Face screenshot');
  await expect(panel(agent)).toContainText('1 of 8 mandatory steps passed');

  // COMPLETE now: refused by the server, naming every mandatory step in order.
  const token = await tokenOf(agent.request, DEMO.agent);
  const auth = { authorization: `Bearer ${token}` };
  const early = await agent.request.put(`/api/v2/videocall/${callId}`, {
    headers: auth,
    data: { status: 3, outcome_reason: 'identity_verified' },
  });
  expect(early.status()).toBe(400);
  expect(((await early.json()) as { detail: string }).detail).toContain(
    'are not passed: face_screenshot, id_front, id_back, security_features, serial_number, second_channel_code, questions',
  );

  for (const step of ['Face screenshot', 'ID front', 'ID back']) {
    // Passed only once the step has its screenshot.
    await expect(panel(agent).getByRole('button', { name: `${step} passed` })).toBeDisabled();
    await screenshots(agent, step, 1);
    await pass(agent, step);
  }
  // Security features: Passed only with 3 categories ticked.
  const passFeatures = panel(agent).getByRole('button', { name: 'Security features passed' });
  await expect(passFeatures).toBeDisabled();
  for (const category of ['Holograms or kinegrams', 'Material', 'Security printing'])
    await panel(agent).getByRole('checkbox', { name: category }).check({ force: true });
  // And one screenshot per ticked category.
  await expect(passFeatures).toBeDisabled();
  await screenshots(agent, 'Security features', 3);
  await shoot(agent, '.studio-call-steps', 'guided-steps');
  await accessible(agent, '.studio-call-steps');
  await pass(agent, 'Security features');
  for (const step of ['Serial number', 'Second-channel code']) await pass(agent, step);

  // The questions are left for after the hang-up: the end screen keeps COMPLETE off and names them.
  await agent.getByRole('button', { name: 'Hang up' }).click();
  await expect(agent.getByRole('heading', { name: 'How did the call end?' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(agent.getByRole('radio', { name: 'Complete', exact: true })).toBeDisabled();
  await expect(
    agent.getByText('Complete needs every mandatory step passed. Not passed yet: Questions.'),
  ).toBeVisible();
  // An abort status offers the abort reasons.
  await agent.getByRole('radio', { name: 'Bad quality', exact: true }).check({ force: true });
  await expect(agent.getByRole('radio', { name: 'Poor light' })).toBeVisible();
  await shoot(agent, '.studio-call-end', 'guided-end');
  await accessible(agent, '.studio-call-end');

  const questions = panel(agent).locator('[aria-current="step"]');
  await expect(questions).toContainText('Questions');
  for (const number of [1, 2])
    await questions.getByRole('button', { name: `Question ${number}: Passed` }).click();
  await accessible(agent, '.studio-call-steps');
  await pass(agent, 'Questions');
  await expect(panel(agent)).toContainText('8 of 8 mandatory steps passed');

  const complete = agent.getByRole('radio', { name: 'Complete', exact: true });
  await expect(complete).toBeEnabled();
  await complete.check({ force: true });
  const save = agent.getByRole('button', { name: 'Save status' });
  await expect(agent.getByText('Pick the reason for this status.')).toBeVisible();
  await expect(save).toBeDisabled();
  await agent.getByRole('radio', { name: 'Identity verified' }).check({ force: true });
  await save.click();
  await expect(agent.getByText('Video call status updated successfully')).toBeVisible({ timeout: 30_000 });

  // The call holds the reason; its steps are stored with offsets that grow in the order they were done.
  const held = await agent.request.get(`/api/v2/videocall/${callId}`, { headers: auth });
  expect(await held.json()).toMatchObject({ status: 3, outcome_reason: 'identity_verified' });
  const adminToken = await tokenOf(agent.request, DEMO.admin);
  const steps = (await (
    await agent.request.get(`/api/v2/videocall/${callId}/steps`, {
      headers: { authorization: `Bearer ${adminToken}` },
    })
  ).json()) as CallStep[];
  expect(steps.map((s) => [s.kind, s.result])).toEqual(
    DEFAULT_IDENT_PROCEDURE.steps.filter((s) => s.kind !== 'decision').map((s) => [s.kind, 'passed']),
  );
  // The consent from the join page at the start of the recording, then the agent's steps in order.
  expect(steps[0]).toMatchObject({ kind: 'consent', offset_ms: 0, created_by: null });
  const offsets = steps.map((s) => s.offset_ms);
  expect(offsets[1]).toBeGreaterThan(0);
  for (let i = 2; i < offsets.length; i++) expect(offsets[i]).toBeGreaterThan(offsets[i - 1] as number);
  // Each screenshot step names the screenshots taken for it in the call.
  const shots = (await (
    await agent.request.get(`/api/v2/videocall/${callId}/screenshots`, {
      headers: { authorization: `Bearer ${adminToken}` },
    })
  ).json()) as CallScreenshot[];
  const idsOf = (kind: string) => shots.filter((shot) => shot.kind === kind).map((shot) => shot.id);
  expect(idsOf('security_features')).toHaveLength(3);
  expect(steps.find((s) => s.kind === 'security_features')?.details).toEqual({
    categories: ['holograms_kinegrams', 'material', 'security_printing'],
    screenshots: idsOf('security_features'),
  });
  for (const kind of ['face_screenshot', 'id_front', 'id_back']) {
    expect(idsOf(kind), kind).toHaveLength(1);
    expect(steps.find((s) => s.kind === kind)?.details, kind).toEqual({ screenshots: idsOf(kind) });
  }
});
