/**
 * A profile creation writes its row, its activity log entry, its `profile.created` event and its audit entry
 * together, all naming the new id, or none of them: on PGlite and on PostgreSQL (two processes, so the
 * simultaneous creations come from different connections), a duplicate id card number leaves nothing behind.
 */
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '#contract/profiles';
import type { Db } from '../../server/db/client';
import { auditLog, companies, profileLogs, profiles, webhookMessages } from '../../server/db/schema';
import { CREATE_LOCK } from '../../server/domain/profileWrites';
import { setEventToggles } from '../../server/domain/webhooks';
import { PASSWORDS, post, startTestApp, type TestApp, tokenFor } from './helpers';
import { POSTGRES_AVAILABLE, startThrowawayPostgres, type ThrowawayPostgres } from './throwawayPostgres';

const DUPLICATE = { status: 400, body: { detail: 'A profile with this id card number already exists' } };

/** Everything written for profiles of this id card number in the company. */
async function writtenFor(db: Db, companyId: number, idCardNumber: string) {
  const rows = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.companyId, companyId), eq(profiles.idCardNumber, idCardNumber)));
  const ids = rows.map((r) => r.id);
  const logs = await db
    .select({ profileId: profileLogs.profileId, action: profileLogs.action, data: profileLogs.data })
    .from(profileLogs);
  const messages = await db
    .select({ body: webhookMessages.body })
    .from(webhookMessages)
    .where(and(eq(webhookMessages.companyId, companyId), eq(webhookMessages.eventType, 'profile.created')));
  const audits = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.companyId, companyId), eq(auditLog.action, 'profile_created')));
  const events = messages
    .map((m) => JSON.parse(m.body) as { type: string; timestamp: string; data: { profile_id: number } })
    .filter((e) => ids.includes(e.data.profile_id));
  return {
    ids,
    logs: logs.filter((l) => ids.includes(l.profileId)),
    events,
    audits: audits.filter((a) => ids.map(String).includes(a.objectId)),
  };
}

interface Apps {
  first: TestApp;
  second: TestApp;
}

/** The Acme Bank's id. */
async function acmeOf(db: Db): Promise<number> {
  const [acme] = await db.select({ id: companies.id }).from(companies).where(eq(companies.name, 'Acme Bank'));
  if (!acme) throw new Error('no Acme Bank in the seed');
  return acme.id;
}

function creations(label: string, appsOf: () => Apps) {
  describe(`creating a profile (${label})`, () => {
    let apps: Apps;
    let companyId = 0;
    const tokens = { first: '', second: '' };
    beforeAll(async () => {
      apps = appsOf();
      tokens.first = await tokenFor(apps.first.app, 'admin@acme.test', PASSWORDS.admin);
      tokens.second = await tokenFor(apps.second.app, 'agent@acme.test', PASSWORDS.user);
      companyId = await acmeOf(apps.first.app.ctx.db);
    });

    const create = (via: 'first' | 'second', idCardNumber: string) =>
      post<Profile>(
        apps[via].app,
        '/api/v2/profile',
        { id_card_number: idCardNumber, name: 'Entry Person', gender: 'M' },
        tokens[via],
      );

    it('writes the row, its log entry, its event and its audit entry, each naming the new id', async () => {
      const number = `ENTRIES-${label}-1`;
      const { status, body } = await create('first', number);
      expect(status).toBe(201);
      expect(body.company).toBe(companyId);
      expect(body).toMatchObject({ id_card_number: number, status: 'Created', name: 'Entry Person' });
      const written = await writtenFor(apps.first.app.ctx.db, companyId, number);
      expect(written.ids).toEqual([body.id]);
      expect(written.logs).toEqual([
        { profileId: body.id, action: 'profile_created', data: { id_card_number: number } },
      ]);
      expect(written.events).toEqual([
        {
          type: 'profile.created',
          timestamp: expect.any(String),
          data: { profile_id: body.id, status: 'Created' },
        },
      ]);
      expect(written.audits).toHaveLength(1);
      expect(written.audits[0]).toMatchObject({
        objectType: 'profile',
        objectId: String(body.id),
        actorEmail: 'admin@acme.test',
        before: {},
        after: { id_card_number: number, name: 'Entry Person', gender: 'M' },
      });
    });

    it('lets one of six simultaneous creations with the same number through, with one of each entry', async () => {
      const number = `ENTRIES-${label}-RACE`;
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, n) => create(n % 2 ? 'second' : 'first', number)),
      );
      expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
      expect(answers.filter((a) => a.status !== 201).map(({ status, body }) => ({ status, body }))).toEqual(
        Array.from({ length: 5 }, () => DUPLICATE),
      );
      const written = await writtenFor(apps.first.app.ctx.db, companyId, number);
      expect(written.ids).toHaveLength(1);
      expect(written.logs).toHaveLength(1);
      expect(written.events).toHaveLength(1);
      expect(written.audits).toHaveLength(1);
    });

    it('queues no event while the company has profile.created switched off, and still logs and audits', async () => {
      const number = `ENTRIES-${label}-OFF`;
      const db = apps.first.app.ctx.db;
      await setEventToggles(db, companyId, { 'profile.created': false });
      try {
        expect((await create('second', number)).status).toBe(201);
      } finally {
        await setEventToggles(db, companyId, { 'profile.created': true });
      }
      const written = await writtenFor(db, companyId, number);
      expect(written.ids).toHaveLength(1);
      expect(written.logs).toHaveLength(1);
      expect(written.events).toEqual([]);
      expect(written.audits).toHaveLength(1);
    });
  });
}

