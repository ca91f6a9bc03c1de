/**
 * SCIM 2.0 provisioning as Entra ID and Okta send it (their documented requests: Entra ID's "SCIM endpoint
 * development" guide, Okta's "SCIM 2.0 protocol reference"): create, update, filter, page, deactivate and delete
 * users and groups, with the company's token. A deactivated agent loses their sessions and sockets at once, and
 * the call they were in ends with a reason. Each test provisions a company of its own (newCompany), so the tests
 * pass in any order.
 */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSO_DETAILS } from '#contract/sso';
import { auditLog, users, videoCalls } from '../../server/db/schema';
import { bearer, FAST_CALLS, get, PASSWORDS, post, type TestApp, talkingCall, tokenFor } from './helpers';
import { type LiveApp, liveApp } from './liveSockets';
import { newCompany, newMember, type TestCompany } from './ssoSupport';

let live: LiveApp;
let t: TestApp;
const SCIM = 'application/scim+json';

beforeAll(async () => {
  live = await liveApp({ calls: FAST_CALLS });
  t = live.t;
});

afterAll(() => live?.close());

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A SCIM request with `token`. */
async function scimWith(token: string, method: Method, path: string, payload?: unknown) {
  const response = await t.app.inject({
    method,
    url: `/scim/v2${path}`,
    headers: { ...bearer(token), ...(payload ? { 'content-type': SCIM } : {}) },
    ...(payload ? { payload: JSON.stringify(payload) } : {}),
  });
  return {
    status: response.statusCode,
    body: response.body ? response.json() : null,
    type: response.headers['content-type'],
  };
}

const newScimToken = async (adminToken: string) =>
  (await post<{ token: string }>(t.app, '/api/v2/company/scim/token', {}, adminToken)).body.token;

/** A company of the test's own with a SCIM token, and requests with that token. */
async function provisioned(company?: TestCompany) {
  const made = company ?? (await newCompany(t));
  const token = await newScimToken(made.admin.token);
  return {
    company: made,
    token,
    scim: (method: Method, path: string, payload?: unknown) => scimWith(token, method, path, payload),
  };
}

const eqFilter = (attribute: string, value: string) =>
  `filter=${encodeURIComponent(`${attribute} eq "${value}"`)}`;

const PATCH_OP = ['urn:ietf:params:scim:api:messages:2.0:PatchOp'];

describe('the token', () => {
  it('is required, shown once when renewed, and the old one stops working', async () => {
    const { company, token: old, scim } = await provisioned();
    expect((await scim('GET', '/Users')).status).toBe(200);
    const none = await t.app.inject({ method: 'GET', url: '/scim/v2/Users' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '401',
      detail: SSO_DETAILS.scimTokenInvalid,
    });
    const token = await newScimToken(company.admin.token);
    expect(token).not.toBe(old);
    const settings = await get(t.app, '/api/v2/company/sso', company.admin.token);
    expect(settings.body).toMatchObject({ scim_token_set: true });
    expect(JSON.stringify(settings.body)).not.toContain(token);
    expect((await scimWith(old, 'GET', '/Users')).status).toBe(401);
    expect((await scimWith(token, 'GET', '/Users')).status).toBe(200);
  });

  it('sees one company only', async () => {
    const one = await provisioned();
    const other = await provisioned();
    const list = await other.scim('GET', `/Users?${eqFilter('userName', one.company.agent.email)}`);
    expect(list.body).toMatchObject({ totalResults: 0, Resources: [] });
    const own = await one.scim('GET', `/Users?${eqFilter('userName', one.company.agent.email)}`);
    expect(own.body.totalResults).toBe(1);
    expect((await other.scim('GET', `/Users/${one.company.agent.id}`)).status).toBe(404);
  });
});

/** Okta's create request for `email`. */
const oktaUser = (email: string, externalId: string) => ({
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  userName: email,
  name: { givenName: 'Okta', familyName: 'User' },
  emails: [{ primary: true, value: email, type: 'work' }],
  displayName: 'Okta User',
  locale: 'en-US',
  externalId,
  groups: [],
  password: 'never-used-1!',
  active: true,
});

