/**
 * The access checks' principals are kept until the database says (migration 0038) that the user's role,
 * flags, state or groups changed. The kept reads against a hand-told database, then the migration's
 * notifications and the app's answers on the test app's PGlite (on PostgreSQL: postgres.test.ts).
 * Why: docs/decisions/0179-principals-kept-until-they-change.md and 0180-postgresql-tells-what-changed.md.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Change } from '../../server/db/changes';
import type { Db } from '../../server/db/client';
import { groups, userGroups, users } from '../../server/db/schema';
import {
  createPrincipalReads,
  type loadPrincipalState,
  type PrincipalState,
} from '../../server/domain/principal';
import { fakeChanges } from './fakeChanges';
import { bearer, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

const stateOf = (id: number, role: PrincipalState['principal']['role'] = 'User'): PrincipalState => ({
  principal: {
    id,
    companyId: 1,
    email: `user${id}@acme.test`,
    role,
    permissions: [],
    isApiUser: false,
    isSuperuser: false,
  },
  disabledAt: null,
});

/** A loader that counts its reads per user; `hold` keeps the next read running until `release`. */
function countingLoader() {
  const reads = new Map<number, number>();
  let held: { resolve: () => void } | null = null;
  let holdNext = false;
  let failNext = false;
  const load: typeof loadPrincipalState = async (_db, userId) => {
    reads.set(userId, (reads.get(userId) ?? 0) + 1);
    if (holdNext) {
      holdNext = false;
      await new Promise<void>((resolve) => {
        held = { resolve };
      });
    }
    if (failNext) {
      failNext = false;
      throw new Error('the database is away');
    }
    return stateOf(userId);
  };
  return {
    load,
    reads: (userId: number) => reads.get(userId) ?? 0,
    hold: () => {
      holdNext = true;
    },
    release: () => held?.resolve(),
    failNext: () => {
      failNext = true;
    },
  };
}

const db = {} as Db;

/** Principal reads over a counting loader, following hand-told changes. */
async function followingReads(maxKept?: number) {
  const loader = countingLoader();
  const told = fakeChanges();
  const reads = createPrincipalReads(loader.load, maxKept);
  await reads.follow(told.changes);
  return { loader, told, reads };
}

describe('principal reads', () => {
  it('read every time while not following changes', async () => {
    const loader = countingLoader();
    const reads = createPrincipalReads(loader.load);
    await reads.read(db, 1);
    await reads.read(db, 1);
    expect(loader.reads(1)).toBe(2);
  });

  it('keep a user’s principal until the database says it changed, theirs or everyone’s', async () => {
    const { loader, told, reads } = await followingReads();
    await reads.read(db, 1);
    await reads.read(db, 1);
    await reads.read(db, 2);
    expect([loader.reads(1), loader.reads(2)]).toEqual([1, 1]);
    told.tell(2);
    await reads.read(db, 1);
    await reads.read(db, 2);
    expect([loader.reads(1), loader.reads(2)]).toEqual([1, 2]);
    told.tell(null);
    await reads.read(db, 1);
    await reads.read(db, 2);
    expect([loader.reads(1), loader.reads(2)]).toEqual([2, 3]);
    await reads.stop();
    await reads.read(db, 1);
    await reads.read(db, 1);
    expect(loader.reads(1)).toBe(4);
  });

  it('read every time while the changes are blind, and read again once they are heard', async () => {
    const { loader, told, reads } = await followingReads();
    await reads.read(db, 1);
    await reads.read(db, 1);
    expect(loader.reads(1)).toBe(1);
    // PostgreSQL's listening connection dropped: a change may go untold now.
    told.blind(true);
    await reads.read(db, 1);
    await reads.read(db, 1);
    expect(loader.reads(1)).toBe(3);
    // Back: what changed meanwhile is unknown, so the kept principal is read again, then kept.
    told.blind(false);
    await reads.read(db, 1);
    await reads.read(db, 1);
    expect(loader.reads(1)).toBe(4);
  });

  it('do not keep a read that a change overtook: the next caller reads again', async () => {
    const { loader, told, reads } = await followingReads();
    loader.hold();
    const first = reads.read(db, 1);
    // Asked while the first read runs, before any change: the same read answers.
    const second = reads.read(db, 1);
    told.tell(1);
    loader.release();
    await Promise.all([first, second]);
    expect(loader.reads(1)).toBe(1);
    await reads.read(db, 1);
    expect(loader.reads(1)).toBe(2);
    await reads.read(db, 1);
    expect(loader.reads(1)).toBe(2);
  });

  it('forget a failed read, keep at most the bound, and hand out principals nothing can change', async () => {
    const { loader, reads } = await followingReads(2);
    loader.failNext();
    await expect(reads.read(db, 1)).rejects.toThrow('the database is away');
    const state = await reads.read(db, 1);
    expect(loader.reads(1)).toBe(2);
    if (!state) throw new Error('no principal read');
    expect(Object.isFrozen(state.principal.permissions) && Object.isFrozen(state.principal)).toBe(true);
    expect(() => {
      (state.principal as { role: string }).role = 'Admin';
    }).toThrow(TypeError);
    await reads.read(db, 2);
    await reads.read(db, 3);
    // 1 was the oldest of three: it went.
    await reads.read(db, 1);
    expect(loader.reads(1)).toBe(3);
    await reads.read(db, 3);
    expect(loader.reads(3)).toBe(1);
  });
});

