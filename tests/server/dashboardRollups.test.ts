import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_STATUSES } from '#contract/common';
import type { Bitool } from '#contract/stats';
import type { Db } from '../../server/db/client';
import { amlHistory, companies, documents, profiles } from '../../server/db/schema';
import { createRng } from '../../server/db/seed/prng';
import {
  checksOf,
  companyId,
  concurrentDashboardWriters,
  dashboardRollupsAndDirect,
  expectDashboardRollupsExact,
  scannedBitool,
} from './dashboardRollupsCheck';
import { get, PASSWORDS, startTestApp, type TestApp, tokenFor } from './helpers';

/**
 * The dashboard rollups (migration 0036, docs/decisions/0170-dashboard-rollups.md) stay exactly what a direct aggregation over profiles,
 * aml_history and documents gives, whatever writes them: inserts (one or many rows), status changes and
 * decisions, rows moved to another day or company, screenings re-scored, documents re-checked, soft-deleted
 * and restored, deletes (cascading from a profile or a company) and TRUNCATE; and GET /bitool answers what
 * the row-scanning queries answered before.
 */
let t: TestApp;
let db: Db;

beforeAll(async () => {
  t = await startTestApp();
  db = t.app.ctx.db;
});

afterAll(async () => {
  await t?.close();
});

/** A seeded generator (the seed's mulberry32), so a failure can be replayed. */
const random = (seed: number): (() => number) => createRng(seed).next;

/** GET /bitool equals the row-scanning answer for each range (weeks and months, around the test's days). */
async function expectBitoolAsScanned(company: number, token: string, ranges: string[][]): Promise<void> {
  for (const [start, end] of ranges) {
    const answer = await get<Bitool>(t.app, `/api/v2/bitool?start_date=${start}&end_date=${end}`, token);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(await scannedBitool(db, company, { start_date: start, end_date: end }));
  }
}

