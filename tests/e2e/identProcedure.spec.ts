import type { APIRequestContext, Page } from '@playwright/test';
import { DEFAULT_IDENT_PROCEDURE } from '#contract/identProcedure';
import { expect, test } from './cspGuard';
import { DEMO, signIn } from './support';

/**
 * The identification procedure tab. The e2e server's database is shared by every spec:
 * each test leaves Acme's procedure as the default template again. IDENT_PROCEDURE_SCREENSHOTS=<folder>
 * writes screenshots (en-US light, tr dark).
 */
const shots = process.env.IDENT_PROCEDURE_SCREENSHOTS;

async function resetProcedure(request: APIRequestContext) {
  const login = await request.post('/api/v1/login/', {
    data: { username: DEMO.admin.email, password: DEMO.admin.password },
  });
  const { access } = (await login.json()) as { access: string };
  const saved = await request.put('/api/v2/ident_procedure', {
    headers: { authorization: `Bearer ${access}` },
    data: DEFAULT_IDENT_PROCEDURE,
  });
  expect(saved.status()).toBe(200);
}
test.afterEach(async ({ request }) => resetProcedure(request));
// Sign-in, a save and a reload each load chunks: on a loaded 2-core machine that passes the default 30 s.
test.beforeEach(() => test.setTimeout(150_000));
/** Waiting for the studio's chunks after a navigation (slow on a loaded machine). */
const LOAD = { timeout: 30_000 };

const stepTitles = (page: Page) => page.getByRole('list', { name: /^(Steps|Adımlar)$/ }).locator('li strong');

async function openTab(page: Page) {
  await page.goto('/company-settings?tab=ident-procedure');
  await expect(stepTitles(page).first()).toBeVisible(LOAD);
}

test('an admin reorders a step, edits a question in Turkish, saves and sees it after a reload', async ({
  page,
}) => {
  await signIn(page);
  await openTab(page);
  await expect(page.getByRole('tab', { name: 'Identification procedure' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(stepTitles(page).nth(5)).toHaveText('Step 6: Serial number');
  if (shots) await page.screenshot({ path: `${shots}/ident-procedure-en-light.png`, fullPage: true });

  // With the keyboard: the focus stays on the moved step's button.
  const up = page.getByRole('button', { name: 'Move Serial number up' });
  await up.focus();
  await page.keyboard.press('Enter');
  await expect(stepTitles(page).nth(4)).toHaveText('Step 5: Serial number');
  await expect(up).toBeFocused();
  await expect(stepTitles(page).nth(5)).toHaveText('Step 6: Security features');

  const turkish = page.getByRole('textbox', { name: 'Question 1 (Turkish)' });
  await turkish.fill('Doğum tarihiniz ve doğum yeriniz nedir?');
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('The identification procedure was saved')).toBeVisible();

  await page.reload();
  await expect(stepTitles(page).nth(4)).toHaveText('Step 5: Serial number', LOAD);
  await expect(page.getByRole('textbox', { name: 'Question 1 (Turkish)' })).toHaveValue(
    'Doğum tarihiniz ve doğum yeriniz nedir?',
  );
  await expect(page.getByText('Unsaved changes')).toHaveCount(0);
});

test("the server's refusal shows inline and nothing is saved; reset asks first", async ({ page }) => {
  await signIn(page);
  await openTab(page);
  await page.getByRole('textbox', { name: 'Question 1 (English)' }).fill('');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('procedure-error')).toContainText(
    'The procedure was not saved: body.steps.7.pool.0.text',
  );
  await page.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page.getByTestId('procedure-error')).toHaveCount(0);

  await page.getByRole('button', { name: 'Remove Second-channel code' }).click();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('The identification procedure was saved')).toBeVisible();
  await expect(page.getByTestId('procedure-second_channel_code')).toHaveCount(0);

  await page.getByRole('button', { name: 'Reset to default' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm).toContainText('Reset the procedure to the default?');
  await confirm.getByRole('button', { name: 'Reset and save' }).click();
  await expect(page.getByText('The procedure was reset to the default')).toBeVisible();
  await expect(page.getByTestId('procedure-second_channel_code')).toBeVisible();
});

test('in Turkish, dark theme', async ({ page }) => {
  await signIn(page);
  await page.evaluate(() => {
    localStorage.setItem('language', 'tr');
    localStorage.setItem('theme', 'dark');
  });
  await openTab(page);
  await expect(page.getByRole('tab', { name: 'Kimlik doğrulama prosedürü' })).toBeVisible();
  await expect(stepTitles(page).first()).toHaveText('Adım 1: Onay');
  await expect(page.getByRole('button', { name: 'Seri numarası adımını yukarı taşı' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Varsayılana sıfırla' })).toBeVisible();
  if (shots) await page.screenshot({ path: `${shots}/ident-procedure-tr-dark.png`, fullPage: true });
});

test('a User has no company settings: the page is not allowed', async ({ page }) => {
  await signIn(page, DEMO.agent);
  await expect(
    page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Company settings' }),
  ).toHaveCount(0);
  await page.goto('/company-settings?tab=ident-procedure');
  await expect(page.getByText('You are not allowed to visit this page.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);
});
