import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Bitool, CallReport } from '#contract/stats';
import { type Change, changeOf } from '../../server/db/changes';
import type { Db } from '../../server/db/client';
import { profiles, users, videoCalls } from '../../server/db/schema';
import { bitool } from '../../server/domain/bitool';
import { callReport } from '../../server/domain/callReport';
import { createReportReads } from '../../server/domain/reportReads';
import { acmeRows } from './callRollupsCheck';
import { fakeChanges } from './fakeChanges';
import { get, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

/** A read that runs until `finish` is called, counting its runs. */
function slowRead<T>() {
  let runs = 0;
  let finish: (value: T) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const read = () => {
    runs += 1;
    return new Promise<T>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
  };
  return { read, runs: () => runs, finish: (v: T) => finish(v), fail: (e: Error) => fail(e) };
}

const counted = () => {
  let runs = 0;
  return { read: async () => (runs += 1), runs: () => runs };
};

describe('report reads, not following changes (PostgreSQL)', () => {
  it('answer the same read asked for while it runs from that run, and run it again once it has settled', async () => {
    const reads = createReportReads();
    const slow = slowRead<number>();
    const first = reads.read(1, 'a', slow.read);
    const second = reads.read(1, 'a', slow.read);
    expect(slow.runs()).toBe(1);
    slow.finish(42);
    expect(await Promise.all([first, second])).toEqual([42, 42]);
    const third = reads.read(1, 'a', slow.read);
    expect(slow.runs()).toBe(2);
    slow.finish(43);
    expect(await third).toBe(43);
  });

  it('run other keys and other companies on their own', async () => {
    const reads = createReportReads();
    const a = slowRead<string>();
    const b = slowRead<string>();
    const c = slowRead<string>();
    const first = reads.read(1, 'a', a.read);
    const other = reads.read(1, 'b', b.read);
    const otherCompany = reads.read(2, 'a', c.read);
    a.finish('A');
    b.finish('B');
    c.finish('C');
    expect(await Promise.all([first, other, otherCompany])).toEqual(['A', 'B', 'C']);
  });

  it('share a failure with the callers waiting for it, then forget it', async () => {
    const reads = createReportReads();
    const slow = slowRead<number>();
    const first = reads.read(1, 'a', slow.read);
    const second = reads.read(1, 'a', slow.read);
    slow.fail(new Error('the database went away'));
    await expect(first).rejects.toThrow('went away');
    await expect(second).rejects.toThrow('went away');
    const again = reads.read(1, 'a', slow.read);
    expect(slow.runs()).toBe(2);
    slow.finish(7);
    expect(await again).toBe(7);
  });
});

describe('report reads, following changes (PGlite)', () => {
  it('keep an answer until its company changes; other companies keep theirs', async () => {
    const feed = fakeChanges();
    const reads = createReportReads();
    await reads.follow(feed.changes);
    const one = counted();
    const two = counted();
    expect(await reads.read(1, 'a', one.read)).toBe(1);
    expect(await reads.read(1, 'a', one.read)).toBe(1);
    expect(await reads.read(2, 'a', two.read)).toBe(1);
    feed.tell(1);
    expect(await reads.read(1, 'a', one.read)).toBe(2);
    expect(await reads.read(2, 'a', two.read)).toBe(1);
    // Every company (a TRUNCATE of a rollup table).
    feed.tell(null);
    expect(await reads.read(1, 'a', one.read)).toBe(3);
    expect(await reads.read(2, 'a', two.read)).toBe(2);
    expect([one.runs(), two.runs()]).toEqual([3, 2]);
  });

  it('do not keep a read that a change overtook while it ran', async () => {
    const feed = fakeChanges();
    const reads = createReportReads();
    await reads.follow(feed.changes);
    const slow = slowRead<string>();
    const stale = reads.read(1, 'a', slow.read);
    feed.tell(1);
    slow.finish('before the write');
    expect(await stale).toBe('before the write');
    const fresh = reads.read(1, 'a', slow.read);
    expect(slow.runs()).toBe(2);
    slow.finish('after the write');
    expect(await fresh).toBe('after the write');
  });

  it('forget a failure, keep at most the bound of answers, and keep nothing once stopped', async () => {
    const feed = fakeChanges();
    const reads = createReportReads(2);
    await reads.follow(feed.changes);
    const slow = slowRead<number>();
    const failing = reads.read(1, 'a', slow.read);
    slow.fail(new Error('timeout'));
    await expect(failing).rejects.toThrow('timeout');
    const a = counted();
    const b = counted();
    const c = counted();
    await reads.read(1, 'a', a.read);
    await reads.read(1, 'b', b.read);
    await reads.read(1, 'c', c.read);
    // 'a' was the oldest of three with room for two.
    await reads.read(1, 'a', a.read);
    await reads.read(1, 'c', c.read);
    expect([a.runs(), b.runs(), c.runs()]).toEqual([2, 1, 1]);
    await reads.stop();
    expect(feed.listening()).toBe(false);
    await reads.read(1, 'c', c.read);
    await reads.read(1, 'c', c.read);
    expect(c.runs()).toBe(3);
  });

  it('read a notification: a company id, or every company for anything else', () => {
    expect(changeOf('42')).toBe(42);
    expect(changeOf('*')).toBeNull();
    expect(changeOf('')).toBeNull();
    expect(changeOf('07')).toBeNull();
    expect(changeOf('99999999999')).toBeNull();
  });
});

describe('the database tells which companies changed (migration 0037), and the app answers as it reads', () => {
  let t: TestApp;
  let db: Db;
  let told: Change[] = [];
  let stopListening: () => Promise<void> = async () => undefined;
  let acme: Awaited<ReturnType<typeof acmeRows>>;
  let profile = 0;
  let agent = 0;
  let token = '';

  beforeAll(async () => {
    t = await startTestApp();
    db = t.app.ctx.db;
    acme = await acmeRows(db);
    profile = acme.profiles[0] ?? 0;
    agent = acme.agents[0] ?? 0;
    token = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    // Beside the app, on the same database.
    const changes = t.database.rollupChanges;
    if (!changes) throw new Error('the test app runs on no PGlite of its own');
    stopListening = await changes.listen((change) => told.push(change));
  });

  afterAll(async () => {
    await stopListening();
    await t?.close();
  });

  /** What the database told while `write` ran (its notifications arrive before the write's await returns). */
  async function toldBy(write: () => Promise<unknown>): Promise<Change[]> {
    told = [];
    await write().catch(() => undefined);
    return [...told];
  }

  const RANGE = { start_date: '2026-01-01', end_date: '2026-12-31' };
  const QUERY = `start_date=${RANGE.start_date}&end_date=${RANGE.end_date}`;
  const dashboard = async () => (await get<Bitool>(t.app, `/api/v2/bitool?${QUERY}`, token)).body;
  const report = async () => (await get<CallReport>(t.app, `/api/v2/videocall/report?${QUERY}`, token)).body;
  /** GET /bitool and GET /videocall/report equal the same figures read afresh, past every kept answer. */
  async function expectFresh() {
    expect(await dashboard()).toEqual(await bitool(db, createReportReads(), acme.company, RANGE));
    expect(await report()).toEqual(await callReport(db, createReportReads(), acme.company, RANGE));
  }

  it('the app keeps its answers: a second read of the same figures is the kept one', async () => {
    const once = counted();
    await t.app.ctx.reports.read(acme.company, 'probe', once.read);
    await t.app.ctx.reports.read(acme.company, 'probe', once.read);
    expect(once.runs()).toBe(1);
  });

  it('a write of calls, profiles or agents’ names tells its company; a rolled-back one and other columns tell nothing', async () => {
    expect(
      await toldBy(() =>
        db
          .insert(videoCalls)
          .values({ companyId: acme.company, profileId: profile, status: 0, roomId: 'r-1' }),
      ),
    ).toEqual([acme.company]);
    expect(
      await toldBy(() => db.update(profiles).set({ status: 'Approved' }).where(eq(profiles.id, profile))),
    ).toEqual([acme.company]);
    expect(
      await toldBy(() => db.update(users).set({ firstName: 'Renamed' }).where(eq(users.id, agent))),
    ).toEqual([acme.company]);
    // Not a name: the report does not change.
    expect(
      await toldBy(() => db.update(users).set({ phone: '+90 555 000 00 00' }).where(eq(users.id, agent))),
    ).toEqual([]);
    expect(
      await toldBy(() =>
        db.transaction(async (tx) => {
          await tx.update(profiles).set({ status: 'Rejected' }).where(eq(profiles.id, profile));
          throw new Error('rolled back');
        }),
      ),
    ).toEqual([]);
    expect(await toldBy(() => db.execute(sql`TRUNCATE call_rollups`))).toEqual([null]);
    // Put back what the TRUNCATE took (the rollups are the calls' sums).
    await db.execute(
      sql`SELECT call_rollups_merge('{}', array(SELECT call_rollup_of(v) FROM video_calls v))`,
    );
  });

  it('GET /bitool and GET /videocall/report answer what a fresh read gives after each write', async () => {
    await expectFresh();
    const before = await dashboard();
    await db
      .insert(profiles)
      .values({ companyId: acme.company, idCardNumber: '10000000146', name: 'Kept Notkept' });
    await expectFresh();
    expect((await dashboard()).totals).not.toEqual(before.totals);
    const [call] = await db
      .insert(videoCalls)
      .values({ companyId: acme.company, profileId: profile, status: 0, roomId: 'r-2' })
      .returning({ id: videoCalls.id });
    await expectFresh();
    await db
      .update(videoCalls)
      .set({
        agentId: agent,
        status: 3,
        callStartTime: new Date(),
        callEndTime: new Date(Date.now() + 60_000),
      })
      .where(eq(videoCalls.id, call?.id ?? 0));
    await expectFresh();
    await db.update(users).set({ firstName: 'Named', lastName: 'Again' }).where(eq(users.id, agent));
    expect((await report()).by_agent.map((row) => row.agent?.name)).toContain('Named Again');
    await expectFresh();
  });
});
