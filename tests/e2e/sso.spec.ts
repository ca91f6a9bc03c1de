import type { APIRequestContext, Page } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { type OidcProviderFixture, startOidcProvider } from '../support/oidcProvider';
import { expect, test } from './cspGuard';
import { addColleague, type OwnCompany, signUpCompany, unique } from './ownCompany';
import { signIn } from './support';

/**
 * Single sign-on in the browser, in both languages, through a real OpenID provider this spec starts in its own
 * process (tests/support/oidcProvider.ts): the sign-in page asks for the e-mail first and sends an address of
 * the company's domain to the provider; the user comes back signed in, created with the role their group maps
 * to. With SSO only, a password is refused but the break-glass Admin's. Everything happens in a company the spec
 * signs up for itself, so the specs after it on the same server never see its settings or its users.
 */
const TEXT = {
  'en-US': {
    email: 'E-mail',
    password: 'Password',
    signIn: 'Sign in',
    nav: 'Main navigation',
    continue: 'Continue with single sign-on',
    usePassword: 'Sign in with a password instead',
    passwordOff: 'Your company signs in with single sign-on only. Continue with your company account.',
  },
  tr: {
    email: 'E-posta',
    password: 'Şifre',
    signIn: 'Giriş yap',
    nav: 'Ana gezinme',
    continue: 'Çoklu oturum açma ile devam et',
    usePassword: 'Bunun yerine parolayla giriş yap',
    passwordOff: 'Şirketiniz yalnızca çoklu oturum açma ile giriş yapıyor. Şirket hesabınızla devam edin.',
  },
} as const;
type Lang = keyof typeof TEXT;

const PASSWORD = 'Sso#Pass2026';
/** The company's domain at the provider: a new one each run, as a domain belongs to one company. */
const SSO_DOMAIN = `sso-${unique()}.test`;
const PEOPLE = {
  'en-US': { sub: `bob-${SSO_DOMAIN}`, email: `bob@${SSO_DOMAIN}`, groups: ['idv-agents'], role: 'User' },
  tr: { sub: `alice-${SSO_DOMAIN}`, email: `alice@${SSO_DOMAIN}`, groups: ['idv-admins'], role: 'Admin' },
} as const;

let provider: OidcProviderFixture;
let company: OwnCompany;
/** A colleague with a password, for SSO only to refuse. */
let colleague: { email: string; password: string };

async function configure(request: APIRequestContext, changes: Record<string, unknown>) {
  const response = await request.put('/api/v2/company/sso', {
    headers: { authorization: `Bearer ${company.admin.access}` },
    data: {
      enabled: true,
      issuer: provider.issuer,
      client_id: provider.clientId,
      client_secret: provider.clientSecret,
      domains: [SSO_DOMAIN],
      default_role: 'Restricted User',
      mappings: [
        { claim: 'idv-admins', role: 'Admin', group_id: null },
        { claim: 'idv-agents', role: 'User', group_id: null },
      ],
      break_glass_user_ids: [company.admin.id],
      ...changes,
    },
  });
  expect(response.status(), await response.text()).toBe(200);
}

test.beforeAll(async ({ request }) => {
  provider = await startOidcProvider({
    redirectUris: [`${baseURL}/login`],
    postLogoutRedirectUris: [`${baseURL}/login`],
    accounts: Object.values(PEOPLE).map((p) => ({
      sub: p.sub,
      email: p.email,
      given_name: p.sub,
      family_name: 'E2E',
      groups: [...p.groups],
    })),
  });
  company = await signUpCompany(request, PASSWORD);
  colleague = await addColleague(request, company, 'Restricted User', PASSWORD);
  await configure(request, {});
});

test.afterAll(async () => {
  await provider?.close();
});

/** The role the studio gave `email` (the Admin's user list). */
async function roleOf(request: APIRequestContext, email: string) {
  const response = await request.get(`/api/v2/user?search=${encodeURIComponent(email)}`, {
    headers: { authorization: `Bearer ${company.admin.access}` },
  });
  const page = (await response.json()) as { results: { username: string; role: string }[] };
  return page.results.find((u) => u.username === email)?.role;
}

