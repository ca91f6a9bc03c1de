/**
 * `npm run docs:screens`: the screenshots of the user guides (docs/users/*.md), made again from the product as it
 * is, so that a guide never shows a screen that no longer exists.
 *
 * Starts the server with the demo data on a free port and a temporary DATA_DIR, signs in as each role in
 * headless Chromium (CHROMIUM_PATH, else /usr/bin/chromium; fake camera and microphone) and writes PNGs of
 * 1280×800 into docs/users/screens/: en-US in the light theme, and a few in Turkish in the dark theme. One
 * video call is taken end to end (join link, the customer's consent and device check, the ring, the call,
 * the wrap-up) so that the agent's guide shows every step.
 *
 * Options: `--no-build` uses dist/ as it is (else the studio is built when older than its sources);
 * `--only <prefix>` writes only the screens whose name starts with it. A step that fails is reported and the
 * others still run; the exit code is 1 when any failed.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import {
  benchServerEnv,
  finished,
  freePort,
  launchChromium,
  run,
  signInAs,
  stop,
  waitForServer,
} from '../bench/support';
import { buildStudioIfStale } from './studioBuild';

const OUT = 'docs/users/screens';
const VIEWPORT = { width: 1280, height: 800 };
const DEMO = {
  admin: { email: 'admin@acme.test', password: 'Admin@2026' },
  agent: { email: 'agent@acme.test', password: 'User@2026' },
  reviewer: { email: 'reviewer@acme.test', password: 'User@2026' },
} as const;
/** A seeded Acme profile with video calls in its history (every third profile has some). */
const CALL_PROFILE = 3;
const WAIT = 45_000;

const onlyIndex = process.argv.indexOf('--only');
const ONLY = onlyIndex >= 0 ? (process.argv[onlyIndex + 1] ?? '') : '';
const failures: string[] = [];
const written: string[] = [];

let server: ReturnType<typeof run> | undefined;
let browser: Browser | undefined;
let dataDir: string | undefined;

/**
 * Until the screen has its data: no spinner (outside buttons) and no skeleton for a while (a screen that has just
 * been navigated to may not have drawn its spinners yet), then fonts loaded.
 */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  const deadline = Date.now() + WAIT;
  let quiet = 0;
  while (quiet < 4 && Date.now() < deadline) {
    const busy = await page.evaluate(
      () =>
        [...document.querySelectorAll('.bp6-spinner, .bp6-skeleton')].filter(
          (node) => !node.closest('.bp6-button') && (node as HTMLElement).offsetParent !== null,
        ).length,
    );
    quiet = busy === 0 ? quiet + 1 : 0;
    await page.waitForTimeout(250);
  }
  await page.evaluate(() => document.fonts.ready);
}

async function shot(page: Page, name: string): Promise<void> {
  if (!name.startsWith(ONLY)) return;
  await settled(page);
  await page.mouse.move(0, 0);
  const path = join(OUT, `${name}.png`);
  await page.screenshot({ path });
  written.push(path);
  console.log(`  ${path}`);
}

