import { expect, type Page, test } from '@playwright/test';
import { DEMO, path, tokenOf } from './support';

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Customers' })).toBeVisible();
}

const table = (page: Page) => page.getByRole('table', { name: 'Customers' });

test('a profile opens with its header, every tab of a company with all services, questionnaire and logs', async ({
  page,
}) => {
  await signIn(page, 'admin@acme.test', 'Admin@2026');
  const row = table(page).locator('tbody tr').first();
  const name = (await row.locator('td').nth(1).textContent()) ?? '';
  const status = (await row.locator('td').nth(5).textContent()) ?? '';
  await row.getByRole('link').click();

  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
  await expect(page.locator('.studio-profile-header')).toContainText(status);
  await expect(page.getByRole('tab')).toHaveText([
    'Profile Info',
    'Verification Steps',
    'AI Agent',
    'Documents',
    'AML & Adverse Media',
    'Video Calls',
    'Transactions',
    'Questionnaires',
    // An Admin's: who viewed the profile.
    'Viewed by',
  ]);
  await expect(page.getByRole('tabpanel')).toContainText('ID card number');

  await page.getByRole('tab', { name: 'Questionnaires' }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('tab')).toBe('questionnaires');
  const orders = await page.getByRole('tabpanel').locator('tbody tr td:first-child').allTextContents();
  expect(orders.map(Number)).toEqual([...orders.map(Number)].sort((a, b) => a - b));
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Questionnaires' })).toHaveAttribute('aria-selected', 'true');
});

test('the logs page 20 at a time with Load more', async ({ page }) => {
  await signIn(page, 'agent@acme.test', 'User@2026');
  await table(page).locator('tbody tr').nth(5).getByRole('link').click();
  const id = new URL(page.url()).pathname.split('/').at(-1);
  // Each note adds a log entry: 21 notes make more than one page whatever the profile had.
  const token = await page.evaluate(
    () => JSON.parse(localStorage.getItem('accounts') ?? '[]')[0]?.access as string,
  );
  for (let i = 1; i <= 21; i++) {
    const answer = await page.request.post(`/api/v2/profile/${id}/note`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { note: `Paging check number ${i} of the logs.` },
    });
    expect(answer.status()).toBe(201);
  }
  await page.reload();
  const logs = page.getByRole('list', { name: 'Logs' });
  await expect(logs.locator('li')).toHaveCount(20);
  await page.getByRole('button', { name: 'Load more' }).click();
  await expect.poll(() => logs.locator('li').count()).toBeGreaterThan(21);
  await expect(logs.locator('li').first()).toContainText('Note added');
});

test('a company with few services shows only their tabs', async ({ page }) => {
  await signIn(page, 'admin@globex.test', 'Admin@2026');
  await table(page).locator('tbody tr').first().getByRole('link').click();
  await expect(page.getByRole('tab')).toHaveText([
    'Profile Info',
    'Verification Steps',
    'AI Agent',
    'Documents',
    'Video Calls',
    'Viewed by',
  ]);
});

test("a profile that does not exist (or is another company's) shows the server's detail", async ({
  page,
}) => {
  await signIn(page, 'admin@globex.test', 'Admin@2026');
  await page.goto('/profile/1');
  await expect(page.getByRole('alert')).toContainText('The profile could not be loaded.');
  await expect(page.getByRole('alert')).toContainText('Not found.');
  expect(path(page)).toBe('/profile/1');
});

test('check list answers and their notes are saved per question and survive a reload', async ({ page }) => {
  await signIn(page, 'agent@acme.test', 'User@2026');
  await table(page).locator('tbody tr').nth(3).getByRole('link').click();
  const sidebar = page.getByRole('complementary', { name: 'Profile sidebar' });
  const question = sidebar.locator('.studio-checklist-question').first();
  await expect(question).toBeVisible();
  await question.getByRole('button', { name: 'No' }).click();
  await expect(question.getByRole('button', { name: 'No' })).toHaveAttribute('aria-pressed', 'true');
  await question
    .getByRole('textbox', { name: 'Note for this question' })
    .fill('Checked against the registry.');
  await question.getByRole('textbox', { name: 'Note for this question' }).press('Enter');
  await expect(question.getByRole('button', { name: 'No' })).toBeEnabled();
  await page.reload();
  const again = page
    .getByRole('complementary', { name: 'Profile sidebar' })
    .locator('.studio-checklist-question')
    .first();
  await expect(again.getByRole('button', { name: 'No' })).toHaveAttribute('aria-pressed', 'true');
  await expect(again.getByRole('textbox', { name: 'Note for this question' })).toHaveValue(
    'Checked against the registry.',
  );
  await expect(page.getByRole('heading', { name: 'Government check (NVI)' })).toBeVisible();
  await expect(sidebar.getByRole('heading', { name: 'Archive' })).toBeVisible();
});

