import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { PNG } from 'pngjs';
import { Contexts, joinQueue, playing } from './callSupport';
import { DEMO } from './support';

/**
 * The profile review and the call wrap-up with the keyboard alone. No click anywhere on
 * the studio's side (the customer of the call is another person): Tab, arrows, Enter, Space and Escape. After
 * every dialog the focus is back where it was, and the focused control shows it (:focus-visible).
 */
test.describe.configure({ timeout: 180_000 });

/** Presses Tab (or Shift+Tab) until the target holds the focus. */
async function tabTo(page: Page, target: Locator, backwards = false, max = 150): Promise<void> {
  await expect(target).toBeVisible();
  for (let i = 0; i < max; i += 1) {
    // contains: a menu option's focusable element is the link inside it.
    if (await target.evaluate((el) => el.contains(document.activeElement))) return;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${target} never got the focus by Tab`);
}

/** The focused element matches :focus-visible and draws an outline or a ring. */
async function expectFocusVisible(page: Page) {
  const shown = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'nothing has the focus';
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
    const ring = style.boxShadow !== 'none';
    return el.matches(':focus-visible') && (outline || ring)
      ? 'visible'
      : `${el.outerHTML.slice(0, 120)}: outline ${style.outlineStyle} ${style.outlineWidth}, shadow ${style.boxShadow}`;
  });
  expect(shown).toBe('visible');
}

/** Whether `target` holds the focus; when it does not, what does (so a failure says where the focus went). */
const focused = (target: Locator) =>
  expect.poll(async () =>
    (await target.evaluate((el) => el === document.activeElement))
      ? true
      : target.page().evaluate(() => {
          const el = document.activeElement;
          return el ? `focus on ${el.outerHTML.slice(0, 160)}` : 'focus on nothing';
        }),
  );

async function keyboardSignIn(page: Page, who: { email: string; password: string }) {
  await page.goto('/login');
  await tabTo(page, page.getByLabel('E-mail', { exact: true }));
  await page.keyboard.type(who.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(who.password);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible({ timeout: 20_000 });
}

function pngPage(rgb: [number, number, number]): Buffer {
  const image = new PNG({ width: 320, height: 200 });
  for (let i = 0; i < 320 * 200; i += 1) image.data.set([...rgb, 255], i * 4);
  return PNG.sync.write(image);
}

/** A fresh profile with a two-page identity card, made through the API. */
async function freshProfile(request: APIRequestContext): Promise<number> {
  const login = await request.post('/api/v1/login/', {
    data: { username: DEMO.agent.email, password: DEMO.agent.password },
  });
  const headers = { authorization: `Bearer ${((await login.json()) as { access: string }).access}` };
  const created = await request.post('/api/v2/profile', {
    headers,
    data: { id_card_number: `KB${Date.now()}`, name: 'Keyboard Review', gender: 'F' },
  });
  expect(created.status()).toBe(201);
  const profileId = ((await created.json()) as { id: number }).id;
  const types = (await (await request.get('/api/v2/documenttype', { headers })).json()) as {
    id: number;
    document_class: string;
  }[];
  const form = new FormData();
  form.append('profile', String(profileId));
  form.append('type', String(types.find((t) => t.document_class === 'ID')?.id ?? 0));
  form.append('upload_source', 'sdk');
  for (const [i, rgb] of [
    [30, 90, 160],
    [160, 60, 40],
  ].entries())
    form.append(
      'pages',
      new Blob([new Uint8Array(pngPage(rgb as [number, number, number]))], { type: 'image/png' }),
      `page-${i + 1}.png`,
    );
  expect((await request.post('/api/v2/document', { headers, multipart: form })).status()).toBe(201);
  return profileId;
}

test('the whole profile review with the keyboard alone', async ({ page, request }) => {
  const id = await freshProfile(request);
  await keyboardSignIn(page, DEMO.agent);
  await page.goto(`/profile/${id}`);
  await expect(page.getByRole('heading', { level: 2, name: 'Keyboard Review' })).toBeVisible();

  // Tabs: the arrows move between them, Enter opens one.
  await tabTo(page, page.getByRole('tab', { name: 'Profile Info' }));
  await expectFocusVisible(page);
  for (const name of ['Verification Steps', 'AI Agent', 'Documents']) {
    await page.keyboard.press('ArrowRight');
    const tab = page.getByRole('tab', { name });
    await focused(tab).toBe(true);
    await page.keyboard.press('Enter');
    await expect(tab).toHaveAttribute('aria-selected', 'true');
  }

  // Documents: a page thumbnail opens the viewer; + zooms, the arrows page; Escape gives the focus back.
  const panel = page.getByRole('tabpanel', { name: 'Documents' });
  const thumbnail = panel.getByRole('listitem').getByRole('button').first();
  await tabTo(page, thumbnail);
  await expectFocusVisible(page);
  await page.keyboard.press('Enter');
  const viewer = page.getByRole('dialog');
  await expect(viewer).toBeVisible();
  await page.keyboard.press('+');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
  await focused(thumbnail).toBe(true);

  // The document's page: reject asks for a reason (Escape cancels it, focus back), approve approves.
  await tabTo(page, panel.getByRole('link').first());
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/document\/\d+/);
  // The address changes at once, but the profile (whose Documents tab has a Reject button of its own) stays on
  // the screen until the document screen's code is in: wait for the document screen itself.
  await expect(page.getByRole('link', { name: "← Back to the profile's documents" })).toBeVisible();
  const reject = page.getByRole('button', { name: 'Reject', exact: true });
  await tabTo(page, reject);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toBeVisible();
  // Blueprint moves the focus into the dialog a frame after it opens: Escape goes from there, as a person's would.
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.closest('.bp6-overlay-open') != null))
    .toBe(true);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  await focused(reject).toBe(true);
  const approve = page.getByRole('button', { name: 'Approve', exact: true });
  await tabTo(page, approve, true);
  await page.keyboard.press('Enter');
  await expect(approve).toBeDisabled();

  // Back to the profile through its section navigation.
  await tabTo(
    page,
    page.getByRole('navigation', { name: 'Profile sections' }).getByRole('link').first(),
    true,
  );
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2, name: 'Keyboard Review' })).toBeVisible();

  // Status: the menu by keyboard; Escape on the confirmation returns the focus to the status button.
  const status = page.getByRole('button', { name: /^Change status:/ });
  const chooseRejected = async () => {
    await tabTo(page, status);
    await expectFocusVisible(page);
    await page.keyboard.press('Enter');
    await tabTo(page, page.locator('.bp6-portal').getByRole('option', { name: 'Rejected' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog')).toBeVisible();
    // The dialog moves the focus into itself once its opening transition is done: Tab only after that.
    await expect(page.locator('.bp6-dialog-container.bp6-overlay-enter-done')).toBeVisible();
  };
  await chooseRejected();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  await focused(status).toBe(true);
  await chooseRejected();
  await tabTo(page, page.getByRole('dialog').getByRole('textbox', { name: 'Reason' }));
  await page.keyboard.type('The identity card photo does not match.');
  await tabTo(page, page.getByRole('dialog').getByRole('button', { name: 'Change status' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(status).toHaveAccessibleName('Change status: Rejected');
  await focused(status).toBe(true);

  // A note.
  await tabTo(page, page.getByLabel('New note', { exact: true }));
  await expectFocusVisible(page);
  await page.keyboard.type('Reviewed with the keyboard only.');
  await tabTo(page, page.getByRole('button', { name: 'Add note' }));
  await page.keyboard.press('Enter');
  await expect(page.getByText('Reviewed with the keyboard only.')).toBeVisible();
});

test('the call wrap-up with the keyboard alone: answer, questions, hang up, status', async ({ browser }) => {
  const contexts = new Contexts();
  try {
    const agent = await contexts.page(browser);
    await keyboardSignIn(agent, DEMO.agent);
    await agent.goto('/calls');
    const availability = agent.getByRole('button', { name: /^Availability:/ });
    if (!(await availability.getAttribute('aria-label'))?.endsWith('Online')) {
      await tabTo(agent, availability);
      await agent.keyboard.press('Enter');
      await tabTo(agent, agent.getByRole('menuitemradio', { name: 'Online' }));
      await agent.keyboard.press('Enter');
    }
    await expect(availability).toHaveAccessibleName('Availability: Online');

    // The join link of profile 3, made with the keyboard on its Video Calls tab.
    await agent.goto('/profile/3?tab=videoCalls');
    await tabTo(agent, agent.getByRole('button', { name: 'Create a join link' }));
    await agent.keyboard.press('Enter');
    const link = agent.getByLabel('Customer join link');
    await expect(link).toHaveValue(/customer\.html\?token=/);
    const joinUrl = await link.inputValue();
    await agent.goto('/calls');

    const customer = await contexts.page(browser);
    await joinQueue(customer, joinUrl);
    const ringing = agent.getByRole('alertdialog');
    await expect(ringing).toContainText('Incoming video call', { timeout: 20_000 });
    await tabTo(agent, ringing.getByRole('button', { name: 'Answer', exact: true }));
    await expectFocusVisible(agent);
    await agent.keyboard.press('Enter');
    await expect(agent).toHaveURL(/\/call\/3\/[^/]+\/\d+$/);
    await playing(agent, "Customer's video");

    // A question answered: typed, saved with Enter.
    const question = agent.getByRole('textbox', { name: 'Please state your full name.' });
    await tabTo(agent, question);
    await expectFocusVisible(agent);
    await agent.keyboard.type('Deniz Şahin');
    await agent.keyboard.press('Enter');
    await expect(agent.getByText('Saved', { exact: true })).toBeVisible();

    // Hang up, then the status: arrows in the radio group, Save status.
    await tabTo(agent, agent.getByRole('button', { name: 'Hang up' }));
    await agent.keyboard.press('Enter');
    await expect(agent.getByRole('heading', { name: 'How did the call end?' })).toBeVisible({
      timeout: 20_000,
    });
    const complete = agent.getByRole('radio', { name: 'Complete', exact: true });
    await tabTo(agent, agent.getByRole('radio').first());
    await expectFocusVisible(agent);
    for (let i = 0; i < 12 && !(await complete.isChecked()); i += 1) await agent.keyboard.press('ArrowDown');
    await expect(complete).toBeChecked();
    await tabTo(agent, agent.getByRole('button', { name: 'Save status' }));
    await agent.keyboard.press('Enter');
    await expect(agent.getByText('Call closed')).toBeVisible({ timeout: 30_000 });
    await expect(customer.getByRole('heading', { name: 'The call has ended' })).toBeVisible();
  } finally {
    await contexts.closeAll();
  }
});
