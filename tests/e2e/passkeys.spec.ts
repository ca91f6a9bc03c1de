/**
 * Passkeys for staff, end to end with Chromium's virtual authenticator (CDP WebAuthn):
 * a passkey registered in Settings, sign-in with it alone, the passkey as the second factor after the
 * password, and an Admin requiring passkeys (a colleague without one registers one right after the password).
 *
 * Browsers refuse WebAuthn on IP addresses, and the server takes the page's host name as the relying party, so
 * these pages open at http://localhost:PORT (a studio address: the server's SECOND_REGION_URL) rather than the
 * suite's http://127.0.0.1:PORT. Each test signs up a company of its own through the API, so the passkeys and
 * the requirement touch no demo user the other specs sign in as.
 */
import { readFileSync } from 'node:fs';
import type { APIRequestContext, Browser, BrowserContext, CDPSession, Page } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { expect, test } from './cspGuard';
import { mailedCode } from './ownCompany';

const localhostURL = baseURL.replace('127.0.0.1', 'localhost');
test.use({ baseURL: localhostURL });
// Sign-ups, invitations and several sign-ins (argon2 each) on a loaded 2-core machine.
test.describe.configure({ timeout: 180_000 });

type Language = 'en-US' | 'tr';
const texts = (language: Language, namespace: string) =>
  JSON.parse(readFileSync(`locales/${language}/${namespace}.json`, 'utf8'));
const words = (language: Language) => {
  const auth = texts(language, 'auth');
  const common = texts(language, 'common');
  return { ...auth, account: common.shell?.account ?? common.account };
};

const PASSWORD = 'Passkey#2026';
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

/** A new company signed up through the API: its Admin's e-mail and access token. */
async function newCompany(request: APIRequestContext) {
  const email = `pk-admin-${unique()}@passkeys.test`;
  const registered = await request.post('/api/v2/stp/register', { data: { email, password: PASSWORD } });
  expect(registered.status()).toBe(200);
  const { signup } = (await registered.json()) as { signup: string };
  const verified = await request.post('/api/v2/user/email_otp/submit', {
    data: { email, otp: await mailedCode(request, email), signup },
  });
  expect(verified.status()).toBe(200);
  const { signup_token } = (await verified.json()) as { signup_token: string };
  const created = await request.post('/api/v2/stp/company', {
    headers: { authorization: `Bearer ${signup_token}` },
    data: {
      company_name: `Passkey Co ${unique()}`,
      package: 1,
      first_name: 'Pia',
      last_name: 'Passkey',
      phone: '+90 555 123 45 67',
      industry: 'Payments',
      country: 'tr',
    },
  });
  expect(created.status()).toBe(200);
  const { access } = (await created.json()) as { access: string };
  return { email, access };
}

/** A User of the Admin's company with a password of their own (invitation, then its code). */
async function colleague(request: APIRequestContext, adminToken: string): Promise<string> {
  const email = `pk-user-${unique()}@passkeys.test`;
  const created = await request.post('/api/v2/user', {
    headers: { authorization: `Bearer ${adminToken}` },
    data: { password: PASSWORD, first_name: 'Cem', last_name: 'Colleague', username: email, role: 'User' },
  });
  expect(created.status()).toBe(201);
  const set = await request.post('/api/v2/user/reset_password/submit', {
    data: { email, otp: await mailedCode(request, email), new_password: PASSWORD },
  });
  expect(set.status()).toBe(200);
  return email;
}

