/**
 * The studio's side of profile presence (src/services/profileWatch.ts through src/services/socket.ts)
 * against the real hub: presence reaches the watchers, a change reaches them with the keys to refresh, a
 * dropped connection watches again by itself, and the last listener gone unwatches.
 */
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfileViewer } from '#contract/socket';
import { companies, profiles, users } from '../../server/db/schema';
import { type ProfileWatchEvent, staleKeys } from '../../src/services/profileWatch';
import { connectRealtime, type Realtime } from '../../src/services/socket';
import { bearer, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

let t: TestApp;
let base = '';
let profileId = 0;
const ids = { admin: 0, viewer: 0 };
const opened: Realtime[] = [];

beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const db = t.app.ctx.db;
  const [acme] = await db.select().from(companies).where(eq(companies.name, 'Acme Bank'));
  const [p] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.companyId, acme?.id ?? 0), eq(profiles.status, 'Pending Review')))
    .limit(1);
  profileId = p?.id ?? 0;
  for (const [key, email] of [
    ['admin', 'admin@acme.test'],
    ['viewer', 'viewer@acme.test'],
  ] as const) {
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    ids[key] = user?.id ?? 0;
  }
  expect([profileId, ids.admin, ids.viewer]).not.toContain(0);
});
afterAll(async () => {
  for (const realtime of opened) realtime.close();
  await t.close();
});

async function studioSocket(email: string, password: string) {
  const access = await tokenFor(t.app, email, password);
  const realtime = connectRealtime({
    server: base,
    socketToken: async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v2/user/socket_token',
        headers: bearer(access),
        payload: { studio: true },
      });
      return response.json().token as string;
    },
  });
  opened.push(realtime);
  return { realtime, access };
}

const lastPresence = (events: ProfileWatchEvent[]): ProfileViewer[] | undefined =>
  events.filter((e) => e.type === 'PROFILE.PRESENCE').at(-1)?.viewers;
const userIds = (viewers: ProfileViewer[] | undefined) => (viewers ?? []).map((v) => v.user_id).sort();

describe('profile watching in the studio socket layer', () => {
  it('presence, a change with the keys to refresh, re-watching after a drop, unwatching', async () => {
    const admin = await studioSocket('admin@acme.test', PASSWORDS.admin);
    // A Restricted User: the socket for profile presence alone.
    const viewer = await studioSocket('viewer@acme.test', PASSWORDS.user);
    const adminEvents: ProfileWatchEvent[] = [];
    const viewerEvents: ProfileWatchEvent[] = [];
    admin.realtime.watchProfile(profileId, (event) => adminEvents.push(event));
    const stopViewer = viewer.realtime.watchProfile(profileId, (event) => viewerEvents.push(event));
    await expect.poll(() => userIds(lastPresence(adminEvents))).toEqual([ids.admin, ids.viewer].sort());

    // A write by the admin reaches the viewer's copy.
    await t.app.inject({
      method: 'POST',
      url: `/api/v2/profile/${profileId}/note`,
      headers: bearer(admin.access),
      payload: { note: 'Called the customer back.' },
    });
    await expect
      .poll(() => viewerEvents.find((e) => e.type === 'PROFILE.CHANGED'))
      .toMatchObject({ change: { what: 'note', by: { user_id: ids.admin } } });
    const change = viewerEvents.find((e) => e.type === 'PROFILE.CHANGED');
    if (change?.type !== 'PROFILE.CHANGED') throw new Error('no change');
    expect(staleKeys(change.change)).toEqual([
      ['profiles', 'detail', profileId, 'notes'],
      ['profiles', 'detail', profileId, 'logs'],
    ]);

    // The viewer's connection drops: it leaves, reconnects, and watches again by itself.
    const beforeDrop = adminEvents.length;
    const dropped = await t.app.inject({
      method: 'POST',
      url: '/api/dev/sockets/drop?email=viewer@acme.test',
    });
    expect(dropped.json().dropped).toBeGreaterThan(0);
    // Some presence after the drop lists the admin alone (not necessarily the last one: the viewer may be back
    // before the poll looks), then the viewer is back.
    await expect
      .poll(() =>
        adminEvents
          .slice(beforeDrop)
          .some((e) => e.type === 'PROFILE.PRESENCE' && userIds(e.viewers).join() === String(ids.admin)),
      )
      .toBe(true);
    await expect
      .poll(() => userIds(lastPresence(adminEvents)), { timeout: 10_000 })
      .toEqual([ids.admin, ids.viewer].sort());

    // The viewer's last listener goes: the server is told, the admin sees it leave.
    stopViewer();
    await expect.poll(() => userIds(lastPresence(adminEvents))).toEqual([ids.admin]);
  });

  it('maps each kind of change to the cached data it makes stale', () => {
    const change = (what: 'status' | 'checklist' | 'document') => ({
      profile: 9,
      what,
      document: what === 'document' ? 3 : null,
      version: 2,
      by: { user_id: 1, name: 'A' },
      at: '2026-11-24T00:00:00.000Z',
    });
    expect(staleKeys(change('status'))).toContainEqual(['profiles', 'detail', 9]);
    expect(staleKeys(change('status'))).toContainEqual(['profiles', 'list']);
    expect(staleKeys(change('checklist'))).toContainEqual(['profiles', 'detail', 9, 'checklists']);
    expect(staleKeys(change('document'))).toContainEqual(['profiles', 'detail', 9, 'documents']);
  });
});