test('the Verification Steps and AI Agent tabs show where the profile stands and answer questions', async ({
  page,
}) => {
  await signIn(page, 'admin@acme.test', 'Admin@2026');
  await table(page).locator('tbody tr').first().getByRole('link').click();
  await page.getByRole('tab', { name: 'Verification Steps' }).click();
  const steps = page.getByRole('tabpanel').locator('.studio-step');
  await expect(steps).toHaveCount(6);
  await expect(steps.first()).toContainText('Identity document');
  await page.getByRole('tab', { name: 'AI Agent' }).click();
  const panel = page.getByRole('tabpanel');
  await panel.getByLabel('Question').fill('Which documents does this customer have?');
  await panel.getByRole('button', { name: 'Ask' }).click();
  await expect(panel.getByRole('list', { name: 'AI Agent' }).locator('li')).toHaveCount(1);
  await expect(panel.getByRole('list', { name: 'AI Agent' })).toContainText(
    'Which documents does this customer have?',
  );
});

test('the Transactions tab lists payments with their status and monitoring flags', async ({ page }) => {
  await signIn(page, 'admin@acme.test', 'Admin@2026');
  // The first profiles of the list include some with transactions; open them until one shows a table.
  for (let row = 0; row < 10; row++) {
    await page.goto('/customers');
    await table(page).locator('tbody tr').nth(row).getByRole('link').click();
    await page.getByRole('tab', { name: 'Transactions' }).click();
    const panel = page.getByRole('tabpanel');
    await expect(panel.getByRole('heading', { name: 'Transactions' })).toBeVisible();
    if (await panel.getByRole('table', { name: 'Transactions' }).isVisible()) {
      await expect(panel.getByRole('table').locator('tbody tr').first()).toContainText(
        /Completed|Pending|Declined/,
      );
      return;
    }
  }
  throw new Error('no profile with transactions among the first ten');
});

test('a reviewer’s profile shows with its review cases above the tabs, which never move once shown', async ({
  page,
  request,
}) => {
  const token = await tokenOf(request, DEMO.agent);
  const open = await request.get('/api/v2/review/cases?limit=1', {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(open.status()).toBe(200);
  const [first] = ((await open.json()) as { results: { profile: number }[] }).results;
  expect(first, 'the demo data has open review cases').toBeDefined();
  // Every layout shift of the page, with the elements it moved.
  await page.addInitScript(() => {
    const shifts: string[] = [];
    (window as unknown as { shifts: string[] }).shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        sources?: { node?: Node | null }[];
      })[]) {
        for (const source of entry.sources ?? []) {
          const node = source.node;
          if (node instanceof Element) shifts.push(node.className || node.nodeName);
        }
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await signIn(page, DEMO.agent.email, DEMO.agent.password);
  await page.goto(`/profile/${first?.profile}?tab=videoCalls`);
  const tabs = page.getByRole('tablist');
  await expect(tabs).toBeVisible();
  // Shown together: the cases came in with the profile, not after the tabs were under the pointer.
  expect(await page.getByRole('region', { name: 'Review cases of this profile' }).isVisible()).toBe(true);
  const shown = await tabs.boundingBox();
  await page.waitForLoadState('networkidle');
  expect((await tabs.boundingBox())?.y).toBe(shown?.y);
  const moved = await page.evaluate(() => (window as unknown as { shifts: string[] }).shifts);
  expect(moved.filter((name) => /bp6-tab|studio-profile-meta|studio-video-calls/.test(name))).toEqual([]);
});

test('the profile shows with its sidebar’s check lists and logs, and the cards under them never move', async ({
  page,
}) => {
  await signIn(page, DEMO.agent.email, DEMO.agent.password);
  await page.goto('/profile/4');
  await expect(page.getByRole('tablist')).toBeVisible();
  const sidebar = page.getByRole('complementary', { name: 'Profile sidebar' });
  // Shown together: the first two cards came in with the profile, not after the page was under the pointer.
  expect(await sidebar.getByRole('button', { name: 'Yes' }).first().isVisible()).toBe(true);
  expect(await sidebar.getByRole('list', { name: 'Logs' }).getByRole('listitem').first().isVisible()).toBe(
    true,
  );
  const notes = sidebar.locator('.studio-sidebar-card').nth(2);
  const shown = await notes.boundingBox();
  await page.waitForLoadState('networkidle');
  expect((await notes.boundingBox())?.y).toBe(shown?.y);
});
