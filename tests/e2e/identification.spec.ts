import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import {
  type CallScreenshot,
  type CallStep,
  DEFAULT_IDENT_PROCEDURE,
  type ScreenshotStep,
} from '#contract/identProcedure';
import {
  agreeButton,
  Contexts,
  fitsWidth,
  goOnline,
  joinButton,
  joinLink,
  PHONE,
  playing,
} from './callSupport';
import { expect, test } from './cspGuard';
import { checkEvidence } from './evidenceCheck';
import { DEMO, signIn, tokenOf } from './support';

/**
 * A whole guided identification, in English and in Turkish, with both sides' pages: the customer's
 * page shows each step's instruction in their language, the customer types the ID's serial number and the
 * second-channel code mailed to them; the agent takes the screenshots of the face, both sides of the ID and each
 * security feature, goes through every step and saves COMPLETE with its reason. Once the recording is uploaded,
 * an Admin downloads the call's evidence package from the profile's Video Calls tab; it checks out offline
 * (`sha256sum -c`, the signature) and holds the screenshots taken and the steps passed.
 * The worker's server is shared by the specs it runs: the procedure is reset afterwards.
 */
test.describe.configure({ mode: 'serial', timeout: 300_000 * Number(process.env.E2E_TIME_SCALE ?? 1) });

type Lang = 'en-US' | 'tr';
const texts = (lang: Lang, namespace: string) =>
  JSON.parse(readFileSync(`locales/${lang}/${namespace}.json`, 'utf8')) as Record<string, never>;
const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key]));

const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const PROFILE = 5;
const contexts = new Contexts();
const LOAD = { timeout: 30_000 };

async function saveProcedure(request: APIRequestContext, guided: boolean) {
  const saved = await request.put('/api/v2/ident_procedure', {
    headers: { authorization: `Bearer ${await tokenOf(request, DEMO.admin)}` },
    data: { ...DEFAULT_IDENT_PROCEDURE, guided },
  });
  expect(saved.status()).toBe(200);
}

test.afterEach(async ({ request }) => {
  await contexts.closeAll();
  await saveProcedure(request, false);
});

/** The profile's e-mail address and the number of a document on file, as the server holds them. */
async function onFile(request: APIRequestContext) {
  const auth = { authorization: `Bearer ${await tokenOf(request, DEMO.admin)}` };
  const profile = (await (await request.get(`/api/v2/profile/${PROFILE}`, { headers: auth })).json()) as {
    email: string;
  };
  const documents = (await (
    await request.get(`/api/v2/profile/${PROFILE}/documents`, { headers: auth })
  ).json()) as { content: Record<string, string | null> }[];
  const number = documents.map((d) => d.content.DocumentNumber).find((n) => n);
  if (!number) throw new Error(`profile ${PROFILE} has no document number on file`);
  return { email: profile.email, number };
}