/** A page of its own context with a virtual platform authenticator (resident keys, user verification). */
async function pageWithAuthenticator(browser: Browser, language: Language) {
  const context: BrowserContext = await browser.newContext({ baseURL: localhostURL, locale: language });
  const page = await context.newPage();
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const credentials = async () =>
    (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
  return { page, credentials };
}

async function passwordSignIn(page: Page, language: Language, email: string) {
  const w = words(language);
  await page.goto('/login');
  await page.getByLabel(w.login.email, { exact: true }).fill(email);
  await page.getByLabel(w.login.password, { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: w.login.submit, exact: true }).click();
}

async function expectStudio(page: Page) {
  await expect(page.locator('nav[aria-label]').first()).toBeVisible();
}

async function logout(page: Page, language: Language) {
  const w = words(language);
  await page.getByRole('button', { name: w.account.menu }).click();
  await page.getByRole('menuitem', { name: w.account.logout, exact: true }).click();
  await expect(page).toHaveURL(/\/login/);
}

async function registerInSettings(page: Page, language: Language, name: string) {
  const w = words(language);
  await page.goto('/settings');
  await page.getByRole('button', { name: w.passkeys.add }).click();
  const dialog = page.getByRole('dialog', { name: w.passkeys.addTitle });
  await dialog.getByLabel(w.passkeys.name).fill(name);
  await dialog.getByLabel(w.twoFactor.password, { exact: true }).fill(PASSWORD);
  await dialog.getByRole('button', { name: w.passkeys.add }).click();
  await expect(dialog).toBeHidden();
  const table = page.getByRole('table', { name: w.passkeys.title });
  await expect(table.getByRole('row').filter({ hasText: name })).toContainText('localhost');
}

async function signInWithPasskey(page: Page, language: Language) {
  const w = words(language);
  await page.goto('/login');
  await page.getByRole('button', { name: w.passkeys.signIn }).click();
  await expectStudio(page);
}

test('en-US: register in Settings, sign in without a password, the second factor, an Admin requires passkeys', async ({
  browser,
  request,
}) => {
  const w = words('en-US');
  const admin = await newCompany(request);
  const { page, credentials } = await pageWithAuthenticator(browser, 'en-US');

  // Registered in Settings: the authenticator now holds one discoverable credential for localhost.
  await passwordSignIn(page, 'en-US', admin.email);
  await expectStudio(page);
  await registerInSettings(page, 'en-US', 'Work laptop');
  const [credential] = await credentials();
  expect(credential?.rpId).toBe('localhost');
  expect(credential?.isResidentCredential).toBe(true);
  const signCount = credential?.signCount ?? 0;

  // Without a password: the passkey alone signs in.
  await logout(page, 'en-US');
  await signInWithPasskey(page, 'en-US');
  await expect.poll(async () => (await credentials())[0]?.signCount).toBeGreaterThan(signCount);

  // The second factor: after the password the studio asks for the passkey.
  await logout(page, 'en-US');
  await passwordSignIn(page, 'en-US', admin.email);
  await expect(page.getByText(w.passkeys.askBody)).toBeVisible();
  await page.getByRole('button', { name: w.passkeys.use, exact: true }).click();
  await expectStudio(page);

  // An Admin requires passkeys for the company.
  await page.goto('/company-settings?tab=sign-in');
  const require = page.getByLabel(w.passkeys.policy.require);
  await expect(require).not.toBeChecked();
  await require.click({ force: true });
  const prompt = page.getByRole('dialog', { name: w.passkeys.policy.onTitle });
  await prompt.getByLabel(w.twoFactor.password, { exact: true }).fill(PASSWORD);
  await prompt.getByRole('button', { name: w.twoFactor.confirm }).click();
  await expect(prompt).toBeHidden();
  await expect(require).toBeChecked();

  // A colleague without a passkey registers one right after the password, then signs in with it.
  const email = await colleague(request, admin.access);
  const other = await pageWithAuthenticator(browser, 'en-US');
  await passwordSignIn(other.page, 'en-US', email);
  const forced = other.page.getByRole('dialog', { name: w.passkeys.forcedTitle });
  await expect(forced).toContainText(w.passkeys.forcedBody);
  await forced.getByLabel(w.passkeys.name).fill('Desk PC');
  await forced.getByRole('button', { name: w.passkeys.add }).click();
  await expect(other.page.getByText(w.passkeys.registered)).toBeVisible();
  expect(await other.credentials()).toHaveLength(1);
  await other.page.getByRole('button', { name: w.passkeys.signIn }).click();
  await expectStudio(other.page);
  await other.page.context().close();
  await page.context().close();
});

test('tr: register in Settings, then sign in with the passkey alone and as the second factor', async ({
  browser,
  request,
}) => {
  const w = words('tr');
  const admin = await newCompany(request);
  const { page, credentials } = await pageWithAuthenticator(browser, 'tr');
  await passwordSignIn(page, 'tr', admin.email);
  await expectStudio(page);
  await registerInSettings(page, 'tr', 'İş bilgisayarı');
  expect(await credentials()).toHaveLength(1);

  await logout(page, 'tr');
  await signInWithPasskey(page, 'tr');

  await logout(page, 'tr');
  await passwordSignIn(page, 'tr', admin.email);
  await expect(page.getByText(w.passkeys.askBody)).toBeVisible();
  await page.getByRole('button', { name: w.passkeys.use, exact: true }).click();
  await expectStudio(page);
  await page.context().close();
});
