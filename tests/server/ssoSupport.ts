import type { FastifyInstance } from 'fastify';
import type { SsoConfigBody } from '#contract/sso';
import { redirectUriOf } from '../../server/domain/sso';
import { type OidcProviderFixture, startOidcProvider } from '../support/oidcProvider';
import { bearer, type TestApp } from './helpers';

/** The provider's people: two in the company's domain with their groups, one outside every domain. */
export const ALICE = {
  sub: 'alice-0001',
  email: 'alice@acme-sso.test',
  given_name: 'Alice',
  family_name: 'Admin',
  groups: ['idv-admins'],
};
export const BOB = {
  sub: 'bob-0002',
  email: 'bob@acme-sso.test',
  given_name: 'Bob',
  family_name: 'Agent',
  groups: ['idv-agents'],
};
export const MALLORY = {
  sub: 'mallory-0003',
  email: 'mallory@elsewhere.test',
  given_name: 'Mallory',
  family_name: 'Outside',
  groups: ['idv-agents'],
};

/** A provider whose client sends the browser back to the test app. */
export function providerFor(t: TestApp): Promise<OidcProviderFixture> {
  return startOidcProvider({
    redirectUris: [redirectUriOf(t.config)],
    postLogoutRedirectUris: [`${t.config.publicUrl.replace(/\/+$/, '')}/login`],
    accounts: [ALICE, BOB, MALLORY],
  });
}

/** Acme's single sign-on with the provider: its domain, Admins and agents mapped, and overrides. */
export async function configureSso(
  app: FastifyInstance,
  adminToken: string,
  provider: OidcProviderFixture,
  overrides: Partial<SsoConfigBody> = {},
) {
  const body: SsoConfigBody = {
    enabled: true,
    issuer: provider.issuer,
    client_id: provider.clientId,
    client_secret: provider.clientSecret,
    domains: ['acme-sso.test', 'elsewhere-allowed.test'],
    default_role: 'Restricted User',
    mappings: [
      { claim: 'idv-admins', role: 'Admin', group_id: null },
      { claim: 'idv-agents', role: 'User', group_id: null },
    ],
    ...overrides,
  };
  const response = await app.inject({
    method: 'PUT',
    url: '/api/v2/company/sso',
    headers: bearer(adminToken),
    payload: body,
  });
  if (response.statusCode !== 200) throw new Error(`SSO set-up: ${response.statusCode} ${response.body}`);
  return response.json();
}

/** Starts a sign-in for `email`: the authorization URL. */
export async function startFor(app: FastifyInstance, email: string): Promise<URL> {
  const response = await app.inject({ method: 'POST', url: '/api/v2/sso/start', payload: { email } });
  const body = response.json() as { sso: boolean; authorization_url?: string };
  if (response.statusCode !== 200 || !body.authorization_url)
    throw new Error(`SSO start: ${response.statusCode} ${response.body}`);
  return new URL(body.authorization_url);
}

/** The callback body the studio posts: the query the provider sent the browser back with. */
export const callbackBody = (back: URL) => Object.fromEntries(back.searchParams);

export async function finish(app: FastifyInstance, body: Record<string, string>) {
  return app.inject({ method: 'POST', url: '/api/v2/sso/callback', payload: body });
}

/** A whole sign-in of `login` at the provider, started for `email` (default: the same). */
export async function ssoSignIn(
  app: FastifyInstance,
  provider: OidcProviderFixture,
  login: string,
  email = login,
) {
  const back = await provider.signIn((await startFor(app, email)).href, login);
  return finish(app, callbackBody(back));
}