describe('dashboard rollups', () => {
  it('were filled from the demo profiles, screenings and documents by the migration', async () => {
    await expectDashboardRollupsExact(db);
    const acme = await companyId(db, 'Acme Bank');
    const token = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    const answer = await get<Bitool>(t.app, '/api/v2/bitool', token);
    expect(answer.body).toEqual(await scannedBitool(db, acme, {}));
    expect(answer.body.totals.profiles).toBeGreaterThan(0);
  });

  it('stay exact through a random mix of writes on profiles, screenings and documents (seed 170)', async () => {
    const next = random(170);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const acme = await companyId(db, 'Acme Bank');
    const globex = await companyId(db, 'Globex Fintech');
    // Days around a month's end and a UTC midnight, so rows cross days, weeks and months when they move.
    const moment = () =>
      new Date(Date.parse('2022-01-29T22:00:00Z') + Math.floor(next() * 4 * 86_400) * 1000);
    const profileIds: number[] = [];
    const screeningIds: number[] = [];
    const documentIds: number[] = [];
    const forget = (list: number[], gone: number[]) => {
      for (const id of gone) if (list.includes(id)) list.splice(list.indexOf(id), 1);
    };
    const addProfiles = async (count: number) => {
      const rows = await db
        .insert(profiles)
        .values(
          Array.from({ length: count }, (_, i) => ({
            companyId: next() < 0.85 ? acme : globex,
            idCardNumber: `rollup-${profileIds.length}-${i}`,
            status: pick(PROFILE_STATUSES),
            createdAt: moment(),
            lastStatusDate: next() < 0.5 ? moment() : null,
          })),
        )
        .returning({ id: profiles.id });
      profileIds.push(...rows.map((r) => r.id));
    };
    const addScreenings = async (count: number) => {
      const rows = await db
        .insert(amlHistory)
        .values(
          Array.from({ length: count }, () => ({
            profileId: pick(profileIds),
            provider: 'test',
            status: pick(['clear', 'hit', 'error']),
            scannedDatabase: 'x',
            createdAt: moment(),
          })),
        )
        .returning({ id: amlHistory.id });
      screeningIds.push(...rows.map((r) => r.id));
    };
    const addDocuments = async (count: number) => {
      const owners = await db
        .select({ id: profiles.id, companyId: profiles.companyId })
        .from(profiles)
        .where(
          inArray(
            profiles.id,
            Array.from({ length: count }, () => pick(profileIds)),
          ),
        );
      if (owners.length === 0) return;
      const rows = await db
        .insert(documents)
        .values(
          owners.map((owner) => ({
            companyId: owner.companyId,
            profileId: owner.id,
            documentClass: 'ID',
            checks: checksOf(next),
            createdAt: moment(),
            deletedAt: next() < 0.1 ? new Date() : null,
          })),
        )
        .returning({ id: documents.id });
      documentIds.push(...rows.map((r) => r.id));
    };
    await addProfiles(30);
    await addScreenings(30);
    await addDocuments(30);

    for (let step = 0; step < 400; step++) {
      const roll = next();
      const profileId = pick(profileIds);
      const screeningId = pick(screeningIds);
      const documentId = pick(documentIds);
      if (roll < 0.08) await addProfiles(1 + Math.floor(next() * 3));
      else if (roll < 0.14) await addScreenings(1 + Math.floor(next() * 3));
      else if (roll < 0.2) await addDocuments(1 + Math.floor(next() * 3));
      else if (roll < 0.32)
        // A decision: the profile moves between created buckets (same day) and decided buckets.
        await db
          .update(profiles)
          .set({ status: pick(PROFILE_STATUSES), lastStatusDate: moment() })
          .where(eq(profiles.id, profileId));
      else if (roll < 0.36)
        await db.update(profiles).set({ createdAt: moment() }).where(eq(profiles.id, profileId));
      else if (roll < 0.4) {
        // One statement over many profiles, some of whose figures do not change (a summary only).
        const some = profileIds.filter(() => next() < 0.15);
        if (some.length > 0)
          await db
            .update(profiles)
            .set({ status: 'In Review', summary: 'x' })
            .where(inArray(profiles.id, some));
      } else if (roll < 0.42)
        await db.update(profiles).set({ summary: 'y' }).where(eq(profiles.id, profileId));
      else if (roll < 0.44)
        // Never done by the server, kept exact all the same: the profile's screenings move with it.
        await db
          .update(profiles)
          .set({ companyId: next() < 0.5 ? acme : globex })
          .where(eq(profiles.id, profileId));
      else if (roll < 0.5)
        await db
          .update(amlHistory)
          .set({ status: pick(['clear', 'hit', 'error']) })
          .where(eq(amlHistory.id, screeningId));
      else if (roll < 0.53)
        await db
          .update(amlHistory)
          .set(next() < 0.5 ? { createdAt: moment() } : { profileId: pick(profileIds) })
          .where(eq(amlHistory.id, screeningId));
      else if (roll < 0.6)
        await db
          .update(documents)
          .set({ checks: checksOf(next) })
          .where(eq(documents.id, documentId));
      else if (roll < 0.68)
        // Soft-deleted, or restored.
        await db
          .update(documents)
          .set({ deletedAt: next() < 0.7 ? new Date() : null })
          .where(eq(documents.id, documentId));
      else if (roll < 0.71)
        await db.update(documents).set({ createdAt: moment() }).where(eq(documents.id, documentId));
      else if (roll < 0.76) {
        await db.delete(amlHistory).where(eq(amlHistory.id, screeningId));
        forget(screeningIds, [screeningId]);
      } else if (roll < 0.81) {
        await db.delete(documents).where(eq(documents.id, documentId));
        forget(documentIds, [documentId]);
      } else if (roll < 0.87 && profileIds.length > 10) {
        // Its screenings and documents go by ON DELETE CASCADE.
        const gone = profileIds.filter((id) => id === profileId || next() < 0.03);
        await db.delete(profiles).where(inArray(profiles.id, gone));
        forget(profileIds, gone);
        const left = await db.select({ id: amlHistory.id }).from(amlHistory);
        forget(
          screeningIds,
          screeningIds.filter((id) => !left.some((r) => r.id === id)),
        );
        const docs = await db.select({ id: documents.id }).from(documents);
        forget(
          documentIds,
          documentIds.filter((id) => !docs.some((r) => r.id === id)),
        );
      }
      if (step % 80 === 79) await expectDashboardRollupsExact(db);
    }
    await expectDashboardRollupsExact(db);
    // No rollup row is left at zero.
    const { rollups } = await dashboardRollupsAndDirect(db);
    expect(rollups.every((r) => r.n > 0)).toBe(true);

    // The dashboard reads them: its answer is the row-scanning one, by weeks and by months, for both companies.
    const acmeToken = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
    const globexToken = await tokenFor(t.app, 'admin@globex.test', PASSWORDS.admin);
    const ranges = [
      ['2022-01-29', '2022-02-02'],
      ['2022-01-30', '2022-01-31'],
      ['2021-12-01', '2022-03-31'],
      ['2021-06-15', '2022-06-14'],
    ];
    await expectBitoolAsScanned(acme, acmeToken, ranges);
    await expectBitoolAsScanned(globex, globexToken, ranges);
    const answer = await get<Bitool>(
      t.app,
      '/api/v2/bitool?start_date=2021-12-01&end_date=2022-03-31',
      acmeToken,
    );
    expect(answer.body.totals.profiles).toBeGreaterThan(0);
    expect(answer.body.totals.documents).toBeGreaterThan(0);
    expect(answer.body.totals.aml_screenings).toBeGreaterThan(0);
  });

  it('stay exact under concurrent writers on the same rollup rows', async () => {
    await concurrentDashboardWriters(db, 40);
    await expectDashboardRollupsExact(db);
  });

  it('lose a deleted company’s rows (ON DELETE CASCADE through its profiles)', async () => {
    const [gone] = await db
      .insert(companies)
      .values({ name: 'Rollup Leaver', region: 'Europe' })
      .returning({ id: companies.id });
    const company = gone?.id ?? 0;
    const [profile] = await db
      .insert(profiles)
      .values({ companyId: company, idCardNumber: 'leaver', status: 'Approved', lastStatusDate: new Date() })
      .returning({ id: profiles.id });
    const profileId = profile?.id ?? 0;
    await db.insert(amlHistory).values({ profileId, provider: 'x', status: 'hit', scannedDatabase: 'x' });
    await db.insert(documents).values({ companyId: company, profileId, documentClass: 'ID' });
    const rowsOfCompany = async () =>
      (await dashboardRollupsAndDirect(db)).rollups.filter((r) => r.company_id === company);
    expect((await rowsOfCompany()).map((r) => r.source).sort()).toEqual([
      'checked',
      'created',
      'decided',
      'screened',
    ]);
    await db.delete(companies).where(eq(companies.id, company));
    expect(await rowsOfCompany()).toEqual([]);
    await expectDashboardRollupsExact(db);
  });

  it('are emptied with their tables by TRUNCATE', async () => {
    // An app of its own: emptying the file's database would leave the other tests no rollups to check.
    const own = await startTestApp();
    try {
      const ownDb = own.app.ctx.db;
      await ownDb.execute(sql`TRUNCATE aml_history`);
      const { rollups, direct } = await dashboardRollupsAndDirect(ownDb);
      expect(rollups.some((r) => r.source === 'screened')).toBe(false);
      expect(rollups).toEqual(direct);
      await ownDb.execute(sql`TRUNCATE profiles CASCADE`);
      expect((await dashboardRollupsAndDirect(ownDb)).rollups).toEqual([]);
    } finally {
      await own.close();
    }
  });
});