/** Runs one part; a failure is reported with its screen name and the next part goes on. */
async function part(name: string, body: () => Promise<void>): Promise<void> {
  console.log(name);
  try {
    await body();
  } catch (error) {
    failures.push(`${name}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    console.error(`  failed: ${failures.at(-1)}`);
  }
}

async function context(
  base: string,
  mode: { locale?: 'en-US' | 'tr-TR'; dark?: boolean } = {},
): Promise<BrowserContext> {
  if (!browser) throw new Error('no browser');
  return browser.newContext({
    baseURL: base,
    viewport: VIEWPORT,
    locale: mode.locale ?? 'en-US',
    colorScheme: mode.dark ? 'dark' : 'light',
    reducedMotion: 'reduce',
    permissions: ['camera', 'microphone'],
  });
}

async function signedIn(base: string, who: { email: string; password: string }): Promise<Page> {
  const page = await (await context(base)).newPage();
  await signInAs(page, who);
  return page;
}

const availability = (page: Page) => page.getByRole('button', { name: /^Availability:/ });

async function goOnline(page: Page): Promise<void> {
  await page.goto('/calls');
  await availability(page).waitFor({ timeout: WAIT });
  if (!(await availability(page).getAttribute('aria-label'))?.endsWith('Online')) {
    await availability(page).click();
    await page.getByRole('menuitemradio', { name: 'Online' }).waitFor();
    await shot(page, 'agent-availability');
    await page.getByRole('menuitemradio', { name: 'Online' }).click();
  }
  await page.getByRole('button', { name: 'Availability: Online' }).waitFor({ timeout: WAIT });
}

async function agentAndSupervisor(base: string): Promise<void> {
  const agent = await signedIn(base, DEMO.agent);
  await shot(agent, 'agent-customers');
  await goOnline(agent);

  await agent.goto(`/profile/${CALL_PROFILE}?tab=videoCalls`);
  await agent.getByRole('button', { name: 'Create a join link' }).click();
  const field = agent.getByLabel('Customer join link');
  await field.waitFor({ timeout: WAIT });
  const deadline = Date.now() + WAIT;
  while (!/customer\.html\?token=/.test(await field.inputValue()) && Date.now() < deadline)
    await agent.waitForTimeout(200);
  const link = await field.inputValue();
  await shot(agent, 'agent-join-link');
  await agent.goto('/calls');
  await agent.getByRole('button', { name: 'Availability: Online' }).waitFor({ timeout: WAIT });

  const supervisor = await signedIn(base, DEMO.admin);
  await supervisor.goto('/calls');

  const customer = await (await context(base)).newPage();
  await customer.goto(link);
  await customer.getByRole('button', { name: 'I agree' }).waitFor({ timeout: WAIT });
  await shot(customer, 'customer-consent');
  await customer.getByRole('button', { name: 'I agree' }).click();
  await customer.getByRole('button', { name: 'Join the call' }).waitFor({ timeout: WAIT });
  await customer.waitForTimeout(1500);
  await shot(customer, 'customer-device-check');
  await customer.getByRole('button', { name: 'Join the call' }).click();

  await agent.getByRole('alertdialog').waitFor({ timeout: WAIT });
  await shot(agent, 'agent-incoming-call');
  await shot(supervisor, 'supervisor-calls-waiting');

  await agent.getByRole('button', { name: 'Answer', exact: true }).click();
  await agent.waitForURL(/\/call\/\d+\/[0-9a-f-]{36}\/\d+$/, { timeout: WAIT });
  await agent.getByText('Recording', { exact: true }).waitFor({ timeout: WAIT });
  await agent.waitForTimeout(2500);
  await shot(agent, 'agent-call');
  await shot(customer, 'customer-call');
  await shot(supervisor, 'supervisor-calls-talking');

  await agent.getByRole('button', { name: 'Hang up' }).click();
  await agent.getByRole('heading', { name: 'How did the call end?' }).waitFor({ timeout: WAIT });
  await shot(agent, 'agent-wrap-up');
  await agent.getByRole('radio', { name: 'Complete', exact: true }).check({ force: true });
  await agent.getByRole('button', { name: 'Save status' }).click();

  await agent.goto(`/profile/${CALL_PROFILE}?tab=videoCalls`);
  await agent.getByRole('cell', { name: 'Complete', exact: true }).first().waitFor({ timeout: WAIT });
  await shot(agent, 'agent-video-calls-tab');

  await supervisor.goto('/calls?tab=report');
  await shot(supervisor, 'supervisor-call-report');
  await supervisor.goto('/dashboard');
  await shot(supervisor, 'supervisor-dashboard');
  await supervisor.context().close();
  await customer.context().close();
  await agent.context().close();
}

async function reviewer(base: string): Promise<void> {
  const page = await signedIn(base, DEMO.reviewer);
  if (!page.url().endsWith('/review')) await page.goto('/review');
  await page.locator('tbody tr').first().waitFor({ timeout: WAIT });
  await shot(page, 'reviewer-desk');
  await page.getByRole('button', { name: 'Next case' }).click();
  await page.waitForURL(/\/profile\/\d+/, { timeout: WAIT });
  await page.locator('article[data-case]').first().waitFor({ timeout: WAIT });
  await shot(page, 'reviewer-case');
  await page.locator('article[data-case]').first().getByRole('button', { name: 'Decide' }).click();
  await page.getByRole('dialog').waitFor({ timeout: WAIT });
  await shot(page, 'reviewer-decide');
  await page.keyboard.press('Escape');
  const profile = /\/profile\/(\d+)/.exec(page.url())?.[1];
  await page.goto(`/profile/${profile}?tab=documents`);
  await shot(page, 'reviewer-documents');
  await page.context().close();
}

async function admin(base: string): Promise<void> {
  const signIn = await (await context(base)).newPage();
  await signIn.goto('/login');
  await signIn.getByLabel('E-mail', { exact: true }).waitFor({ timeout: WAIT });
  await shot(signIn, 'sign-in');
  await signIn.context().close();

  const page = await signedIn(base, DEMO.admin);
  await page.goto('/admin');
  await page.locator('tbody tr').first().waitFor({ timeout: WAIT });
  await shot(page, 'admin-users');
  // After the call and the review: the audit log has their entries by now.
  await page.goto('/admin?tab=audit');
  await shot(page, 'admin-audit');
  await page.goto('/admin?tab=mail');
  await shot(page, 'admin-mail');
  await page.goto('/company-settings');
  await shot(page, 'admin-company-settings');
  await page.goto('/company-settings?tab=review-desk');
  await shot(page, 'admin-review-desk-settings');
  await page.goto('/company-settings?tab=call-routing');
  await shot(page, 'admin-call-routing');
  await page.goto('/settings');
  await shot(page, 'admin-own-settings');
  await page.context().close();
}

/** A few screens in Turkish and the dark theme: the studio follows the browser's language and colour scheme. */
async function turkishDark(base: string): Promise<void> {
  const page = await (await context(base, { locale: 'tr-TR', dark: true })).newPage();
  await page.goto('/login');
  await page.getByLabel('E-posta', { exact: true }).fill(DEMO.admin.email);
  await page.getByLabel('Şifre', { exact: true }).fill(DEMO.admin.password);
  await page.getByRole('button', { name: 'Giriş yap', exact: true }).click();
  await page.getByRole('navigation', { name: 'Ana gezinme' }).waitFor({ timeout: WAIT });
  await page.goto('/customers');
  await page.locator('tbody tr').first().waitFor({ timeout: WAIT });
  await shot(page, 'tr-dark-customers');
  await page.goto(`/profile/${CALL_PROFILE}`);
  await shot(page, 'tr-dark-profile');
  await page.goto('/calls');
  await shot(page, 'tr-dark-calls');
  await page.context().close();
}

async function cleanUp(): Promise<void> {
  await browser?.close().catch(() => undefined);
  await stop(server);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });

async function main(): Promise<void> {
  if (!process.argv.includes('--no-build')) buildStudioIfStale();
  mkdirSync(OUT, { recursive: true });
  dataDir = mkdtempSync(join(tmpdir(), 'idv-docs-screens-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  try {
    const env = benchServerEnv(dataDir, port);
    // Seeded first, as its own step: the server then starts on a database that is ready.
    console.log(`Seeding the demo data into ${dataDir} …`);
    const seeded = await finished(run(['server/db/seed.ts'], env));
    if (seeded !== 0) throw new Error(`seed failed (${seeded})`);
    console.log(`Starting the demo server on ${base} …`);
    server = run(['server/main.ts'], env);
    await waitForServer(base, server);
    browser = await launchChromium();
    await part('reviewer', () => reviewer(base));
    await part('agent and supervisor (one video call)', () => agentAndSupervisor(base));
    await part('admin', () => admin(base));
    await part('Turkish, dark theme', () => turkishDark(base));
  } finally {
    await cleanUp();
  }
  console.log(`${written.length} screenshots in ${OUT}/`);
  if (failures.length > 0) {
    console.error(`${failures.length} part(s) failed:\n${failures.join('\n')}`);
    process.exitCode = 1;
  }
}

await main();
