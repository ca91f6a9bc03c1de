/**
 * SCIM 2.0 provisioning as Entra ID and Okta send it (their documented requests: Entra ID's "SCIM endpoint
 * development" guide, Okta's "SCIM 2.0 protocol reference"): create, update, filter, page, deactivate and delete
 * users and groups, with the company's token. A deactivated agent loses their sessions and sockets at once, and
 * the call they were in ends with a reason.
 */
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSO_DETAILS } from '#contract/sso';
import { auditLog, users, videoCalls } from '../../server/db/schema';
import {
  bearer,
  FAST_CALLS,
  get,
  PASSWORDS,
  post,
  startTestApp,
  type TestApp,
  talkingCall,
  tokenFor,
} from './helpers';

let t: TestApp;
let token = '';
let url = '';
const sockets: Socket[] = [];
const SCIM = 'application/scim+json';

beforeAll(async () => {
  t = await startTestApp({ calls: FAST_CALLS });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  token = (await post<{ token: string }>(t.app, '/api/v2/company/scim/token', {}, admin)).body.token;
});

afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t?.close();
});

async function scim(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, payload?: unknown) {
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

const eqFilter = (attribute: string, value: string) =>
  `filter=${encodeURIComponent(`${attribute} eq "${value}"`)}`;

describe('the token', () => {
  it('is required, shown once when renewed, and the old one stops working', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/scim/v2/Users' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
      status: '401',
      detail: SSO_DETAILS.scimTokenInvalid,
    });
    const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    const old = token;
    token = (await post<{ token: string }>(t.app, '/api/v2/company/scim/token', {}, admin)).body.token;
    expect(token).not.toBe(old);
    expect((await get(t.app, '/api/v2/company/sso', admin)).body).toMatchObject({ scim_token_set: true });
    expect(JSON.stringify((await get(t.app, '/api/v2/company/sso', admin)).body)).not.toContain(token);
    const stale = await t.app.inject({ method: 'GET', url: '/scim/v2/Users', headers: bearer(old) });
    expect(stale.statusCode).toBe(401);
    expect((await scim('GET', '/Users')).status).toBe(200);
  });

  it('sees one company only', async () => {
    const globexAdmin = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
    const globex = (await post<{ token: string }>(t.app, '/api/v2/company/scim/token', {}, globexAdmin)).body
      .token;
    const list = await t.app.inject({
      method: 'GET',
      url: `/scim/v2/Users?${eqFilter('userName', 'agent@acme.test')}`,
      headers: bearer(globex),
    });
    expect(list.json()).toMatchObject({ totalResults: 0, Resources: [] });
  });
});

describe('users, as Okta sends them', () => {
  let id = '';

  it('looks the user up by userName, then creates them', async () => {
    const lookup = await scim(
      'GET',
      `/Users?${eqFilter('userName', 'okta.user@acme.test')}&startIndex=1&count=100`,
    );
    expect(lookup.status).toBe(200);
    expect(lookup.type).toMatch(/^application\/scim\+json/);
    expect(lookup.body).toEqual({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 0,
      startIndex: 1,
      itemsPerPage: 0,
      Resources: [],
    });
    const created = await scim('POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'okta.user@acme.test',
      name: { givenName: 'Okta', familyName: 'User' },
      emails: [{ primary: true, value: 'okta.user@acme.test', type: 'work' }],
      displayName: 'Okta User',
      locale: 'en-US',
      externalId: '00u1abcd',
      groups: [],
      password: 'never-used-1!',
      active: true,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'okta.user@acme.test',
      externalId: '00u1abcd',
      name: { givenName: 'Okta', familyName: 'User' },
      active: true,
      meta: { resourceType: 'User' },
    });
    id = created.body.id;
    const [row] = await t.app.ctx.db
      .select()
      .from(users)
      .where(eq(users.id, Number(id)));
    expect(row).toMatchObject({ role: 'Restricted User', isActive: true, companyId: 1 });
    const again = await scim('POST', '/Users', { userName: 'okta.user@acme.test' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ scimType: 'uniqueness' });
  });

  it('replaces the user with PUT and deactivates with PATCH', async () => {
    const put = await scim('PUT', `/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      id,
      userName: 'okta.user@acme.test',
      name: { givenName: 'Okta', familyName: 'Renamed' },
      emails: [{ primary: true, value: 'okta.user@acme.test', type: 'work' }],
      active: true,
    });
    expect(put.status).toBe(200);
    expect(put.body.name.familyName).toBe('Renamed');
    const off = await scim('PATCH', `/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(false);
    const [entry] = await t.app.ctx.db.select().from(auditLog).where(eq(auditLog.action, 'user_disabled'));
    expect(entry).toMatchObject({ objectId: id, actorId: null });
  });

  it('pages through the list with startIndex and count', async () => {
    const first = await scim('GET', '/Users?startIndex=1&count=2');
    const second = await scim('GET', '/Users?startIndex=3&count=2');
    expect(first.body.itemsPerPage).toBe(2);
    expect(first.body.totalResults).toBeGreaterThan(4);
    expect(second.body.startIndex).toBe(3);
    expect(second.body.totalResults).toBe(first.body.totalResults);
    const ids = [...first.body.Resources, ...second.body.Resources].map((r: { id: string }) => r.id);
    expect(new Set(ids).size).toBe(4);
    expect((await scim('GET', '/Users?count=0')).body).toMatchObject({ itemsPerPage: 0, Resources: [] });
    // API users are not the provider's.
    const all = await scim('GET', '/Users?count=200');
    expect(all.body.Resources.map((r: { userName: string }) => r.userName)).not.toContain('api@acme.test');
  });

  it('refuses a filter it does not understand', async () => {
    const bad = await scim('GET', `/Users?filter=${encodeURIComponent('userName co "acme"')}`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ scimType: 'invalidFilter', status: '400' });
  });
});