for (const lang of ['en-US', 'tr'] as const) {
  test(`a whole identification with the customer's page, in ${lang}`, async ({ browser, request }) => {
    const calls = texts(lang, 'calls') as unknown as { guide: Record<string, never> };
    const guide = calls.guide as unknown as {
      passStep: string;
      shootStep: string;
      shotAlt: string;
      question: string;
      results: { passed: string };
      categories: Record<string, string>;
      entry: Record<string, string>;
    };
    const kinds = (texts(lang, 'procedure') as unknown as { kinds: Record<string, string> }).kinds;
    const customerTexts = (texts(lang, 'customer') as unknown as { guide: Record<string, never> })
      .guide as unknown as {
      steps: Record<string, string>;
      serialLabel: string;
      codeLabel: string;
      send: string;
      codeSent: string;
      channels: Record<string, string>;
      problems: Record<string, string>;
    };
    const { email, number } = await onFile(request);
    await saveProcedure(request, true);

    const agent = await goOnline(await contexts.page(browser), DEMO.agent);
    const link = await joinLink(agent, PROFILE);
    // The customer on a phone: every step of theirs must be usable 375 px wide.
    const customer = await contexts.page(browser);
    await customer.setViewportSize(PHONE);
    await customer.goto(link);
    if (lang === 'tr') await customer.getByRole('button', { name: 'Türkçe' }).click();
    await agreeButton(customer).click();
    await joinButton(customer).click();
    await expect(agent.getByRole('alertdialog')).toContainText('Incoming video call', LOAD);
    await agent.getByRole('button', { name: 'Answer', exact: true }).click();
    await playing(agent, "Customer's video");
    await playing(customer, (texts(lang, 'customer') as unknown as { agentVideo: string }).agentVideo);
    await expect(agent).toHaveURL(new RegExp(`/call/${PROFILE}/[0-9a-f-]{36}/\\d+$`));
    const callId = Number(agent.url().split('/').at(-1));
    if (lang === 'tr') await agent.getByRole('combobox', { name: 'Language' }).selectOption('tr');

    const panel = agent.locator('.studio-call-steps');
    const current = panel.locator('[aria-current="step"]');
    const instruction = customer.getByTestId('step-instruction');
    /** The step is the agent's current one, and the customer's page says what to do for it. */
    const shown = async (kind: string) => {
      await expect(current).toContainText(kinds[kind] as string, LOAD);
      await expect(instruction).toHaveText(customerTexts.steps[kind] as string, LOAD);
    };
    /** Takes the step's screenshots with its button, as the agent does; each shows as a thumbnail. */
    const shoot = async (kind: ScreenshotStep, count: number) => {
      const name = kinds[kind] as string;
      for (let number = 1; number <= count; number++) {
        await current.getByRole('button', { name: fill(guide.shootStep, { name }) }).click();
        await expect(current.getByRole('img', { name: fill(guide.shotAlt, { number, name }) })).toBeVisible(
          LOAD,
        );
      }
    };
    const pass = async (kind: string) => {
      await shown(kind);
      await current
        .getByRole('button', { name: fill(guide.passStep, { name: kinds[kind] as string }) })
        .click();
      await expect(
        panel
          .getByRole('listitem')
          .filter({ hasText: kinds[kind] as string })
          .first(),
      ).toContainText(guide.results.passed);
    };

    for (const kind of ['face_screenshot', 'id_front', 'id_back'] as const) {
      await shown(kind);
      await shoot(kind, 1);
      await pass(kind);
    }
    await shown('security_features');
    for (const category of ['holograms_kinegrams', 'material', 'security_printing'])
      await panel.getByRole('checkbox', { name: guide.categories[category] }).check({ force: true });
    // One screenshot per category ticked.
    await shoot('security_features', 3);
    await pass('security_features');

    // The serial number: read out and typed on the customer's page, compared with the document on file.
    await shown('serial_number');
    expect(await fitsWidth(customer)).toBe(true);
    await customer.getByLabel(customerTexts.serialLabel).fill(number.toLowerCase());
    await customer.getByRole('button', { name: customerTexts.send, exact: true }).click();
    // The server's comparison passes the step; the agent moves on, and so does the customer's page.
    await shown('second_channel_code');
    await expect(
      panel.getByRole('listitem').filter({ hasText: kinds.serial_number as string }),
    ).toContainText(guide.results.passed);

    // The code: the agent sends it, the customer types a wrong one, then the one mailed to them.
    await current.getByRole('button', { name: guide.entry.sendCode }).click();
    const hidden = `${email[0]}•••${email.slice(email.indexOf('@'))}`;
    await expect(
      customer.getByText(
        fill(customerTexts.codeSent, { channel: customerTexts.channels.email as string, to: hidden }),
      ),
    ).toBeVisible(LOAD);
    const mailed = await request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`);
    const code = /\b(\d{6})\b/.exec(((await mailed.json()) as { body: string }[])[0]?.body ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    expect(await fitsWidth(customer)).toBe(true);
    const codeField = customer.getByLabel(customerTexts.codeLabel);
    await codeField.fill(code === '000000' ? '111111' : '000000');
    await customer.getByRole('button', { name: customerTexts.send, exact: true }).click();
    await expect(customer.getByRole('alert')).toHaveText(
      fill(customerTexts.problems.wrongCode_other as string, { count: 2 }),
    );
    await codeField.fill(code);
    await customer.getByRole('button', { name: customerTexts.send, exact: true }).click();
    // Right: the step passes and both pages move on at once (the "right" line may be gone before it is read).

    // The questions, then the decision.
    await shown('questions');
    for (const n of [1, 2])
      await current
        .getByRole('button', { name: `${fill(guide.question, { number: n })}: ${guide.results.passed}` })
        .click();
    await pass('questions');
    await expect(instruction).toHaveText(customerTexts.steps.decision as string, LOAD);

    if (lang === 'tr') await agent.getByRole('combobox', { name: 'Dil' }).selectOption('en-US');
    await agent.getByRole('button', { name: 'Hang up' }).click();
    await expect(agent.getByRole('heading', { name: 'How did the call end?' })).toBeVisible({
      timeout: 20_000,
    });
    await agent.getByRole('radio', { name: 'Complete', exact: true }).check({ force: true });
    await agent.getByRole('radio', { name: 'Identity verified' }).check({ force: true });
    await agent.getByRole('button', { name: 'Save status' }).click();
    await expect(agent.getByText('Video call status updated successfully')).toBeVisible({ timeout: 30_000 });

    // Every step passed; the customer's entries recorded by the server, the rest by the agent.
    const auth = { authorization: `Bearer ${await tokenOf(request, DEMO.admin)}` };
    const steps = (await (
      await request.get(`/api/v2/videocall/${callId}/steps`, { headers: auth })
    ).json()) as CallStep[];
    const latest = new Map(steps.map((s) => [s.kind, s]));
    for (const step of DEFAULT_IDENT_PROCEDURE.steps.filter((s) => s.kind !== 'decision'))
      expect(latest.get(step.kind)?.result, step.kind).toBe('passed');
    expect(latest.get('serial_number')).toMatchObject({ created_by: null, details: { matches: true } });
    expect(latest.get('second_channel_code')).toMatchObject({
      created_by: null,
      details: { channel: 'email' },
    });

    // The evidence package, once the studio uploaded the recording: downloaded by an Admin (the package needs
    // download_evidence, which the agent does not hold), in the agent's language, from the Video Calls tab.
    await expect
      .poll(
        async () =>
          (
            (await (await request.get(`/api/v2/videocall/${callId}`, { headers: auth })).json()) as {
              recorded_file: string | null;
            }
          ).recorded_file,
        { timeout: 60_000 },
      )
      .toBeTruthy();
    const evidenceTexts = calls as unknown as { evidence: { downloadLabel: string; saved: string } };
    const admin = await contexts.page(browser);
    await signIn(admin, DEMO.admin);
    await admin.goto(`/profile/${PROFILE}?tab=videoCalls`);
    // Chosen once the page has loaded: the signed-in user's own language is applied as the studio starts.
    if (lang === 'tr') await admin.getByRole('combobox', { name: 'Language' }).selectOption('tr');
    const [before, after] = evidenceTexts.evidence.downloadLabel.split('{{date}}') as [string, string];
    const download = admin
      .getByRole('row')
      .filter({ has: admin.locator(`a[href$="/video/${callId}"]`) })
      .getByRole('button', { name: new RegExp(`^${escapeRe(before)}.+${escapeRe(after)}$`) });
    await expect(download).toBeVisible(LOAD);
    const taken = (await (
      await request.get(`/api/v2/videocall/${callId}/screenshots`, { headers: auth })
    ).json()) as CallScreenshot[];
    expect(taken.map((shot) => shot.kind)).toEqual([
      'face_screenshot',
      'id_front',
      'id_back',
      'security_features',
      'security_features',
      'security_features',
    ]);
    await checkEvidence(admin, request, callId, download, ({ files, checked, json }) => {
      expect(checked).toContain('recording.webm: OK');
      const packed = json<{
        steps: CallStep[];
        screenshots: { id: number; kind: string; path: string; sha256: string }[];
      }>('steps.json');
      // Every screenshot taken in the call, as the file it was, listed in the signed manifest.
      expect(packed.screenshots.map(({ id, kind, sha256 }) => ({ id, kind, sha256 }))).toEqual(
        taken.map(({ id, kind, sha256 }) => ({ id, kind, sha256 })),
      );
      for (const shot of packed.screenshots) {
        expect(checked).toContain(`${shot.path}: OK`);
        expect(
          createHash('sha256')
            .update(readFileSync(join(files, shot.path)))
            .digest('hex'),
        ).toBe(shot.sha256);
      }
      // The steps passed, each screenshot step naming its screenshots; the serial number and the code too.
      const packedLatest = new Map(packed.steps.map((step) => [step.kind, step]));
      for (const kind of ['face_screenshot', 'id_front', 'id_back', 'security_features'] as const)
        expect(packedLatest.get(kind), kind).toMatchObject({
          result: 'passed',
          details: { screenshots: taken.filter((shot) => shot.kind === kind).map((shot) => shot.id) },
        });
      expect(packedLatest.get('serial_number')).toMatchObject({
        result: 'passed',
        details: { matches: true },
      });
      expect(packedLatest.get('second_channel_code')).toMatchObject({ result: 'passed' });
    });
    await expect(admin.getByText(evidenceTexts.evidence.saved)).toBeVisible(LOAD);
  });
}
