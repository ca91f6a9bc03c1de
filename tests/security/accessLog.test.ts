/**
 * Every read of a person's data leaves an entry in the access log, with who, what and when: the profile opened, a
 * document page and a recording fetched through their signed addresses (a seek is not a new read), a screenshot,
 * an evidence package, a report the studio drew. Only Admins read the log. The log is a hash chain: the database
 * refuses an UPDATE, and a row changed or removed behind the trigger's back is found by the verification.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AccessEntry, AccessPage } from '#contract/privacy';
import { DAY_MS } from '#contract/time';
import { runAccessLogVerify } from '../../scripts/accessLogVerify';
import { accessLog, documentTypes } from '../../server/db/schema';
import {
  chainHash,
  createAccessLogger,
  GENESIS_HASH,
  pruneAccessLog,
  verifyAccessLog,
} from '../../server/domain/accessLog';
import { uploadDocument, uploadRecording } from '../server/evidenceUploads';
import {
  bearer,
  get,
  PASSWORDS,
  startTestApp,
  type TestApp,
  takeScreenshot,
  talkingCall,
  tokenFor,
  userId,
} from '../server/helpers';

const PROFILE = 4;
const RECORDING = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(4096, 3)]);
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]);

let t: TestApp;
const tokens = { agent: '', admin: '' };
const ids = { agent: 0, admin: 0 };

beforeAll(async () => {
  t = await startTestApp();
  [tokens.agent, tokens.admin] = await Promise.all([
    tokenFor(t.app, 'agent@acme.test', PASSWORDS.user),
    tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin),
  ]);
  ids.agent = await userId(t.app, 'agent@acme.test');
  ids.admin = await userId(t.app, 'admin@acme.test');
});
afterAll(async () => {
  await t?.close();
});

/** The profile's reads as the Admin's tab shows them (after the buffer is written). */
async function readsOf(profile: number): Promise<AccessEntry[]> {
  await t.app.accessLog.flush();
  const { status, body } = await get<AccessPage>(
    t.app,
    `/api/v2/profile/${profile}/access_log?limit=200`,
    tokens.admin,
  );
  expect(status).toBe(200);
  return body.results;
}

/** GET of a signed address the API handed out (a path with its query). */
const fetchAddress = (url: string, range?: string) =>
  t.app.inject({ method: 'GET', url: url.replace(/^https?:\/\/[^/]+/, ''), headers: range ? { range } : {} });