describe('the database tells whose principal changed (migration 0038), and the app answers as it reads', () => {
  let t: TestApp;
  let told: Change[] = [];
  let stopListening: () => Promise<void> = async () => undefined;
  let agent = 0;

  beforeAll(async () => {
    t = await startTestApp();
    const changes = t.database.principalChanges;
    if (!changes) throw new Error('the test app runs on no PGlite of its own');
    stopListening = await changes.listen((change) => told.push(change));
    const [row] = await t.app.ctx.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'agent@acme.test'));
    agent = row?.id ?? 0;
  });

  afterAll(async () => {
    await stopListening();
    await t?.close();
  });

  /** What the database told while `write` ran (its notifications arrive before the write's await returns). */
  async function toldBy(write: (db: Db) => Promise<unknown>): Promise<Change[]> {
    told = [];
    await write(t.app.ctx.db).catch(() => undefined);
    return [...told];
  }

  it('a change of role, state, flags, e-mail or groups tells its user; sign-ins, statuses and names tell nothing', async () => {
    const agentRow = eq(users.id, agent);
    expect(await toldBy((db) => db.update(users).set({ role: 'Admin' }).where(agentRow))).toEqual([agent]);
    expect(await toldBy((db) => db.update(users).set({ role: 'User' }).where(agentRow))).toEqual([agent]);
    expect(await toldBy((db) => db.update(users).set({ isActive: false }).where(agentRow))).toEqual([agent]);
    expect(await toldBy((db) => db.update(users).set({ isActive: true }).where(agentRow))).toEqual([agent]);
    expect(await toldBy((db) => db.update(users).set({ disabledAt: new Date() }).where(agentRow))).toEqual([
      agent,
    ]);
    expect(await toldBy((db) => db.update(users).set({ isSuperuser: false }).where(agentRow))).toEqual([]);
    expect(
      await toldBy((db) =>
        db
          .update(users)
          .set({ lastLogin: new Date(), agentStatus: 'Online', firstName: 'Renamed' })
          .where(agentRow),
      ),
    ).toEqual([]);
    expect(
      await toldBy((db) =>
        db.transaction(async (tx) => {
          await tx.update(users).set({ role: 'Admin' }).where(agentRow);
          throw new Error('rolled back');
        }),
      ),
    ).toEqual([]);
    const [group] = await t.app.ctx.db
      .insert(groups)
      .values({ companyId: 1, name: 'Told', permissions: [] })
      .returning({ id: groups.id });
    const groupId = group?.id ?? 0;
    expect(await toldBy((db) => db.insert(userGroups).values({ userId: agent, groupId }))).toEqual([agent]);
    expect(
      await toldBy((db) =>
        db
          .update(groups)
          .set({ permissions: ['view_calls_page'] })
          .where(eq(groups.id, groupId)),
      ),
    ).toEqual([null]);
    // The group goes, and its memberships with it.
    expect(await toldBy((db) => db.delete(groups).where(eq(groups.id, groupId)))).toEqual([agent]);
    expect(await toldBy((db) => db.execute(sql`TRUNCATE user_groups`))).toEqual([null]);
  });

  it('the access check reads past what it kept: a demoted, disabled or regrouped user is refused at once', async () => {
    const admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    const viewer = await tokenFor(t.app, 'viewer@acme.test', PASSWORDS.user);
    const [row] = await t.app.ctx.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'viewer@acme.test'));
    const id = row?.id ?? 0;
    const report = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/v2/videocall/report?start_date=2026-01-01&end_date=2026-01-31',
          headers: bearer(viewer),
        })
      ).statusCode;
    const change = async (body: object) => {
      const answer = await t.app.inject({
        method: 'PATCH',
        url: `/api/v2/user/${id}`,
        headers: bearer(admin),
        payload: { password: PASSWORDS.admin, ...body },
      });
      expect(answer.statusCode, answer.body).toBe(200);
    };
    expect(await report()).toBe(403);
    expect(await report()).toBe(403);
    await change({ role: 'User' });
    expect(await report()).toBe(200);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v2/group',
      headers: bearer(admin),
      payload: { name: 'Reporters', permissions: ['view_calls_page'] },
    });
    const group = (created.json() as { id: number }).id;
    await change({ role: 'Restricted User', groups: [group] });
    expect(await report()).toBe(200);
    await t.app.inject({
      method: 'PATCH',
      url: `/api/v2/group/${group}`,
      headers: bearer(admin),
      payload: { permissions: [] },
    });
    expect(await report()).toBe(403);
    await change({ role: 'User', groups: [] });
    expect(await report()).toBe(200);
    await change({ is_active: false });
    expect(await report()).toBe(401);
  });
});