describe('on PGlite', () => {
  let pglite: TestApp;
  beforeAll(async () => {
    pglite = await startTestApp();
  });
  afterAll(async () => {
    await pglite?.close();
  });
  creations('PGlite', () => ({ first: pglite, second: pglite }));
});

describe.skipIf(!POSTGRES_AVAILABLE)('on PostgreSQL', () => {
  let postgres: ThrowawayPostgres | undefined;
  const apps: Partial<Apps> = {};
  beforeAll(async () => {
    postgres = await startThrowawayPostgres();
    apps.first = await startTestApp({ databaseUrl: postgres.databaseUrl });
    apps.second = await startTestApp({ databaseUrl: postgres.databaseUrl });
  }, 120_000);
  afterAll(async () => {
    await apps.second?.close();
    await apps.first?.close();
    postgres?.stop();
  });
  creations('PostgreSQL', () => apps as Apps);

  it('waits for a creation still open on another connection, then sees its number taken', async () => {
    const app = (apps as Apps).first.app;
    const companyId = await acmeOf(app.ctx.db);
    const token = await tokenFor(app, 'admin@acme.test', PASSWORDS.admin);
    const number = 'ENTRIES-OPEN-ELSEWHERE';
    // Another creation of the same company, between its insert and its commit.
    const other = new pg.Client({ connectionString: postgres?.databaseUrl });
    await other.connect();
    try {
      await other.query('begin');
      await other.query('select pg_advisory_xact_lock($1, $2)', [CREATE_LOCK, companyId]);
      await other.query(
        `insert into profiles (company_id, id_card_number, status, risk_level, source)
         values ($1, $2, 'Created', 'Unknown', 'studio')`,
        [companyId, number],
      );
      const answer = post(app, '/api/v2/profile', { id_card_number: number }, token);
      // The request waits for the other creation's lock before it looks for the number.
      await expect
        .poll(
          async () =>
            (
              await other.query<{ n: number }>(
                `select count(*)::int as n from pg_locks
                  where locktype = 'advisory' and classid = $1 and objid = $2 and objsubid = 2 and not granted`,
                [CREATE_LOCK, companyId],
              )
            ).rows[0]?.n,
          { timeout: 30_000 },
        )
        .toBe(1);
      await other.query('commit');
      const { status, body } = await answer;
      expect({ status, body }).toEqual(DUPLICATE);
    } finally {
      await other.end();
    }
    const written = await writtenFor(app.ctx.db, companyId, number);
    expect(written.ids).toHaveLength(1);
    expect(written.logs).toEqual([]);
    expect(written.events).toEqual([]);
    expect(written.audits).toEqual([]);
  });
});
