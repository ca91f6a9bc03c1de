import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page, type TestInfo, test } from '@playwright/test';
import { agreeButton, Contexts, goOnline, joinButton, joinLink, playing } from './callSupport';
import { DEMO, signIn } from './support';

/**
 * Every route of the studio and the customer's join page, in both languages and
 * both themes, has no serious or critical axe-core violation (WCAG 2.0/2.1 A and AA), every rule in en-US
 * light and in tr dark (`MODES`); with A11Y_SCREENS=1 every screen is also photographed in all four
 * language × theme modes at 1440×900 and 1024×768 for the visual review (a third of the spec's time, and
 * nothing is asserted on them, so CI leaves them out). One page load per route: the language and the theme
 * switch in place (the shell's controls), tabs and dialogs are opened on the loaded page.
 *
 * Artefacts (under the run's output directory, `test-results/` by default):
 * - `a11y/<test>.json`: every axe violation of every check (all impacts), with the page, language and theme;
 * - `screens/<route>-<lang>-<theme>-<size>.png`: the screenshots (A11Y_SCREENS=1).
 */
// The audits are independent (each worker signs in once for the Admin's screens): they spread over the workers.
test.describe.configure({ mode: 'parallel', timeout: 400_000 });

const LANGS = ['en-US', 'tr'] as const;
const THEMES = ['light', 'dark'] as const;
const SIZES = [
  { name: '1440', width: 1440, height: 900 },
  { name: '1024', width: 1024, height: 768 },
] as const;
type Lang = (typeof LANGS)[number];
type Theme = (typeof THEMES)[number];
/** A11Y_BEST_PRACTICES=1 adds axe's best-practice rules (landmarks, headings…) for a wider look by hand. */
const TAGS = [
  'wcag2a',
  'wcag2aa',
  'wcag21a',
  'wcag21aa',
  ...(process.env.A11Y_BEST_PRACTICES ? ['best-practice'] : []),
];
const BLOCKING = new Set(['serious', 'critical']);
/**
 * The language × theme modes a page is checked in: en-US light and tr dark, so that every text of both
 * languages and every colour of both themes meets every rule. A text's colours are its theme's whatever its
 * language, and its words and roles its language's whatever the theme: the other two modes (the colour rules in
 * en-US dark and tr light) added about an eighth of the spec's CPU time and found nothing
 * (docs/decisions/0187-axe-in-two-modes-words-spread.md).
 * A11Y_ALL_MODES=1 (and A11Y_SCREENS=1, for the photographs) checks all four.
 */
const MODES: readonly (readonly [Lang, Theme])[] =
  process.env.A11Y_ALL_MODES || process.env.A11Y_SCREENS
    ? LANGS.flatMap((lang) => THEMES.map((theme) => [lang, theme] as const))
    : [
        ['en-US', 'light'],
        ['tr', 'dark'],
      ];

/** Route patterns of src/ui/app/routes.tsx that no visit opens, each with the reason. */
const COVERED_ELSEWHERE: Record<string, string> = {
  '/': 'renders the Customers screen, visited as /customers',
  '/reports': 'only redirects to /landing (tests/e2e/shell.spec.ts)',
};

interface Finding {
  check: string;
  lang: Lang;
  theme: Theme;
  url: string;
  id: string;
  impact: string | null | undefined;
  help: string;
  nodes: { target: unknown; html: string; summary?: string }[];
}

/** Collects the findings of one test; written as its artefact and asserted at the end. */
class Audit {
  readonly findings: Finding[] = [];
  checks = 0;
  axeMs = 0;
  shotMs = 0;
  constructor(private readonly info: TestInfo) {}

