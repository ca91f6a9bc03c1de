import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Role } from '#contract/constants';
import type { SsoConfigBody } from '#contract/sso';
import { hashPassword } from '../../server/auth/passwords';
import { companies, users } from '../../server/db/schema';
import { redirectUriOf } from '../../server/domain/sso';
import { type OidcAccount, type OidcProviderFixture, startOidcProvider } from '../support/oidcProvider';
import { bearer, PASSWORDS, type TestApp, tokenFor } from './helpers';

/** A provider whose client sends the browser back to the test app; each test adds its people (newPerson). */
export function providerFor(t: TestApp): Promise<OidcProviderFixture> {
  return startOidcProvider({
    redirectUris: [redirectUriOf(t.config)],
    postLogoutRedirectUris: [`${t.config.publicUrl.replace(/\/+$/, '')}/login`],
    accounts: [],
  });
}

/** A staff member of a company made for one test: password sign-in works for them. */
export interface Member {
  id: number;
  email: string;
  password: string;
}

/**
 * A company of its own for one test, so no test sees another's settings, users or sign-ins whatever the order:
 * its Admin (signed in), a User and a Viewer with passwords, the domain of their addresses and an SSO domain.
 */
export interface TestCompany {
  id: number;
  /** The domain of the staff's own (password) addresses. */
  domain: string;
  /** A domain only the identity provider's people use. */
  ssoDomain: string;
  admin: Member & { token: string };
  agent: Member;
  viewer: Member;
}

/** A new staff member of `companyId`, at `domain`, with a password. */
export async function newMember(
  t: TestApp,
  companyId: number,
  email: string,
  role: Role,
  password: string = PASSWORDS.user,
  flags: { isApiUser?: boolean } = {},
): Promise<Member> {
  const [row] = await t.app.ctx.db
    .insert(users)
    .values({
      companyId,
      email,
      firstName: email.slice(0, email.indexOf('@')),
      lastName: 'Member',
      passwordHash: await hashPassword(password, t.config.argon2),
      role,
      isStaff: role === 'Admin',
      isApiUser: flags.isApiUser ?? false,
    })
    .returning({ id: users.id });
  if (!row) throw new Error(`no ${email}`);
  return { id: row.id, email, password };
}

export async function newCompany(t: TestApp, region?: string): Promise<TestCompany> {
  const tag = randomBytes(5).toString('hex');
  const domain = `${tag}.test`;
  const [company] = await t.app.ctx.db
    .insert(companies)
    .values({
      name: `Company ${tag}`,
      region: region ?? t.app.ctx.regions[0]?.name ?? 'Europe',
      paymentStatus: 'paid',
    })
    .returning({ id: companies.id });
  if (!company) throw new Error('no company');
  const admin = await newMember(t, company.id, `admin@${domain}`, 'Admin', PASSWORDS.admin);
  const agent = await newMember(t, company.id, `agent@${domain}`, 'User');
  const viewer = await newMember(t, company.id, `viewer@${domain}`, 'Restricted User');
  return {
    id: company.id,
    domain,
    ssoDomain: `sso-${domain}`,
    admin: { ...admin, token: await tokenFor(t.app, admin.email, admin.password) },
    agent,
    viewer,
  };
}

/** A new person at the provider (unique subject and address at `domain`), in `groups`. */
export function newPerson(provider: OidcProviderFixture, domain: string, groups: string[]): OidcAccount {
  const sub = `person-${randomBytes(5).toString('hex')}`;
  const person = { sub, email: `${sub}@${domain}`, given_name: 'Pat', family_name: sub, groups };
  provider.accounts.set(sub, { ...person, groups: [...groups] });
  return person;
}

/** The company's single sign-on with the provider: its SSO domain, Admins and agents mapped, and overrides. */
export async function configureSso(
  app: FastifyInstance,
  company: Pick<TestCompany, 'ssoDomain' | 'admin'>,
  provider: OidcProviderFixture,
  overrides: Partial<SsoConfigBody> = {},
) {
  const body: SsoConfigBody = {
    enabled: true,
    issuer: provider.issuer,
    client_id: provider.clientId,
    client_secret: provider.clientSecret,
    domains: [company.ssoDomain],
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
    headers: bearer(company.admin.token),
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
