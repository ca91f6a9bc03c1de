/**
 * Presence on a profile and live changes (docs/events.md "Profiles"): who has a profile open,
 * at once after a watch, an unwatch and a closed tab; `profile.changed` after writes; company scope.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfilePresence, ServerToClientEvents } from '#contract/socket';
import { etagOf } from '#contract/versioning';
import { companies, profiles, users } from '../../server/db/schema';
import { bearer, PASSWORDS, type TestApp, tokenFor } from './helpers';
import { type ClientSocket, type LiveApp, liveApp, next } from './liveSockets';

let live: LiveApp;
let t: TestApp;
const access = { admin: '', agent: '', viewer: '', globex: '' };
const ids = { admin: 0, agent: 0, viewer: 0 };
let profileId = 0;
let globexProfileId = 0;

beforeAll(async () => {
  live = await liveApp();
  t = live.t;
  access.admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  access.agent = await tokenFor(t.app, 'agent@acme.test', PASSWORDS.user);
  access.viewer = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
  access.globex = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
  const db = t.app.ctx.db;
  for (const [key, email] of [
    ['admin', 'admin@acme.test'],
    ['agent', 'agent@acme.test'],
    ['viewer', 'viewer@acme.test'],
  ] as const) {
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    ids[key] = user?.id ?? 0;
  }
  const [acme] = await db.select().from(companies).where(eq(companies.name, 'Acme Bank'));
  const [globex] = await db.select().from(companies).where(eq(companies.name, 'Globex Fintech'));
  const [p] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.companyId, acme?.id ?? 0), eq(profiles.status, 'Pending Review')))
    .limit(1);
  const [g] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(eq(profiles.companyId, globex?.id ?? 0))
    .limit(1);
  profileId = p?.id ?? 0;
  globexProfileId = g?.id ?? 0;
  expect([profileId, globexProfileId, ids.admin, ids.agent, ids.viewer]).not.toContain(0);
});
afterAll(() => live.close());

/** The next presence of the profile that satisfies `until`. */
const presence = (socket: ClientSocket, until: (p: ProfilePresence) => boolean) =>
  next(socket, 'profile.presence', (event) => event.profile === profileId && until(event));

const userIds = (p: { viewers: { user_id: number }[] }) => p.viewers.map((v) => v.user_id).sort();

describe('profile presence', () => {
  it('shows who has the profile open, each user once, and a closed tab leaves at once', async () => {
    const admin = await live.studio(access.admin);
    const first = await admin.emitWithAck('profile.watch', { profile: profileId });
    expect(first).toMatchObject({ ok: true });
    expect(first.ok && userIds(first)).toEqual([ids.admin]);

    // The agent opens it in two tabs: the admin sees the agent once, with a name.
    const agentSeen = presence(admin, (p) => p.viewers.some((v) => v.user_id === ids.agent));
    const agentTab1 = await live.studio(access.agent);
    const agentTab2 = await live.studio(access.agent);
    const joined = await agentTab1.emitWithAck('profile.watch', { profile: profileId });
    await agentTab2.emitWithAck('profile.watch', { profile: profileId });
    expect(joined.ok && userIds(joined)).toEqual([ids.admin, ids.agent].sort());
    const seen = await agentSeen;
    expect(seen.viewers.find((v) => v.user_id === ids.agent)?.name).toBeTruthy();

    // One tab unwatches: the agent is still there (the other tab).
    const afterUnwatch = presence(admin, () => true);
    expect(await agentTab1.emitWithAck('profile.unwatch', { profile: profileId })).toEqual({ ok: true });
    expect(userIds(await afterUnwatch)).toEqual([ids.admin, ids.agent].sort());

    // The other tab closes: the agent leaves at once.
    const gone = presence(admin, (p) => !p.viewers.some((v) => v.user_id === ids.agent));
    agentTab2.disconnect();
    expect(userIds(await gone)).toEqual([ids.admin]);
    admin.disconnect();
  });

  it('watching again after a reconnect restores presence', async () => {
    const admin = await live.studio(access.admin);
    await admin.emitWithAck('profile.watch', { profile: profileId });
    const agent = await live.studio(access.agent);
    await agent.emitWithAck('profile.watch', { profile: profileId });
    const left = presence(admin, (p) => !p.viewers.some((v) => v.user_id === ids.agent));
    agent.disconnect();
    await left;
    const back = presence(admin, (p) => p.viewers.some((v) => v.user_id === ids.agent));
    agent.connect();
    await new Promise((resolve) => agent.once('connect', () => resolve(null)));
    await agent.emitWithAck('profile.watch', { profile: profileId });
    expect(userIds(await back)).toEqual([ids.admin, ids.agent].sort());
    admin.disconnect();
    agent.disconnect();
  });

  it("refuses another company's profile and unknown ones; a Restricted User may watch", async () => {
    const globex = await live.studio(access.globex);
    expect(await globex.emitWithAck('profile.watch', { profile: profileId })).toEqual({
      ok: false,
      detail: 'Not found.',
    });
    expect(await globex.emitWithAck('profile.watch', { profile: -1 } as never)).toMatchObject({ ok: false });
    const viewer = await live.studio(access.viewer);
    const watched = await viewer.emitWithAck('profile.watch', { profile: profileId });
    expect(watched.ok && userIds(watched)).toEqual([ids.viewer]);
    globex.disconnect();
    viewer.disconnect();
  });
});

describe('profile.changed', () => {
  it('tells every open copy what changed, the new version and who did it; not other companies', async () => {
    const watcher = await live.studio(access.viewer);
    await watcher.emitWithAck('profile.watch', { profile: profileId });
    const globex = await live.studio(access.globex);
    await globex.emitWithAck('profile.watch', { profile: globexProfileId });
    let leaked = false;
    globex.on('profile.changed', () => {
      leaked = true;
    });

    const got = await t.app.inject({
      method: 'GET',
      url: `/api/v2/profile/${profileId}`,
      headers: bearer(access.agent),
    });
    const version = got.json().version as number;
    const changed = new Promise<Parameters<ServerToClientEvents['profile.changed']>[0]>((resolve) =>
      watcher.once('profile.changed', resolve),
    );
    const written = await t.app.inject({
      method: 'PATCH',
      url: `/api/v2/profile/${profileId}/status`,
      headers: { ...bearer(access.agent), 'if-match': etagOf(version) },
      payload: { status: 'Pending Approval' },
    });
    expect(written.json()).toMatchObject({ result: true });
    const event = await changed;
    expect(event).toMatchObject({
      profile: profileId,
      what: 'status',
      document: null,
      version: version + 1,
      by: { user_id: ids.agent },
    });
    expect(event.by.name).toBeTruthy();

    // A refused (stale) write tells nobody anything; the next real write does. The globex socket's
    // profile is another, so it heard nothing of either.
    const stale = await t.app.inject({
      method: 'PATCH',
      url: `/api/v2/profile/${profileId}`,
      headers: { ...bearer(access.agent), 'if-match': etagOf(version) },
      payload: { name: 'Nobody' },
    });
    expect(stale.statusCode).toBe(409);
    const next = new Promise<Parameters<ServerToClientEvents['profile.changed']>[0]>((resolve) =>
      watcher.once('profile.changed', resolve),
    );
    await t.app.inject({
      method: 'POST',
      url: `/api/v2/profile/${profileId}/note`,
      headers: bearer(access.admin),
      payload: { note: 'Checked the address by phone.' },
    });
    expect(await next).toMatchObject({ what: 'note', by: { user_id: ids.admin } });
    expect(leaked).toBe(false);
    watcher.disconnect();
    globex.disconnect();
  });
});