describe('users, as Entra ID sends them', () => {
  let id = '';

  it('creates with externalId, finds by externalId and userName, updates by path', async () => {
    const created = await scim('POST', '/Users', {
      schemas: [
        'urn:ietf:params:scim:schemas:core:2.0:User',
        'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
      ],
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName: 'Test_User_ab6490ee@acme.test',
      active: true,
      emails: [{ primary: true, type: 'work', value: 'Test_User_ab6490ee@acme.test' }],
      meta: { resourceType: 'User' },
      name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
      roles: [],
    });
    expect(created.status).toBe(201);
    id = created.body.id;
    const byExternal = await scim(
      'GET',
      `/Users?${eqFilter('externalId', '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef')}`,
    );
    expect(byExternal.body.Resources.map((r: { id: string }) => r.id)).toEqual([id]);
    const byName = await scim('GET', `/Users?${eqFilter('userName', 'test_user_ab6490ee@acme.test')}`);
    expect(byName.body.totalResults).toBe(1);
    const patched = await scim('PATCH', `/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
        { op: 'Add', path: 'emails[type eq "work"].value', value: 'updatedEmail@acme.test' },
        { op: 'Replace', path: 'displayName', value: 'Updated Name' },
      ],
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      userName: 'updatedEmail@acme.test',
      name: { familyName: 'updatedFamilyName' },
    });
  });

  it('deactivates with "False" and deletes: the user is gone from SCIM and stays disabled in the studio', async () => {
    const off = await scim('PATCH', `/Users/${id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
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
    const [agent] = await t.app.ctx.db.select().from(users).where(eq(users.email, 'agent@acme.test'));
    if (!agent) throw new Error('no agent');
    const access = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
    const socketToken = (
      await post<{ token: string }>(t.app, '/api/v2/user/socket_token', { studio: true }, access)
    ).body.token;
    const socket = io(url, {
      path: '/socket.io',
      auth: { token: socketToken },
      transports: ['websocket'],
      reconnection: false,
    });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const { callId } = await talkingCall(t.app, agent.id);
    const closed = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
    const off = await scim('PATCH', `/Users/${agent.id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
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
    const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    const [me] = await t.app.ctx.db.select().from(users).where(eq(users.email, 'admin@acme.test'));
    const sso = await t.app.inject({
      method: 'PUT',
      url: '/api/v2/company/sso',
      headers: bearer(admin),
      payload: {
        enabled: false,
        issuer: 'https://idp.acme.example',
        client_id: 'idv',
        client_secret: 'secret',
        domains: ['acme-scim.test'],
        break_glass_user_ids: [me?.id],
      },
    });
    expect(sso.statusCode).toBe(200);
    const off = await scim('PATCH', `/Users/${me?.id}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });
    expect(off.status).toBe(400);
    expect((await scim('DELETE', `/Users/${me?.id}`)).status).toBe(400);
    expect((await get(t.app, '/api/v2/session', admin)).status).toBe(200);
  });
});

describe('groups', () => {
  let groupId = '';
  let userA = '';
  let userB = '';

  it('creates a group with members (Okta), finds it by displayName (Entra ID)', async () => {
    userA = (
      await scim('POST', '/Users', {
        userName: 'member.a@acme.test',
        name: { givenName: 'A', familyName: 'A' },
      })
    ).body.id;
    userB = (
      await scim('POST', '/Users', {
        userName: 'member.b@acme.test',
        name: { givenName: 'B', familyName: 'B' },
      })
    ).body.id;
    const created = await scim('POST', '/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'idv-agents',
      externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
      members: [{ value: userA, display: 'member.a@acme.test' }],
    });
    expect(created.status).toBe(201);
    groupId = created.body.id;
    expect(created.body.members.map((m: { value: string }) => m.value)).toEqual([userA]);
    const found = await scim(
      'GET',
      `/Groups?${eqFilter('displayName', 'idv-agents')}&excludedAttributes=members`,
    );
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].members).toBeUndefined();
    expect((await scim('POST', '/Groups', { displayName: 'IDV-Agents' })).status).toBe(409);
    // The studio group exists for the Admin to give permissions to.
    const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    const studio = await get<{ name: string }[]>(t.app, '/api/v2/group', admin);
    expect(studio.body.map((g) => g.name)).toContain('idv-agents');
  });

  it('adds and removes members as Entra ID does, and as Okta does', async () => {
    const add = await scim('PATCH', `/Groups/${groupId}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Add', path: 'members', value: [{ value: userB }] }],
    });
    expect(add.body.members.map((m: { value: string }) => m.value).sort()).toEqual([userA, userB].sort());
    const entraRemove = await scim('PATCH', `/Groups/${groupId}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'Remove', path: 'members', value: [{ value: userA }] }],
    });
    expect(entraRemove.body.members.map((m: { value: string }) => m.value)).toEqual([userB]);
    const oktaRemove = await scim('PATCH', `/Groups/${groupId}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'remove', path: `members[value eq "${userB}"]` }],
    });
    expect(oktaRemove.body.members).toEqual([]);
    const rename = await scim('PATCH', `/Groups/${groupId}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', value: { id: groupId, displayName: 'idv-agents-eu' } }],
    });
    expect(rename.body.displayName).toBe('idv-agents-eu');
    const unknown = await scim('PATCH', `/Groups/${groupId}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'add', path: 'members', value: [{ value: '999999' }] }],
    });
    expect(unknown.status).toBe(400);
  });

  it('gives members the role the company maps their group to', async () => {
    const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    const [me] = await t.app.ctx.db.select().from(users).where(eq(users.email, 'admin@acme.test'));
    await t.app.inject({
      method: 'PUT',
      url: '/api/v2/company/sso',
      headers: bearer(admin),
      payload: {
        enabled: false,
        issuer: 'https://idp.acme.example',
        client_id: 'idv',
        domains: ['acme-scim.test'],
        break_glass_user_ids: [me?.id],
        mappings: [{ claim: 'idv-agents-eu', role: 'User', group_id: null }],
      },
    });
    await scim('PATCH', `/Groups/${groupId}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'add', path: 'members', value: [{ value: userA }] }],
    });
    const role = async () =>
      (
        await t.app.ctx.db
          .select()
          .from(users)
          .where(eq(users.id, Number(userA)))
      )[0]?.role;
    expect(await role()).toBe('User');
    await scim('PATCH', `/Groups/${groupId}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'remove', path: `members[value eq "${userA}"]` }],
    });
    expect(await role()).toBe('Restricted User');
  });

  it('replaces with PUT, pages, and deletes', async () => {
    const put = await scim('PUT', `/Groups/${groupId}`, {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'idv-agents-eu',
      members: [{ value: userA }, { value: userB }],
    });
    expect(put.body.members).toHaveLength(2);
    const page = await scim('GET', '/Groups?startIndex=1&count=1');
    expect(page.body).toMatchObject({ startIndex: 1, itemsPerPage: 1 });
    expect(page.body.totalResults).toBeGreaterThanOrEqual(1);
    expect((await scim('DELETE', `/Groups/${groupId}`)).status).toBe(204);
    expect((await scim('GET', `/Groups/${groupId}`)).status).toBe(404);
  });
});