  private dir(sub: string) {
    const dir = join(this.info.project.outputDir, sub);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  async axe(page: Page, check: string, lang: Lang, theme: Theme, scope?: string) {
    const started = Date.now();
    // A toast that fades out while axe reads it has a contrast that no one reads: without the fade, a leaving
    // toast is at opacity 0 at once (skipped by axe), and one that is shown is checked as it is.
    await page.addStyleTag({ content: '.bp6-toast { transition: none !important; }' });
    // options() replaces the whole options object: before withTags, which sets runOnly in it. Legacy mode runs
    // axe.run in the page itself instead of opening a blank page per check to merge frame results: the
    // studio has no iframes, and each check takes a third of the time.
    let builder = new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ['violations'] });
    builder = builder.withTags(TAGS);
    if (scope) builder = builder.include(scope);
    const result = await builder.analyze();
    this.checks += 1;
    this.axeMs += Date.now() - started;
    for (const violation of result.violations)
      this.findings.push({
        check,
        lang,
        theme,
        url: page.url(),
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        nodes: violation.nodes.map((node) => ({
          target: node.target,
          html: node.html.slice(0, 300),
          summary: node.failureSummary,
        })),
      });
    this.write();
  }

  private get report() {
    return join(this.dir('a11y'), `${this.info.title.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.json`);
  }

  /** The report so far: written after every check, so a failing test keeps what it found. */
  private write() {
    writeFileSync(this.report, JSON.stringify({ checks: this.checks, violations: this.findings }, null, 2));
  }

  async screens(page: Page, name: string, lang: Lang, theme: Theme) {
    if (!process.env.A11Y_SCREENS) return;
    const dir = this.dir('screens');
    const started = Date.now();
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.screenshot({ path: join(dir, `${name}-${lang}-${theme}-${size.name}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: SIZES[0].width, height: SIZES[0].height });
    this.shotMs += Date.now() - started;
  }

  finish() {
    this.write();
    const counts = new Map<string, number>();
    for (const { impact } of this.findings)
      counts.set(impact ?? 'unknown', (counts.get(impact ?? 'unknown') ?? 0) + 1);
    const impacts = [...counts].map(([impact, n]) => `${n} ${impact}`);
    console.log(
      `axe: ${this.checks} checks, findings: ${impacts.join(', ') || 'none'}; report ${this.report}`,
    );
    const blocking = this.findings
      .filter((f) => BLOCKING.has(f.impact ?? ''))
      .map(
        (f) =>
          `${f.check} [${f.lang}/${f.theme}] ${f.impact} ${f.id}: ${JSON.stringify(f.nodes.slice(0, 3).map((n) => n.target))}${f.nodes.length > 3 ? ` and ${f.nodes.length - 3} more` : ''}`,
      );
    expect(blocking, `serious or critical axe violations (${this.checks} checks)`).toEqual([]);
    expect(this.checks).toBeGreaterThan(0);
  }
}

// ---- switching language and theme in place -------------------------------------------------------------

const languageSelect = (page: Page) => page.getByRole('combobox', { name: /^(Language|Dil)$/ }).first();
const themeToggle = (page: Page) =>
  page.getByRole('button', { name: /^(Switch to the (dark|light) theme|(Koyu|Açık) temaya geç)$/ }).first();

/**
 * Switches the language with the page's own control: the shell's select, or the join page's link. Pages
 * without either (printable reports, placeholders) store the choice and load again, as a user would.
 */
async function setLanguage(page: Page, lang: Lang, ready?: Locator) {
  const html = page.locator('html');
  if ((await html.getAttribute('lang')) !== lang) {
    const select = languageSelect(page);
    const link = page.locator('.customer-header .customer-link');
    if (await select.count()) await select.selectOption(lang);
    else if (await link.count()) await link.click();
    else {
      await page.evaluate((l) => localStorage.setItem('language', l), lang);
      await page.reload();
      if (ready) await expect(ready).toBeVisible({ timeout: 20_000 });
    }
  }
  await expect(html).toHaveAttribute('lang', lang);
}

async function setTheme(page: Page, theme: Theme) {
  await page.emulateMedia({ colorScheme: theme });
  const dark = () => page.evaluate(() => document.body.classList.contains('bp6-dark'));
  if ((await dark()) !== (theme === 'dark')) {
    const toggle = themeToggle(page);
    if (await toggle.count()) await toggle.click();
    // Pages without the shell (printable reports): what the studio's applyTheme does.
    else await page.evaluate((on) => document.body.classList.toggle('bp6-dark', on), theme === 'dark');
  }
  await expect.poll(dark).toBe(theme === 'dark');
}

/**
 * Waits until the screen has loaded its data (no visible spinner, no skeleton); names what still spins. The
 * wait is long: on a loaded 2-core machine swagger-ui's first drawing of the whole API holds the page's main
 * thread for over ten seconds.
 */
async function settled(page: Page) {
  const spinners = page.locator('.bp6-spinner:visible:not(.bp6-button-spinner .bp6-spinner)');
  await expect
    .poll(() => spinners.evaluateAll((all) => all.map((s) => s.parentElement?.outerHTML.slice(0, 200))), {
      timeout: 45_000,
    })
    .toEqual([]);
  await expect(page.locator('.bp6-skeleton')).toHaveCount(0, { timeout: 45_000 });
}

// ---- one visit ---------------------------------------------------------------------------------------

interface State {
  name: string;
  /** Opens the state; returns the CSS scope axe checks (the dialog), or undefined for the whole page. */
  open: (page: Page) => Promise<string | undefined>;
  close: (page: Page) => Promise<void>;
}

interface Visit {
  /** The route patterns of routes.tsx this visit covers. */
  patterns: string[];
  name: string;
  url: string | ((page: Page) => string | Promise<string>);
  ready: (page: Page) => Locator;
  states?: State[];
  /** Whether each tab of the screen's tab lists is a state of its own (default true). */
  tabs?: boolean;
}

const heading = (page: Page) => page.getByRole('heading').first();

/** Every tab of the page's tab lists, opened one after the other, as states. */
async function tabStates(page: Page): Promise<{ name: string; tab: Locator }[]> {
  const tabs = page.locator('main [role="tab"]');
  const count = await tabs.count();
  const states: { name: string; tab: Locator }[] = [];
  for (let i = 0; i < count; i += 1) {
    const tab = tabs.nth(i);
    if ((await tab.getAttribute('aria-selected')) === 'true') continue;
    if ((await tab.getAttribute('aria-disabled')) === 'true') continue;
    const id = (await tab.getAttribute('data-tab-id')) ?? (await tab.getAttribute('id')) ?? String(i);
    states.push({ name: `tab-${id.replace(/^.*-tab-title_?/, '').replace(/[^a-z0-9]+/gi, '-')}`, tab });
  }
  return states;
}

/** A comma-separated list of visit names to run only those while working on them (unset: every visit). */
const ONLY = process.env.A11Y_ONLY?.split(',');

async function runVisit(page: Page, audit: Audit, visit: Visit) {
  if (ONLY && !ONLY.includes(visit.name)) return;
  const started = Date.now();
  const url = typeof visit.url === 'string' ? visit.url : await visit.url(page);
  await page.goto(url);
  await expect(visit.ready(page)).toBeVisible({ timeout: 20_000 });
  await settled(page);
  const tabs = visit.tabs === false ? [] : await tabStates(page);
  const selected = page.locator('main [role="tab"][aria-selected="true"]').first();
  const homeId = (await selected.count()) ? await selected.getAttribute('id') : null;
  const home = homeId ? page.locator(`[id="${homeId}"]`) : null;
  for (const [lang, theme] of MODES) {
    await setLanguage(page, lang, visit.ready(page));
    await setTheme(page, theme);
    await settled(page);
    await audit.axe(page, visit.name, lang, theme);
    await audit.screens(page, visit.name, lang, theme);
    for (const { name, tab } of tabs) {
      await tab.click();
      await expect(tab).toHaveAttribute('aria-selected', 'true');
      await settled(page);
      await audit.axe(page, `${visit.name}-${name}`, lang, theme, 'main [role="tabpanel"]');
      await audit.screens(page, `${visit.name}-${name}`, lang, theme);
    }
    if (home && tabs.length) {
      await home.click();
      await expect(home).toHaveAttribute('aria-selected', 'true');
    }
    for (const state of visit.states ?? []) {
      const scope = await state.open(page);
      await audit.axe(page, `${visit.name}-${state.name}`, lang, theme, scope);
      await audit.screens(page, `${visit.name}-${state.name}`, lang, theme);
      await state.close(page);
    }
  }
  console.log(
    `${visit.name}: ${((Date.now() - started) / 1000).toFixed(1)} s (axe ${audit.axeMs / 1000} s, screens ${audit.shotMs / 1000} s so far)`,
  );
}

/**
 * A dialog opened by a button and closed with Escape: checked while open, and the focus must be back on the
 * button that opened it once it has closed (focus returns where it was after every dialog).
 */
/**
 * Waits until the focus is inside the open overlay, where Blueprint moves it a frame after opening: Escape
 * closes the overlay from there (a key pressed before that goes to the page, as on a loaded machine in CI).
 */
async function focusInOverlay(page: Page) {
  await expect
    .poll(() => page.evaluate(() => document.activeElement?.closest('.bp6-overlay-open') != null))
    .toBe(true);
}

const dialogState = (name: string, opener: (page: Page) => Locator): State => ({
  name,
  open: async (page) => {
    await opener(page).click();
    await expect(page.getByRole('dialog').or(page.getByRole('alertdialog')).first()).toBeVisible();
    await focusInOverlay(page);
    // The dialog has faded in: half-way, its texts have half their contrast (axe found 2.9:1 on a helper text).
    await expect(page.locator('.bp6-portal :is(.bp6-overlay-enter, .bp6-overlay-appear)')).toHaveCount(0);
    return '.bp6-portal';
  },
  close: async (page) => {
    await page.keyboard.press('Escape');
    await expect(page.locator('.bp6-overlay-open')).toHaveCount(0);
    await expect(opener(page)).toBeFocused();
  },
});

/** A button of the main area by its exact name in either language. */
const button = (en: string, tr: string) => (page: Page) =>
  page
    .locator('main')
    .getByRole('button', { name: new RegExp(`^(${en}|${tr})$`) })
    .first();

// ---- the route table ---------------------------------------------------------------------------------

/** The route patterns of src/ui/app/routes.tsx, nested ones with their parent's path. */
function routePatterns(): string[] {
  const source = readFileSync(join(process.cwd(), 'src/ui/app/routes.tsx'), 'utf8');
  const tokens = source.matchAll(/<Route\b([^>]*?)(\/?)>|<\/Route>/g);
  const stack: string[] = [''];
  const found: string[] = [];
  for (const token of tokens) {
    if (token[0] === '</Route>') {
      stack.pop();
      continue;
    }
    const attributes = token[1] ?? '';
    const selfClosing = token[2] === '/';
    const path = /path="([^"]+)"/.exec(attributes)?.[1];
    const parent = stack.at(-1) ?? '';
    const full = path === undefined ? parent : path === '/' && parent ? parent : `${parent}${path}`;
    if (path !== undefined) found.push(full);
    if (!selfClosing) stack.push(/\bnest\b/.test(attributes) ? full : parent);
  }
  return [...new Set(found)];
}

// ---- the visits -------------------------------------------------------------------------------------

const LISTED = 'Serhat Gençoğlu';

/** The id of a seeded profile found by the customers' search. */
async function profileOf(page: Page, name: string): Promise<number> {
  await page.goto(`/customers?search=${encodeURIComponent(name)}`);
  const link = page.getByRole('link', { name }).first();
  const href = (await link.getAttribute('href')) ?? '';
  const id = Number(/\/profile\/(\d+)/.exec(href)?.[1]);
  expect(id).toBeGreaterThan(0);
  return id;
}

/** The href of the first link of a kind on a page. */
async function firstHref(page: Page, url: string, selector: string): Promise<string> {
  await page.goto(url);
  const link = page.locator(selector).first();
  await expect(link).toBeVisible({ timeout: 20_000 });
  return (await link.getAttribute('href')) ?? '';
}

const PUBLIC: Visit[] = [
  {
    patterns: ['/login'],
    name: 'login',
    url: '/login',
    ready: (page) => page.locator('.studio-auth h2'),
  },
  {
    patterns: ['/reset-password'],
    name: 'reset-password',
    url: '/reset-password',
    ready: (page) => page.locator('.studio-auth h2'),
  },
  {
    patterns: ['/create-account'],
    name: 'create-account',
    url: '/create-account',
    ready: heading,
  },
];

function studioVisits(profile: () => number): Visit[] {
  const profileUrl = () => `/profile/${profile()}`;
  return [
    {
      patterns: ['/customers'],
      name: 'customers',
      url: '/customers',
      ready: (page) => page.locator('main table'),
      states: [
        dialogState('create-profile', (page) =>
          page.getByRole('button', { name: /^(New profile|Create profile|Yeni profil|Profil oluştur)/ }),
        ),
      ],
    },
    {
      patterns: ['/profile/:profileID'],
      name: 'profile',
      url: profileUrl,
      ready: heading,
      states: [
        {
          name: 'status-confirm',
          open: async (page) => {
            await page.getByRole('button', { name: /^(Change status|Durumu değiştir)/ }).click();
            // Rejected asks for a reason: the dialog opens and nothing is saved until confirmed.
            await page
              .locator('.bp6-portal')
              .getByRole('option', { name: /^(Rejected|Reddedildi)$/ })
              .click();
            await expect(page.getByRole('dialog')).toBeVisible();
            // The menu's popover is an open overlay too until its closing transition ends: the focus must be in
            // the dialog's (an Escape in the closing menu's left the dialog open).
            await expect(page.locator('.bp6-portal').getByRole('listbox')).toHaveCount(0);
            await focusInOverlay(page);
            return '.bp6-portal';
          },
          close: async (page) => {
            await page.keyboard.press('Escape');
            await expect(page.getByRole('dialog')).toHaveCount(0);
          },
        },
        dialogState('edit-profile', button('Edit', 'Düzenle')),
      ],
    },
    {
      patterns: [],
      name: 'profile-documents',
      url: () => `${profileUrl()}?tab=documents`,
      ready: heading,
      tabs: false,
      states: [dialogState('upload', button('Upload', 'Yükle'))],
    },
    {
      patterns: ['/profile/:profileID/document/:docID'],
      name: 'document',
      url: (page) => firstHref(page, `${profileUrl()}?tab=documents`, 'main a[href*="/document/"]'),
      ready: heading,
    },
    {
      patterns: ['/profile/:profileID/amlRecordDetail/:checkID'],
      name: 'aml-record',
      url: async (page) => {
        // The listed name's check finds a match: run one when the profile has none yet.
        await page.goto(`${profileUrl()}?tab=aml`);
        const record = page.locator('main a[href*="amlRecordDetail"]').first();
        const run = page.getByRole('button', { name: /^(Run check|Kontrol başlat)$/ });
        await expect(record.or(run).first()).toBeVisible({ timeout: 20_000 });
        if (!(await record.count())) await run.click();
        await expect(record).toBeVisible({ timeout: 20_000 });
        return (await record.getAttribute('href')) ?? '';
      },
      ready: heading,
    },
    {
      patterns: ['/profile/:profileID/amlHistory'],
      name: 'aml-history',
      url: () => `${profileUrl()}/amlHistory`,
      ready: heading,
    },
    { patterns: ['/calls'], name: 'calls', url: '/calls', ready: heading },
    // The wall with no call watched; a watched call's tiles are checked in callWatch.spec.ts.
    { patterns: ['/watch'], name: 'watch', url: '/watch', ready: heading },
    { patterns: ['/review'], name: 'review', url: '/review', ready: heading },
    { patterns: ['/dashboard'], name: 'dashboard', url: '/dashboard', ready: heading },
    { patterns: ['/landing'], name: 'landing', url: '/landing', ready: heading },
    { patterns: ['/entities'], name: 'entities', url: '/entities', ready: heading },
    {
      patterns: ['/entity/:id'],
      name: 'entity',
      url: (page) => firstHref(page, '/entities', 'main a[href*="/entity/"]'),
      ready: heading,
    },
    {
      patterns: ['/entity/:id/documents'],
      name: 'entity-documents',
      url: async (page) => `${await firstHref(page, '/entities', 'main a[href*="/entity/"]')}/documents`,
      ready: heading,
    },
    {
      patterns: ['/admin'],
      name: 'admin',
      url: '/admin',
      ready: heading,
      states: [dialogState('add-user', button('Add user', 'Kullanıcı ekle'))],
    },
    { patterns: ['/settings'], name: 'settings', url: '/settings', ready: heading },
    {
      patterns: ['/company-settings'],
      name: 'company-settings',
      url: '/company-settings',
      ready: heading,
      states: [dialogState('add-endpoint', button('Add endpoint', 'Uç nokta ekle'))],
    },
    {
      patterns: [],
      name: 'company-settings-plan',
      url: '/company-settings?tab=plan',
      ready: heading,
      tabs: false,
      states: [dialogState('request-price', button('Request a price', 'Fiyat iste'))],
    },
    { patterns: ['/return'], name: 'return', url: '/return?session_id=cs_test_a11y', ready: heading },
    { patterns: ['/smart-modules'], name: 'smart-modules', url: '/smart-modules', ready: heading },
    {
      patterns: ['/swagger-documentation'],
      name: 'swagger',
      url: '/swagger-documentation',
      ready: heading,
    },
  ];
}

/** Printable reports: no shell, so one load per language; the theme switches in place. */
const REPORTS = ['pdf-basic', 'pdf-expand'] as const;
const reportVisit = (report: (typeof REPORTS)[number], profile: () => number): Visit => ({
  patterns: [`/${report}/:id`],
  name: report,
  url: () => `/${report}/${profile()}`,
  ready: (page) => page.getByRole('heading').first(),
});

const VIEWER_VISITS: Visit[] = [
  { patterns: ['/not-allowed'], name: 'not-allowed', url: '/not-allowed', ready: heading },
];

/** The call test opens these: the call screen, and the recording of the call it closed. */
const CALL_PATTERNS = ['/call/:customerID/:roomID/:callID', '/profile/:profileID/video/:videoID'];
const COVERED = new Set([
  ...PUBLIC.flatMap((v) => v.patterns),
  ...studioVisits(() => 0).flatMap((v) => v.patterns),
  ...REPORTS.flatMap((r) => reportVisit(r, () => 0).patterns),
  ...VIEWER_VISITS.flatMap((v) => v.patterns),
  ...CALL_PATTERNS,
]);

test('every route of the route table is audited here (or says where it is covered)', () => {
  const routes = routePatterns();
  expect(routes.length).toBeGreaterThan(20);
  const missing = routes.filter((route) => !COVERED.has(route) && !(route in COVERED_ELSEWHERE));
  expect(missing, 'routes without an a11y visit: add them to tests/e2e/a11y.spec.ts').toEqual([]);
  const stale = [...COVERED, ...Object.keys(COVERED_ELSEWHERE)].filter((p) => !routes.includes(p));
  expect(stale, 'visits of routes that no longer exist').toEqual([]);
});

test('public pages', async ({ page }, info) => {
  const audit = new Audit(info);
  for (const visit of PUBLIC) await runVisit(page, audit, visit);
  audit.finish();
});

/**
 * Motion for those who ask for less (prefers-reduced-motion): Blueprint's spinners and transitions stand still.
 * The suite runs with it (playwright.config.ts), so this test asks for motion first.
 */
test('spinners and transitions stand still when the system asks for less motion', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await page.evaluate(() =>
    document.body.insertAdjacentHTML(
      'beforeend',
      '<div class="bp6-spinner" id="motion-probe"><div class="bp6-spinner-animation"></div></div>',
    ),
  );
  const spinner = page.locator('#motion-probe .bp6-spinner-animation');
  const motion = async () => ({
    spin: await spinner.evaluate((element) => {
      const style = getComputedStyle(element);
      return `${style.animationDuration} × ${style.animationIterationCount}`;
    }),
    field: await page
      .getByLabel('E-mail', { exact: true })
      .evaluate((element) => getComputedStyle(element).transitionDuration.split(', ')[0]),
  });
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  expect(await motion()).toEqual({ spin: '0.5s × infinite', field: '0.1s' });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await motion()).toEqual({ spin: '1e-05s × 1', field: '1e-05s' });
});

/**
 * The studio as Admin (who sees every screen): a test per screen on one signed-in page, so that a slow or
 * failing screen is named and timed on its own.
 */
test.describe('the studio, signed in as Admin', () => {
  const contexts = new Contexts();
  let page: Page;
  let id = 0;
  test.beforeAll(async ({ browser }) => {
    page = await contexts.page(browser);
    await signIn(page, DEMO.admin);
    id = await profileOf(page, LISTED);
  });
  test.afterAll(() => contexts.closeAll());
  const visits = [
    ...studioVisits(() => id),
    ...REPORTS.map((report) => reportVisit(report, () => id)),
  ].filter((visit) => !ONLY || ONLY.includes(visit.name));
  for (const visit of visits)
    test(visit.name, async ({ browserName: _ }, info) => {
      const audit = new Audit(info);
      await runVisit(page, audit, visit);
      audit.finish();
    });
});

test('the not-allowed page, signed in as Viewer', async ({ page }, info) => {
  const audit = new Audit(info);
  await signIn(page, DEMO.viewer);
  for (const visit of VIEWER_VISITS) await runVisit(page, audit, visit);
  audit.finish();
});

test('a call: the join page, the incoming call, the call screen and its wrap-up', async ({
  browser,
}, info) => {
  const audit = new Audit(info);
  const contexts = new Contexts();
  try {
    const agent = await goOnline(await contexts.page(browser), DEMO.admin);
    const link = await joinLink(agent, 3);
    const customer = await contexts.page(browser);
    await customer.goto(link);
    await expect(agreeButton(customer)).toBeVisible({ timeout: 20_000 });
    await auditModes(customer, audit, 'join-consent');
    await agreeButton(customer).click();
    await expect(joinButton(customer)).toBeVisible({ timeout: 20_000 });
    await auditModes(customer, audit, 'join-check');
    await joinButton(customer).click();
    await expect(customer.getByTestId('queue-position')).toBeVisible({ timeout: 20_000 });
    await expect(agent.getByRole('alertdialog')).toBeVisible({ timeout: 20_000 });
    await auditModes(customer, audit, 'join-waiting');
    await audit.axe(agent, 'incoming-call', 'en-US', 'light', '.bp6-portal');
    await audit.screens(agent, 'incoming-call', 'en-US', 'light');

    await agent.getByRole('button', { name: 'Answer', exact: true }).click();
    await expect(agent).toHaveURL(/\/call\/\d+\/[^/]+\/\d+$/);
    await playing(agent, "Customer's video");
    await auditModes(customer, audit, 'join-in-call');
    await auditModes(agent, audit, 'call');

    await agent.getByRole('button', { name: 'Hang up' }).click();
    await expect(agent.getByRole('radio').first()).toBeVisible({ timeout: 20_000 });
    await auditModes(agent, audit, 'call-wrap-up');
    await agent.getByRole('radio', { name: 'Complete', exact: true }).check({ force: true });
    await agent.getByRole('button', { name: 'Save status' }).click();
    await expect(agent.getByText('Call closed')).toBeVisible({ timeout: 30_000 });
    await auditModes(agent, audit, 'call-closed');
    await auditModes(customer, audit, 'join-ended');

    await agent.getByRole('link', { name: 'Watch the recording' }).click();
    await expect(agent.getByLabel(/^Recording of call \d+$/)).toBeVisible();
    await auditModes(agent, audit, 'video');
  } finally {
    await contexts.closeAll();
  }
  audit.finish();
});

/** The language × theme checks of the page as it is. */
async function auditModes(page: Page, audit: Audit, name: string) {
  await page.setViewportSize({ width: SIZES[0].width, height: SIZES[0].height });
  for (const [lang, theme] of MODES) {
    await setTheme(page, theme);
    await setLanguage(page, lang);
    await audit.axe(page, name, lang, theme);
    await audit.screens(page, name, lang, theme);
  }
  await setLanguage(page, 'en-US');
  await setTheme(page, 'light');
}