describe('the access log', () => {
  it('records every kind of read with who and what, and only once per playing of a recording', async () => {
    const [type] = await t.app.ctx.db.select().from(documentTypes).limit(1);
    const documentId = await uploadDocument(t.app, tokens.agent, {
      profile: PROFILE,
      type: type?.id ?? 1,
      page: PNG,
    });
    const { callId } = await talkingCall(t.app, ids.agent, PROFILE);
    const shot = await takeScreenshot(t.app, tokens.agent, callId, 'face_screenshot');
    await uploadRecording(t.app, tokens.agent, callId, RECORDING);
    const before = (await readsOf(PROFILE)).length;

    // The agent opens the profile, looks at the document's page, plays the recording and seeks in it.
    expect((await get(t.app, `/api/v2/profile/${PROFILE}`, tokens.agent)).status).toBe(200);
    const docs = await get<{ id: number; pages: { url: string }[] }[]>(
      t.app,
      `/api/v2/profile/${PROFILE}/documents`,
      tokens.agent,
    );
    const pageUrl = docs.body.find((doc) => doc.id === documentId)?.pages[0]?.url as string;
    expect(pageUrl).toContain(`reader=${ids.agent}`);
    expect((await fetchAddress(pageUrl)).statusCode).toBe(200);
    const call = await get<{ recorded_file: string }>(t.app, `/api/v2/videocall/${callId}`, tokens.agent);
    expect((await fetchAddress(call.body.recorded_file, 'bytes=0-')).statusCode).toBe(206);
    expect((await fetchAddress(call.body.recorded_file, 'bytes=2048-')).statusCode).toBe(206);
    const image = await t.app.inject({
      method: 'GET',
      url: `/api/v2/videocall/${callId}/screenshots/${shot}`,
      headers: bearer(tokens.agent),
    });
    expect(image.statusCode).toBe(200);
    // The Admin downloads the evidence package and a PDF report drawn by the studio.
    const evidence = await t.app.inject({
      method: 'GET',
      url: `/api/v2/videocall/${callId}/evidence`,
      headers: bearer(tokens.admin),
    });
    expect(evidence.statusCode).toBe(200);
    const report = await t.app.inject({
      method: 'POST',
      url: `/api/v2/profile/${PROFILE}/access_log`,
      headers: bearer(tokens.admin),
      payload: { format: 'pdf', report: 'expanded' },
    });
    expect(report.statusCode).toBe(204);

    const all = await readsOf(PROFILE);
    const reads = all.slice(0, all.length - before).reverse();
    const seen = reads.map((read) => [read.kind, read.actor, read.object_type, read.object_id]);
    expect(seen).toEqual([
      ['profile_viewed', ids.agent, 'profile', String(PROFILE)],
      ['document_page_viewed', ids.agent, 'document', String(documentId)],
      ['recording_played', ids.agent, 'videocall', String(callId)],
      ['screenshot_viewed', ids.agent, 'videocall', String(callId)],
      ['evidence_downloaded', ids.admin, 'videocall', String(callId)],
      ['report_exported', ids.admin, 'profile', String(PROFILE)],
    ]);
    for (const read of reads) {
      expect(read.profile_id).toBe(PROFILE);
      expect(read.actor_email).toMatch(/@acme\.test$/);
      expect(Date.now() - Date.parse(read.created_at)).toBeLessThan(DAY_MS);
    }
    expect(reads[1]?.detail).toEqual({ page: 1 });
    expect(reads[5]?.detail).toEqual({ format: 'pdf', report: 'expanded' });
  });

  it('does not take a reader from an address made for someone else', async () => {
    const docs = await get<{ pages: { url: string }[] }[]>(
      t.app,
      `/api/v2/profile/${PROFILE}/documents`,
      tokens.agent,
    );
    const url = docs.body[0]?.pages[0]?.url as string;
    const before = (await readsOf(PROFILE)).length;
    // The same address claiming the Admin as its reader: the file is served (its own signature holds) but
    // nobody is named who did not read it.
    const forged = url.replace(`reader=${ids.agent}`, `reader=${ids.admin}`);
    expect((await fetchAddress(forged)).statusCode).toBe(200);
    expect((await readsOf(PROFILE)).length).toBe(before);
  });

  it('is for Admins only', async () => {
    expect((await get(t.app, `/api/v2/profile/${PROFILE}/access_log`, tokens.agent)).status).toBe(403);
    expect((await get(t.app, '/api/v2/access_log', tokens.agent)).status).toBe(403);
    const all = await get<AccessPage>(t.app, `/api/v2/access_log?user=${ids.agent}&limit=2`, tokens.admin);
    expect(all.status).toBe(200);
    expect(all.body.results.every((read) => read.actor === ids.agent)).toBe(true);
    expect(all.body.next_before).not.toBeNull();
  });

  it('is refused an UPDATE, and a row changed or removed behind the trigger is found by the verification', async () => {
    const db = t.app.ctx.db;
    await t.app.accessLog.flush();
    expect(await verifyAccessLog(db)).toMatchObject({ ok: true, broken: null });
    const lines: string[] = [];
    expect(await runAccessLogVerify(db, (line) => lines.push(line))).toBe(0);
    expect(lines[0]).toMatch(/^OK: \d+ rows/);

    await expect(db.execute(sql`update access_log set actor_id = ${ids.admin}`)).rejects.toThrow();
    await expect(db.execute(sql`delete from access_log`)).rejects.toThrow();

    // Someone with the owner's rights goes around the trigger and puts the blame on the Admin.
    const [victim] = await db
      .select({ seq: accessLog.seq })
      .from(accessLog)
      .where(eq(accessLog.actorId, ids.agent))
      .orderBy(accessLog.seq)
      .limit(1);
    const seq = victim?.seq as number;
    await db.execute(sql`alter table access_log disable trigger access_log_append_only`);
    await db.execute(sql`update access_log set actor_id = ${ids.admin} where seq = ${seq}`);
    expect(await verifyAccessLog(db)).toMatchObject({
      ok: false,
      broken: { seq, reason: 'its content does not match its hash' },
    });
    expect(await runAccessLogVerify(db, () => undefined)).toBe(1);
    // Putting it back is not enough to hide a removal.
    await db.execute(sql`update access_log set actor_id = ${ids.agent} where seq = ${seq}`);
    expect((await verifyAccessLog(db)).ok).toBe(true);
    await db.execute(sql`delete from access_log where seq = ${seq + 1}`);
    await db.execute(sql`alter table access_log enable trigger access_log_append_only`);
    expect((await verifyAccessLog(db)).broken).toEqual({
      seq: seq + 2,
      reason: `rows ${seq + 1} to ${seq + 1} are missing`,
    });
  });

  it('prunes reads past the retention from the start of the chain, which then verifies from its anchor', async () => {
    const db = t.app.ctx.db;
    // A fresh chain for this test: the one above was broken on purpose.
    await db.execute(sql`alter table access_log disable trigger access_log_append_only`);
    await db.execute(sql`delete from access_log`);
    await db.execute(sql`alter table access_log enable trigger access_log_append_only`);
    await db.execute(sql`delete from access_log_anchor`);
    for (let i = 0; i < 3; i += 1) await get(t.app, `/api/v2/profile/${PROFILE}`, tokens.agent);
    await t.app.accessLog.flush();
    // Three reads: one row, or more where they crossed a second.
    const rows = await db.select({ count: accessLog.count }).from(accessLog);
    expect(rows.reduce((sum, row) => sum + row.count, 0)).toBe(3);
    expect((await verifyAccessLog(db)).rows).toBe(rows.length);

    expect(await pruneAccessLog(db, 30, new Date(Date.now() + 31 * DAY_MS))).toBe(rows.length);
    await get(t.app, `/api/v2/profile/${PROFILE}`, tokens.agent);
    await t.app.accessLog.flush();
    const check = await verifyAccessLog(db);
    expect(check).toMatchObject({ ok: true, rows: 1, from: rows.length + 1 });
    // Nothing else may delete from the log.
    await expect(db.execute(sql`delete from access_log where seq = ${rows.length + 1}`)).rejects.toThrow();
  });

  it('keeps identical reads within one second as one entry with their count, and tells the rest apart', async () => {
    const errors: unknown[] = [];
    const logger = createAccessLogger(t.app.ctx.db, { flushMs: 0, onError: (error) => errors.push(error) });
    const profile = (detail?: Record<string, number>) => ({
      kind: 'profile_viewed' as const,
      actorId: ids.agent,
      ip: '10.0.0.7',
      ...(detail ? { detail } : {}),
      target: { companyId: 1, profileId: PROFILE, objectType: 'profile', objectId: PROFILE },
    });
    const second = Date.UTC(2026, 11, 6, 10, 0, 0);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(second + 100);
      for (let i = 0; i < 3; i += 1) logger.add(profile());
      logger.add({ ...profile(), ip: '10.0.0.8' });
      logger.add({ ...profile(), actorId: ids.admin });
      logger.add(profile({ page: 2 }));
      vi.setSystemTime(second + 999);
      logger.add(profile());
      logger.add(profile({ page: 2 }));
      vi.setSystemTime(second + 1_000);
      logger.add(profile());
    } finally {
      vi.useRealTimers();
    }
    await logger.stop();
    expect(errors).toEqual([]);

    const written = await t.app.ctx.db
      .select()
      .from(accessLog)
      .where(sql`${accessLog.createdAt} >= ${new Date(second).toISOString()}::timestamptz
        and ${accessLog.createdAt} < ${new Date(second + 2_000).toISOString()}::timestamptz`)
      .orderBy(accessLog.seq);
    expect(
      written.map((row) => [row.createdAt.getTime() - second, row.actorId, row.ip, row.detail, row.count]),
    ).toEqual([
      [100, ids.agent, '10.0.0.7', {}, 4],
      [100, ids.agent, '10.0.0.8', {}, 1],
      [100, ids.admin, '10.0.0.7', {}, 1],
      [100, ids.agent, '10.0.0.7', { page: 2 }, 2],
      [1_000, ids.agent, '10.0.0.7', {}, 1],
    ]);
    // The count is part of what the chain protects.
    expect((await verifyAccessLog(t.app.ctx.db)).ok).toBe(true);
    const [counted] = written;
    await t.app.ctx.db.execute(sql`alter table access_log disable trigger access_log_append_only`);
    try {
      await t.app.ctx.db.execute(sql`update access_log set count = 1 where seq = ${counted?.seq as number}`);
      expect((await verifyAccessLog(t.app.ctx.db)).broken).toEqual({
        seq: counted?.seq,
        reason: 'its content does not match its hash',
      });
    } finally {
      await t.app.ctx.db.execute(sql`update access_log set count = 4 where seq = ${counted?.seq as number}`);
      await t.app.ctx.db.execute(sql`alter table access_log enable trigger access_log_append_only`);
    }
  });

  it('leaves reads noted while a flush writes to the next flush, counted as one entry', async () => {
    const errors: unknown[] = [];
    // The database as the logger sees it: a write's transaction waits until the test lets it go on.
    let entered!: () => void;
    const writing = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let goOn!: () => void;
    const gate = new Promise<void>((resolve) => {
      goOn = resolve;
    });
    const db = t.app.ctx.db;
    const held = new Proxy(db, {
      get(target, property, receiver) {
        if (property !== 'transaction') return Reflect.get(target, property, receiver);
        return async (...args: Parameters<typeof db.transaction>) => {
          entered();
          await gate;
          return target.transaction(...args);
        };
      },
    });
    const logger = createAccessLogger(held, { flushMs: 0, onError: (error) => errors.push(error) });
    const read = {
      kind: 'profile_viewed' as const,
      actorId: ids.agent,
      ip: '10.0.0.9',
      target: { companyId: 1, profileId: PROFILE, objectType: 'profile', objectId: PROFILE },
    };
    const second = Date.UTC(2026, 11, 6, 11, 0, 0);
    const rowsOfTheSecond = () =>
      t.app.ctx.db
        .select({ count: accessLog.count })
        .from(accessLog)
        .where(sql`${accessLog.ip} = '10.0.0.9' and ${accessLog.createdAt} >= ${new Date(second).toISOString()}::timestamptz
          and ${accessLog.createdAt} < ${new Date(second + 1_000).toISOString()}::timestamptz`)
        .orderBy(accessLog.seq);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(second + 100);
      logger.add(read);
      const flushed = logger.flush();
      await writing;
      // The same reader reads on while the first entry is being written: the buffer holds a new entry.
      for (let i = 0; i < 5; i += 1) logger.add(read);
      goOn();
      await flushed;
      expect((await rowsOfTheSecond()).map((row) => row.count)).toEqual([1]);
      await logger.flush();
    } finally {
      vi.useRealTimers();
    }
    expect((await rowsOfTheSecond()).map((row) => row.count)).toEqual([1, 5]);
    await logger.stop();
    expect(errors).toEqual([]);
  });

  it('hashes a single read as rows written before reads were counted', () => {
    const row = {
      seq: 7,
      createdAt: new Date('2026-12-06T10:00:00.250Z'),
      companyId: 1,
      profileId: 4,
      actorId: 2,
      actorEmail: 'agent@acme.test',
      ip: '127.0.0.1',
      kind: 'document_page_viewed',
      objectType: 'document',
      objectId: '12',
      detail: { page: 1 },
    };
    // The hash of this row as the chain computed it before the count existed.
    expect(chainHash(GENESIS_HASH, { ...row, count: 1 })).toBe(
      'd046ebd2d276c6a328274d74eb68c4bd4163d1e4b2a6d9c581a54241f6de60c8',
    );
    expect(chainHash(GENESIS_HASH, { ...row, count: 3 })).not.toBe(
      'd046ebd2d276c6a328274d74eb68c4bd4163d1e4b2a6d9c581a54241f6de60c8',
    );
  });
});