async function openSignIn(page: Page, lng: Lang, email: string) {
  await page.goto('/login');
  await page.getByLabel(TEXT[lng].email, { exact: true }).fill(email);
}

for (const lng of ['en-US', 'tr'] as const) {
  test.describe(lng, () => {
    test.use({ locale: lng });
    const text = TEXT[lng];

    test('an SSO address signs in at the identity provider, created with its mapped role', async ({
      page,
      request,
    }) => {
      const person = PEOPLE[lng];
      expect(await roleOf(request, person.email)).toBeUndefined();
      await openSignIn(page, lng, person.email);
      await expect(page.getByLabel(text.password, { exact: true })).toBeHidden();
      await page.getByRole('button', { name: text.continue }).click();
      // The provider's own page, with the address as its hint.
      await expect(page.getByRole('heading', { name: 'Test identity provider' })).toBeVisible();
      await expect(page.getByLabel('Work e-mail')).toHaveValue(person.email);
      await page.getByRole('button', { name: 'Sign in at the identity provider' }).click();
      await expect(page.getByRole('navigation', { name: text.nav })).toBeVisible({ timeout: 30_000 });
      expect(new URL(page.url()).searchParams.has('code')).toBe(false);
      expect(await roleOf(request, person.email)).toBe(person.role);
    });

    test('SSO only refuses a password, and the break-glass Admin still gets in', async ({
      page,
      request,
    }) => {
      await configure(request, { domains: [SSO_DOMAIN, company.domain], sso_only: true });
      try {
        await openSignIn(page, lng, colleague.email);
        await page.getByRole('button', { name: text.usePassword }).click();
        await page.getByLabel(text.password, { exact: true }).fill(colleague.password);
        await page.getByRole('button', { name: text.signIn, exact: true }).click();
        await expect(page.getByRole('alert')).toContainText(text.passwordOff);

        await openSignIn(page, lng, company.admin.email);
        await page.getByRole('button', { name: text.usePassword }).click();
        await page.getByLabel(text.password, { exact: true }).fill(company.admin.password);
        await page.getByRole('button', { name: text.signIn, exact: true }).click();
        await expect(page.getByRole('navigation', { name: text.nav })).toBeVisible({ timeout: 30_000 });
      } finally {
        await configure(request, {});
      }
    });
  });
}

test.describe('tr', () => {
  test.use({ locale: 'tr' });

  test('the Sign-in settings name the roles of the group mapping in the interface language', async ({
    page,
  }) => {
    await signIn(page, { email: company.admin.email, password: company.admin.password }, 'tr');
    await page.goto('/company-settings?tab=sign-in');
    const mappedRoles = page.getByLabel('Rol', { exact: true });
    await expect(mappedRoles).toHaveCount(2);
    await expect(mappedRoles.first().locator('option:checked')).toHaveText('Yönetici');
    await expect(mappedRoles.nth(1).locator('option:checked')).toHaveText('Kullanıcı');
    await expect(
      page.getByLabel('Hiçbir grup eşleşmediğinde rol', { exact: true }).locator('option:checked'),
    ).toHaveText('Kısıtlı Kullanıcı');
  });
});

test('Logout of an SSO session signs out at the identity provider too', async ({ page }) => {
  await openSignIn(page, 'en-US', PEOPLE['en-US'].email);
  await page.getByRole('button', { name: TEXT['en-US'].continue }).click();
  await page.getByRole('button', { name: 'Sign in at the identity provider' }).click();
  await expect(page.getByRole('navigation', { name: TEXT['en-US'].nav })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: /^Account menu: / }).click();
  await page.getByText('Logout', { exact: true }).click();
  // The provider's own end-session page asks; its answer brings the browser back to the sign-in page.
  await page.waitForURL((url) => url.origin === provider.issuer);
  await page.getByRole('button', { name: /yes/i }).click();
  await page.waitForURL((url) => url.origin === baseURL && url.pathname === '/login');
  await expect(page.getByLabel(TEXT['en-US'].email, { exact: true })).toBeVisible();
});
