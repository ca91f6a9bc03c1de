import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
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
 * the whisper; the evidence package lists the watcher and the whisper. Watching four at once, and the refusal of
 * a fifth, are the server's rules, tested in tests/server/callWatch.test.ts.
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