describe('users, as Okta sends them', () => {
  it('looks the user up by userName, then creates them', async () => {
    const { company, scim } = await provisioned();
    const email = `okta.user@${company.domain}`;
    const lookup = await scim('GET', `/Users?${eqFilter('userName', email)}&startIndex=1&count=100`);
    expect(lookup.status).toBe(200);
    expect(lookup.type).toMatch(/^application\/scim\+json/);
    expect(lookup.body).toEqual({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 0,
      startIndex: 1,
      itemsPerPage: 0,
      Resources: [],
    });
    const created = await scim('POST', '/Users', oktaUser(email, '00u1abcd'));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: email,
      externalId: '00u1abcd',
      name: { givenName: 'Okta', familyName: 'User' },
      active: true,
      meta: { resourceType: 'User' },
    });
    const [row] = await t.app.ctx.db
      .select()
      .from(users)
      .where(eq(users.id, Number(created.body.id)));
    expect(row).toMatchObject({ role: 'Restricted User', isActive: true, companyId: company.id });
    const again = await scim('POST', '/Users', { userName: email });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ scimType: 'uniqueness' });
  });

  it('replaces the user with PUT and deactivates with PATCH', async () => {
    const { company, scim } = await provisioned();
    const email = `okta.user@${company.domain}`;
    const id = (await scim('POST', '/Users', oktaUser(email, '00u2efgh'))).body.id as string;
    const put = await scim('PUT', `/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      id,
      userName: email,
      name: { givenName: 'Okta', familyName: 'Renamed' },
      emails: [{ primary: true, value: email, type: 'work' }],
      active: true,
    });
    expect(put.status).toBe(200);
    expect(put.body.name.familyName).toBe('Renamed');
    const off = await scim('PATCH', `/Users/${id}`, {
      schemas: PATCH_OP,
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(false);
    const [entry] = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.companyId, company.id), eq(auditLog.action, 'user_disabled')));
    expect(entry).toMatchObject({ objectId: id, actorId: null });
  });

  it('pages through the list with startIndex and count', async () => {
    const { company, scim } = await provisioned();
    // Three staff members already (Admin, User, Viewer), two provisioned, and an API user.
    for (const n of [1, 2])
      expect((await scim('POST', '/Users', oktaUser(`paged${n}@${company.domain}`, `00u${n}`))).status).toBe(
        201,
      );
    await newMember(t, company.id, `api@${company.domain}`, 'User', PASSWORDS.api, { isApiUser: true });
    const first = await scim('GET', '/Users?startIndex=1&count=2');
    const second = await scim('GET', '/Users?startIndex=3&count=2');
    const third = await scim('GET', '/Users?startIndex=5&count=2');
    expect(first.body).toMatchObject({ totalResults: 5, itemsPerPage: 2, startIndex: 1 });
    expect(second.body).toMatchObject({ totalResults: 5, itemsPerPage: 2, startIndex: 3 });
    expect(third.body).toMatchObject({ totalResults: 5, itemsPerPage: 1, startIndex: 5 });
    const ids = [first, second, third].flatMap((page) =>
      page.body.Resources.map((r: { id: string }) => r.id),
    );
    expect(new Set(ids).size).toBe(5);
    expect((await scim('GET', '/Users?count=0')).body).toMatchObject({ itemsPerPage: 0, Resources: [] });
    // API users are not the provider's.
    const all = await scim('GET', '/Users?count=200');
    expect(all.body.Resources.map((r: { userName: string }) => r.userName)).not.toContain(
      `api@${company.domain}`,
    );
  });

  it('refuses a filter it does not understand', async () => {
    const { scim } = await provisioned();
    const bad = await scim('GET', `/Users?filter=${encodeURIComponent('userName co "acme"')}`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ scimType: 'invalidFilter', status: '400' });
  });
});

describe('users, as Entra ID sends them', () => {
  /** Entra ID's create request (its guide's example user, with the company's domain). */
  const entraUser = (email: string, externalId: string) => ({
    schemas: [
      'urn:ietf:params:scim:schemas:core:2.0:User',
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
    ],
    externalId,
    userName: email,
    active: true,
    emails: [{ primary: true, type: 'work', value: email }],
    meta: { resourceType: 'User' },
    name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
    roles: [],
  });

  it('creates with externalId, finds by externalId and userName, updates by path', async () => {
    const { company, scim } = await provisioned();
    const externalId = '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef';
    const created = await scim(
      'POST',
      '/Users',
      entraUser(`Test_User_ab6490ee@${company.domain}`, externalId),
    );
    expect(created.status).toBe(201);
    const id = created.body.id;
    const byExternal = await scim('GET', `/Users?${eqFilter('externalId', externalId)}`);
    expect(byExternal.body.Resources.map((r: { id: string }) => r.id)).toEqual([id]);
    const byName = await scim(
      'GET',
      `/Users?${eqFilter('userName', `test_user_ab6490ee@${company.domain}`)}`,
    );
    expect(byName.body.totalResults).toBe(1);
    const patched = await scim('PATCH', `/Users/${id}`, {
      schemas: PATCH_OP,
      Operations: [
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
        { op: 'Add', path: 'emails[type eq "work"].value', value: `updatedEmail@${company.domain}` },
        { op: 'Replace', path: 'displayName', value: 'Updated Name' },
      ],
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      userName: `updatedEmail@${company.domain}`,
      name: { familyName: 'updatedFamilyName' },
    });
  });

  it('deactivates with "False" and deletes: the user is gone from SCIM and stays disabled in the studio', async () => {
    const { company, scim } = await provisioned();
    const id = (await scim('POST', '/Users', entraUser(`leaver@${company.domain}`, 'e1'))).body.id as string;
    const off = await scim('PATCH', `/Users/${id}`, {
      schemas: PATCH_OP,
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect(off.body.active).toBe(false);
    expect((await scim('DELETE', `/Users/${id}`)).status).toBe(204);
    expect((await scim('GET', `/Users/${id}`)).status).toBe(404);
    const [row] = await t.app.ctx.db
      .select()
      .from(users)
      .where(eq(users.id, Number(id)));
    expect(row?.isActive).toBe(false);
    expect((await scim('GET', '/Users/999999')).body).toMatchObject({ status: '404' });
  });
});

describe('deactivating a signed-in agent', () => {
  it('ends their sessions and sockets at once, and their call with a reason', async () => {
    // Calls need a verification profile: Acme's seeded one, answered by an agent made for this test.
    const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    const agent = await newMember(t, 1, `agent-${randomBytes(5).toString('hex')}@acme.test`, 'User');
    const scim = (method: Method, path: string, payload?: unknown) => scimWith(token, method, path, payload);
    const token = await newScimToken(admin);
    const access = await tokenFor(t.app, agent.email, agent.password);
    const socket = await live.studio(access);
    const { callId } = await talkingCall(t.app, agent.id);
    const closed = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    const off = await scim('PATCH', `/Users/${agent.id}`, {
      schemas: PATCH_OP,
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });
    expect(off.status).toBe(200);
    expect(await closed).toBe('io server disconnect');
    const after = await t.app.inject({ method: 'GET', url: '/api/v2/session', headers: bearer(access) });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ detail: 'Your account has been disabled. Contact your administrator.' });
    await expect
      .poll(
        async () =>
          (await t.app.ctx.db.select().from(videoCalls).where(eq(videoCalls.id, callId)))[0]?.endReason,
      )
      .toMatch(/^(agent_left|both_left)$/);
  });

  it('leaves the break-glass Admin alone', async () => {
    const { company, scim } = await provisioned();
    const sso = await t.app.inject({
      method: 'PUT',
      url: '/api/v2/company/sso',
      headers: bearer(company.admin.token),
      payload: {
        enabled: false,
        issuer: 'https://idp.acme.example',
        client_id: 'idv',
        client_secret: 'secret',
        domains: [company.ssoDomain],
        break_glass_user_ids: [company.admin.id],
      },
    });
    expect(sso.statusCode).toBe(200);
    const off = await scim('PATCH', `/Users/${company.admin.id}`, {
      schemas: PATCH_OP,
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });
    expect(off.status).toBe(400);
    expect((await scim('DELETE', `/Users/${company.admin.id}`)).status).toBe(400);
    expect((await get(t.app, '/api/v2/session', company.admin.token)).status).toBe(200);
  });
});

describe('groups', () => {
  /** A company with two provisioned users and a group `idv-agents` with the first one in it. */
  async function withGroup() {
    const provision = await provisioned();
    const { company, scim } = provision;
    const member = async (local: string) =>
      (
        await scim('POST', '/Users', {
          userName: `${local}@${company.domain}`,
          name: { givenName: local, familyName: local },
        })
      ).body.id as string;
    const userA = await member('member.a');
    const userB = await member('member.b');
    const created = await scim('POST', '/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'idv-agents',
      externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
      members: [{ value: userA, display: `member.a@${company.domain}` }],
    });
    expect(created.status).toBe(201);
    return { ...provision, userA, userB, groupId: created.body.id as string, created };
  }

  it('creates a group with members (Okta), finds it by displayName (Entra ID)', async () => {
    const { company, scim, userA, created } = await withGroup();
    expect(created.body.members.map((m: { value: string }) => m.value)).toEqual([userA]);
    const found = await scim(
      'GET',
      `/Groups?${eqFilter('displayName', 'idv-agents')}&excludedAttributes=members`,
    );
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].members).toBeUndefined();
    expect((await scim('POST', '/Groups', { displayName: 'IDV-Agents' })).status).toBe(409);
    // The studio group exists for the Admin to give permissions to.
    const studio = await get<{ name: string }[]>(t.app, '/api/v2/group', company.admin.token);
    expect(studio.body.map((g) => g.name)).toContain('idv-agents');
  });

  it('adds and removes members as Entra ID does, and as Okta does', async () => {
    const { scim, userA, userB, groupId } = await withGroup();
    const add = await scim('PATCH', `/Groups/${groupId}`, {
      schemas: PATCH_OP,
      Operations: [{ op: 'Add', path: 'members', value: [{ value: userB }] }],
    });
    expect(add.body.members.map((m: { value: string }) => m.value).sort()).toEqual([userA, userB].sort());
    const entraRemove = await scim('PATCH', `/Groups/${groupId}`, {
      schemas: PATCH_OP,
      Operations: [{ op: 'Remove', path: 'members', value: [{ value: userA }] }],
    });
    expect(entraRemove.body.members.map((m: { value: string }) => m.value)).toEqual([userB]);
    const oktaRemove = await scim('PATCH', `/Groups/${groupId}`, {
      schemas: PATCH_OP,
      Operations: [{ op: 'remove', path: `members[value eq "${userB}"]` }],
    });
    expect(oktaRemove.body.members).toEqual([]);
    const rename = await scim('PATCH', `/Groups/${groupId}`, {
      schemas: PATCH_OP,
      Operations: [{ op: 'replace', value: { id: groupId, displayName: 'idv-agents-eu' } }],
    });
    expect(rename.body.displayName).toBe('idv-agents-eu');
    const unknown = await scim('PATCH', `/Groups/${groupId}`, {
      schemas: PATCH_OP,
      Operations: [{ op: 'add', path: 'members', value: [{ value: '999999' }] }],
    });
    expect(unknown.status).toBe(400);
  });

  it('gives members the role the company maps their group to', async () => {
    const { company, scim, userB, groupId } = await withGroup();
    const mapped = await t.app.inject({
      method: 'PUT',
      url: '/api/v2/company/sso',
      headers: bearer(company.admin.token),
      payload: {
        enabled: false,
        issuer: 'https://idp.acme.example',
        client_id: 'idv',
        client_secret: 'secret',
        domains: [company.ssoDomain],
        break_glass_user_ids: [company.admin.id],
        mappings: [{ claim: 'idv-agents', role: 'User', group_id: null }],
      },
    });
    expect(mapped.statusCode, mapped.body).toBe(200);
    const role = async () =>
      (
        await t.app.ctx.db
          .select()
          .from(users)
          .where(eq(users.id, Number(userB)))
      )[0]?.role;
    expect(await role()).toBe('Restricted User');
    await scim('PATCH', `/Groups/${groupId}`, {
      schemas: PATCH_OP,
      Operations: [{ op: 'add', path: 'members', value: [{ value: userB }] }],
    });
    expect(await role()).toBe('User');
    await scim('PATCH', `/Groups/${groupId}`, {
      schemas: PATCH_OP,
      Operations: [{ op: 'remove', path: `members[value eq "${userB}"]` }],
    });
    expect(await role()).toBe('Restricted User');
  });

  it('replaces with PUT, pages, and deletes', async () => {
    const { scim, userA, userB, groupId } = await withGroup();
    const put = await scim('PUT', `/Groups/${groupId}`, {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'idv-agents-eu',
      members: [{ value: userA }, { value: userB }],
    });
    expect(put.body.members).toHaveLength(2);
    expect((await scim('POST', '/Groups', { displayName: 'idv-reviewers' })).status).toBe(201);
    const page = await scim('GET', '/Groups?startIndex=2&count=1');
    expect(page.body).toMatchObject({ startIndex: 2, itemsPerPage: 1, totalResults: 2 });
    expect((await scim('DELETE', `/Groups/${groupId}`)).status).toBe(204);
    expect((await scim('GET', `/Groups/${groupId}`)).status).toBe(404);
    expect((await scim('GET', '/Groups')).body.totalResults).toBe(1);
  });
});
