/**
 * The reviewers' desk settings in the studio: an Admin edits a reason code's Turkish label and a queue's SLA,
 * switches a four-eyes rule (Company settings, tab Review desk), then sees the reviewers' desk metrics on the
 * dashboard and downloads their CSV. Once in each language. REVIEW_ADMIN_SHOTS=<dir> also saves screenshots of
 * both screens in the light and dark themes.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { DEMO, signIn, tokenOf } from './support';

const shots = process.env.REVIEW_ADMIN_SHOTS;
if (shots) mkdirSync(shots, { recursive: true });

const TEXTS = {
  'en-US': {
    tab: 'Review desk',
    editForged: 'Edit document_forged',
    dialog: /^Edit reason code: Reject/,
    labelTr: 'Turkish label',
    save: 'Save',
    codeSaved: 'Reason code document_forged saved',
    sla: 'SLA of Identity in hours',
    saveIdentity: 'Save Identity',
    queueSaved: 'Queue Identity saved',
    everyApproval: 'Every approval',
    saveRules: 'Save rules',
    rulesSaved: 'Four-eyes rules saved',
    desk: "Reviewers' desk",
    perReviewer: 'Per reviewer',
    perQueue: 'Per queue',
    csv: 'Download CSV',
    away: 'Away from the desk',
    nowAway: 'You are away from the desk',
    nowBack: 'You are back at the desk',
    newLabel: 'Sahte belge (e2e)',
    slaHours: '36',
  },
  tr: {
    tab: 'İnceleme masası',
    editForged: 'document_forged düzenle',
    dialog: /^Gerekçe kodunu düzenle: Reddet/,
    labelTr: 'Türkçe etiket',
    save: 'Kaydet',
    codeSaved: 'document_forged gerekçe kodu kaydedildi',
    sla: 'Identity için saat cinsinden SLA',
    saveIdentity: 'Identity kaydet',
    queueSaved: 'Identity kuyruğu kaydedildi',
    everyApproval: 'Her onay',
    saveRules: 'Kuralları kaydet',
    rulesSaved: 'Dört göz kuralları kaydedildi',
    desk: 'İnceleme masası',
    perReviewer: 'İnceleyiciye göre',
    perQueue: 'Kuyruğa göre',
    csv: 'CSV indir',
    away: 'Masadan uzakta',
    nowAway: 'Masadan uzaktasınız',
    nowBack: 'Masaya döndünüz',
    newLabel: 'Sahte belge (uçtan uca)',
    slaHours: '30',
  },
} as const;

type Lang = keyof typeof TEXTS;

async function api<T>(
  request: APIRequestContext,
  token: string,
  method: 'GET' | 'POST',
  url: string,
  data?: unknown,
) {
  const response = await request.fetch(`/api/v2/${url}`, {
    method,
    headers: { authorization: `Bearer ${token}` },
    ...(data === undefined ? {} : { data }),
  });
  expect(response.status(), `${method} ${url}`).toBeLessThan(300);
  return (await response.json()) as T;
}

/** The stored language and theme, then the page again. */
async function show(page: Page, lang: Lang, theme: 'light' | 'dark') {
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

async function screenshots(page: Page, lang: Lang, name: string, ready: () => Promise<void>) {
  if (!shots) return;
  for (const theme of ['light', 'dark'] as const) {
    await show(page, lang, theme);
    await ready();
    await page.screenshot({ path: `${shots}/${name}-${lang}-${theme}.png`, fullPage: true });
  }
  await show(page, lang, 'light');
}

for (const lang of ['en-US', 'tr'] as const) {
  test(`an Admin sets up the reviewers' desk and reads its metrics (${lang})`, async ({ page, request }) => {
    // Four screenshots per screen on request, on two loaded cores.
    test.setTimeout(shots ? 300_000 : 180_000);
    const x = TEXTS[lang];
    const token = await tokenOf(request, DEMO.admin);
    // A decision on the desk, so the metrics have a figure: the Admin takes the next case and aborts it.
    const taken = await api<{ id: number }>(request, token, 'POST', 'review/next', {});
    await api(request, token, 'POST', `review/cases/${taken.id}/decision`, {
      decision: 'abort',
      reason_code: 'duplicate',
    });
    const rulesBefore = await api<{ every_approval: boolean }>(request, token, 'GET', 'review/rules');

    await signIn(page, DEMO.admin);
    await page.goto('/company-settings?tab=review-desk');
    await show(page, lang, 'light');
    await expect(page.getByRole('tab', { name: x.tab })).toHaveAttribute('aria-selected', 'true');

    // A reason code's Turkish label.
    await page.getByRole('button', { name: x.editForged }).click();
    const dialog = page.getByRole('dialog', { name: x.dialog });
    await dialog.getByLabel(x.labelTr).fill(x.newLabel);
    await dialog.getByRole('button', { name: x.save, exact: true }).click();
    await expect(page.getByText(x.codeSaved)).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('row', { name: /document_forged/ })).toContainText(x.newLabel);

    // A queue's SLA.
    const sla = page.getByRole('spinbutton', { name: x.sla });
    await sla.fill(x.slaHours);
    await page.getByRole('button', { name: x.saveIdentity }).click();
    await expect(page.getByText(x.queueSaved)).toBeVisible();

    // A four-eyes rule.
    const every = page.getByRole('checkbox', { name: x.everyApproval });
    await expect(every).toBeChecked({ checked: rulesBefore.every_approval });
    await every.click({ force: true });
    await page.getByRole('button', { name: x.saveRules }).click();
    await expect(page.getByText(x.rulesSaved)).toBeVisible();

    // What the server now holds, and what the screen shows after a reload.
    const rules = await api<{ every_approval: boolean }>(request, token, 'GET', 'review/rules');
    expect(rules.every_approval).toBe(!rulesBefore.every_approval);
    const queues = await api<{ name: string; sla_hours: number }[]>(request, token, 'GET', 'review/queues');
    expect(queues.find((q) => q.name === 'Identity')?.sla_hours).toBe(Number(x.slaHours));
    const codes = await api<{ codes: { code: string; label_tr: string }[] }>(
      request,
      token,
      'GET',
      'review/reason_codes',
    );
    expect(codes.codes.find((c) => c.code === 'document_forged')?.label_tr).toBe(x.newLabel);
    await page.reload();
    await expect(page.getByRole('spinbutton', { name: x.sla })).toHaveValue(x.slaHours);
    await expect(page.getByRole('checkbox', { name: x.everyApproval })).toBeChecked({
      checked: rules.every_approval,
    });
    await screenshots(page, lang, 'review-desk-tab', async () => {
      await expect(page.getByRole('spinbutton', { name: x.sla })).toBeVisible();
    });

    // The dashboard: queues now, metrics per reviewer and per queue, the CSV.
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: x.desk, level: 3 })).toBeVisible({ timeout: 30_000 });
    const perReviewer = page.getByRole('table', { name: x.perReviewer });
    await expect(perReviewer).toBeVisible();
    await expect(perReviewer.getByRole('row', { name: /Ada Admin/ })).toBeVisible();
    await expect(
      page.getByRole('table', { name: x.perQueue }).getByRole('row', { name: /Identity/ }),
    ).toBeVisible();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: x.csv }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^review-metrics-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv.split('\r\n')[0]).toBe(
      'section,id,name,decisions,decisions_per_hour,median_seconds,p90_seconds,sla_breaches,four_eyes_returns,second_reviews,open,overdue',
    );
    expect(csv).toMatch(/\r\nreviewer,\d+,Ada Admin,[1-9]/);
    await screenshots(page, lang, 'dashboard-review-desk', async () => {
      await expect(page.getByRole('table', { name: x.perReviewer })).toBeVisible({ timeout: 30_000 });
    });

    // A reviewer's own away status, on /settings: away, then back.
    await page.goto('/settings');
    const away = page.getByRole('checkbox', { name: x.away });
    await expect(away).not.toBeChecked();
    // The switch's label, not its hidden input with force: Playwright then waits until it stands still (the cards
    // above it still arrive) and hits it, where a forced click went to the place it had a moment before.
    await page.locator('label', { has: away }).click();
    await expect(page.getByText(x.nowAway)).toBeVisible();
    await expect(away).toBeChecked();
    const reviewers = await api<{ user: number; away: boolean; name: string }[]>(
      request,
      token,
      'GET',
      'review/reviewers',
    );
    expect(reviewers.find((r) => r.name === 'Ada Admin')?.away).toBe(true);
    await screenshots(page, lang, 'settings-away', async () => {
      await expect(page.getByRole('checkbox', { name: x.away })).toBeChecked();
    });
    await page.locator('label', { has: away }).click();
    await expect(page.getByText(x.nowBack)).toBeVisible();
    await expect(page.getByRole('checkbox', { name: x.away })).not.toBeChecked();
  });
}
