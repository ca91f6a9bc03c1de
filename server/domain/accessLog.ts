/**
 * The access log: who read which person's data, and when. A read costs the request one lookup in an in-memory
 * buffer: a read identical to one already buffered in the same second (same reader, address, kind, object and
 * detail) adds to that entry's count instead of making a row, so a reader's client asking again and again costs
 * the database nothing more while who, what and when stay exact to the second. A flush every second (or every
 * `batchSize` entries) writes the buffer as one statement. Each row carries
 * the SHA-256 of itself and of the row before it, so `verifyAccessLog` (npm run access-log:verify) finds any row
 * changed, removed or slipped in later. Why a chain and not a database role: docs/decisions/0213-access-log-hash-chain.md.
 */
import { createHash } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { AccessEntry, AccessKind, AccessListQuery, AccessPage } from '#contract/privacy';
import type { DbOrTx, Tx } from '../db/client';
import { jsonRows } from '../db/rows';
import {
  accessLog,
  accessLogAnchor,
  documentPages,
  documents,
  users,
  videoCallScreenshots,
  videoCalls,
} from '../db/schema';

/** One read, as the request saw it. The person and the company may be found at flush time (`target`). */
export interface AccessRead {
  kind: AccessKind;
  actorId: number | null;
  ip: string | null;
  /** Small facts of the read (a page number, a package id), never the person's data itself. */
  detail?: Record<string, string | number | boolean | null>;
  target:
    | { companyId: number; profileId: number | null; objectType: string; objectId: number | string }
    /** A call of the company: its profile is looked up when the batch is written. */
    | { callId: number }
    /** A stored file read through its signed address: what it is of is looked up when the batch is written. */
    | { storageKey: string };
}

export interface Pending extends AccessRead {
  at: Date;
  /** Identical reads within `at`'s second that this entry stands for. */
  count: number;
}

/** The hash a chain starts from. */
export const GENESIS_HASH = '0'.repeat(64);

/** pg_advisory_xact_lock key serialising writers of the chain (every process appends to the one chain). */
const CHAIN_LOCK = 2_130_213;

/** The fields a row's hash covers, in a fixed order. */
export interface ChainRow {
  seq: number;
  createdAt: Date;
  companyId: number;
  profileId: number | null;
  actorId: number | null;
  actorEmail: string | null;
  ip: string | null;
  kind: string;
  objectType: string;
  objectId: string;
  detail: Record<string, unknown>;
  count: number;
}

/** JSON with object keys sorted, so jsonb's reordering never changes a hash. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value ?? null);
}

/**
 * SHA-256 (hex) of the previous row's hash and this row's fields. The count is covered when it is more than one, so
 * rows written before reads were counted keep their hashes.
 */
export function chainHash(prevHash: string, row: ChainRow): string {
  const fields: unknown[] = [
    row.seq,
    row.createdAt.toISOString(),
    row.companyId,
    row.profileId,
    row.actorId,
    row.actorEmail,
    row.ip,
    row.kind,
    row.objectType,
    row.objectId,
    row.detail,
  ];
  if (row.count !== 1) fields.push(row.count);
  return createHash('sha256').update(prevHash).update('\n').update(canonical(fields)).digest('hex');
}

/** Where the next row joins the chain: the last row, else the pruning anchor, else the start. */
async function chainHead(tx: DbOrTx): Promise<{ seq: number; hash: string }> {
  const [last] = await tx
    .select({ seq: accessLog.seq, hash: accessLog.hash })
    .from(accessLog)
    .orderBy(desc(accessLog.seq))
    .limit(1);
  if (last) return last;
  const [anchor] = await tx.select().from(accessLogAnchor).where(eq(accessLogAnchor.id, 1));
  return anchor ? { seq: anchor.seq, hash: anchor.hash } : { seq: 0, hash: GENESIS_HASH };
}

type Resolved = { companyId: number; profileId: number | null; objectType: string; objectId: string };

/** The company, person and object of each read; a stored file that is no one's evidence (a staff photo) is dropped. */
async function resolveTargets(db: DbOrTx, reads: Pending[]): Promise<(Resolved | null)[]> {
  const callIds = reads.flatMap((read) => ('callId' in read.target ? [read.target.callId] : []));
  const keys = reads.flatMap((read) => ('storageKey' in read.target ? [read.target.storageKey] : []));
  const calls = new Map<number, { companyId: number; profileId: number }>();
  const files = new Map<string, Resolved & { page?: number }>();
  if (callIds.length > 0)
    for (const row of await db
      .select({ id: videoCalls.id, companyId: videoCalls.companyId, profileId: videoCalls.profileId })
      .from(videoCalls)
      .where(inArray(videoCalls.id, [...new Set(callIds)])))
      calls.set(row.id, row);
  const recordingKeys = keys.filter((key) => key.startsWith('recordings/'));
  const pageKeys = keys.filter((key) => key.startsWith('documents/'));
  const shotKeys = keys.filter((key) => key.startsWith('screenshots/'));
  if (recordingKeys.length > 0)
    for (const row of await db
      .select({
        key: videoCalls.recordingKey,
        id: videoCalls.id,
        companyId: videoCalls.companyId,
        profileId: videoCalls.profileId,
      })
      .from(videoCalls)
      .where(inArray(videoCalls.recordingKey, recordingKeys)))
      files.set(row.key as string, { ...row, objectType: 'videocall', objectId: String(row.id) });
  if (pageKeys.length > 0)
    for (const row of await db
      .select({
        key: documentPages.storageKey,
        page: documentPages.pageNumber,
        id: documents.id,
        companyId: documents.companyId,
        profileId: documents.profileId,
      })
      .from(documentPages)
      .innerJoin(documents, eq(documents.id, documentPages.documentId))
      .where(inArray(documentPages.storageKey, pageKeys)))
      files.set(row.key, { ...row, objectType: 'document', objectId: String(row.id) });
  if (shotKeys.length > 0)
    for (const row of await db
      .select({
        key: videoCallScreenshots.storageKey,
        id: videoCalls.id,
        companyId: videoCalls.companyId,
        profileId: videoCalls.profileId,
      })
      .from(videoCallScreenshots)
      .innerJoin(videoCalls, eq(videoCalls.id, videoCallScreenshots.callId))
      .where(inArray(videoCallScreenshots.storageKey, shotKeys)))
      files.set(row.key as string, { ...row, objectType: 'videocall', objectId: String(row.id) });
  return reads.map((read) => {
    const { target } = read;
    if ('callId' in target) {
      const call = calls.get(target.callId);
      return call ? { ...call, objectType: 'videocall', objectId: String(target.callId) } : null;
    }
    if ('storageKey' in target) {
      const file = files.get(target.storageKey);
      if (!file) return null;
      if (file.page !== undefined) read.detail = { ...read.detail, page: file.page };
      const { page: _page, ...resolved } = file;
      return resolved;
    }
    return { ...target, objectId: String(target.objectId) };
  });
}

/**
 * Appends `reads` to the chain in one transaction: the chain lock (one writer at a time, across processes), the
 * head, then one insert of every row with its hash. Answers how many rows were written.
 */
export async function appendReads(db: DbOrTx, reads: Pending[]): Promise<number> {
  if (reads.length === 0) return 0;
  const targets = await resolveTargets(db, reads);
  const actorIds = [...new Set(reads.flatMap((read) => (read.actorId === null ? [] : [read.actorId])))];
  const emails = new Map(
    actorIds.length === 0
      ? []
      : (
          await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, actorIds))
        ).map((row) => [row.id, row.email]),
  );
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CHAIN_LOCK})`);
    let head = await chainHead(tx);
    const rows: Record<string, unknown>[] = [];
    reads.forEach((read, index) => {
      const target = targets[index];
      if (!target) return;
      const row: ChainRow = {
        seq: head.seq + 1,
        createdAt: read.at,
        companyId: target.companyId,
        profileId: target.profileId,
        actorId: read.actorId,
        actorEmail: read.actorId === null ? null : (emails.get(read.actorId) ?? null),
        ip: read.ip,
        kind: read.kind,
        objectType: target.objectType,
        objectId: target.objectId,
        detail: read.detail ?? {},
        count: read.count,
      };
      const hash = chainHash(head.hash, row);
      rows.push({
        seq: row.seq,
        created_at: row.createdAt.toISOString(),
        company_id: row.companyId,
        profile_id: row.profileId,
        actor_id: row.actorId,
        actor_email: row.actorEmail,
        ip: row.ip,
        kind: row.kind,
        object_type: row.objectType,
        object_id: row.objectId,
        detail: row.detail,
        count: row.count,
        prev_hash: head.hash,
        hash,
      });
      head = { seq: row.seq, hash };
    });
    if (rows.length === 0) return 0;
    await tx.execute(sql`
      insert into access_log (seq, created_at, company_id, profile_id, actor_id, actor_email, ip, kind, object_type,
        object_id, detail, count, prev_hash, hash)
      select seq, created_at, company_id, profile_id, actor_id, actor_email, ip, kind, object_type, object_id,
        detail, count, prev_hash, hash
        from ${jsonRows(
          rows,
          'seq bigint, created_at timestamptz, company_id int, profile_id int, actor_id int, actor_email text, ip text, kind text, object_type text, object_id text, detail jsonb, count int, prev_hash text, hash text',
        )}`);
    return rows.length;
  });
}

/**
 * What makes two reads the same read for the count: the second they fall in, the reader, the address, the kind,
 * what was read and the detail (a page number, a format).
 */
function sameReadKey(read: AccessRead, at: Date): string {
  const { target } = read;
  const what =
    'callId' in target
      ? `call:${target.callId}`
      : 'storageKey' in target
        ? `file:${target.storageKey}`
        : `${target.companyId}:${target.profileId}:${target.objectType}:${target.objectId}`;
  return [
    Math.floor(at.getTime() / 1000),
    read.kind,
    read.actorId,
    read.ip,
    what,
    read.detail ? canonical(read.detail) : '',
  ].join('|');
}

export interface AccessLogger {
  /** Notes a read; written within `flushMs` (or at once when the buffer holds `batchSize` entries). Never throws. */
  add(read: AccessRead): void;
  /** Writes everything noted so far (tests, and the server's close). */
  flush(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

/**
 * The buffer of one process. A failed write keeps its reads for the next flush; past `maxBuffered` the oldest are
 * dropped and reported, so a database outage cannot take the process's memory with it.
 */
export function createAccessLogger(
  db: DbOrTx,
  options: { flushMs: number; batchSize?: number; maxBuffered?: number; onError: (error: unknown) => void },
): AccessLogger {
  const batchSize = options.batchSize ?? 500;
  const maxBuffered = options.maxBuffered ?? 100_000;
  let buffer: Pending[] = [];
  /** The buffered entries a read may still be counted into; an entry leaves it when its batch is taken. */
  const counting = new Map<string, Pending>();
  const keys = new WeakMap<Pending, string>();
  let running: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const stopCounting = (entries: Pending[]) => {
    for (const entry of entries) {
      const key = keys.get(entry);
      if (key !== undefined && counting.get(key) === entry) counting.delete(key);
    }
  };

  /**
   * Writes what was noted when the flush began. Reads noted while it writes wait for the next flush: a process
   * read without pause would otherwise write again as soon as each write ended, a row for every write instead of
   * one for every flush interval.
   */
  const writeAll = async () => {
    let left = buffer.length;
    while (left > 0 && buffer.length > 0) {
      const batch = buffer.splice(0, Math.min(batchSize, left));
      left -= batch.length;
      stopCounting(batch);
      try {
        await appendReads(db, batch);
      } catch (error) {
        buffer = [...batch, ...buffer];
        if (buffer.length > maxBuffered) {
          const dropped = buffer.length - maxBuffered;
          const lost = buffer.slice(0, dropped);
          stopCounting(lost);
          buffer = buffer.slice(dropped);
          const reads = lost.reduce((sum, entry) => sum + entry.count, 0);
          options.onError(new Error(`access log: ${reads} reads dropped, the database is not taking them`));
        }
        throw error;
      }
    }
  };
  const flush = (): Promise<void> => {
    running ??= writeAll().finally(() => {
      running = undefined;
    });
    return running;
  };
  return {
    add(read) {
      const at = new Date();
      const key = sameReadKey(read, at);
      const same = counting.get(key);
      if (same) {
        same.count += 1;
        return;
      }
      const entry: Pending = { ...read, at, count: 1 };
      buffer.push(entry);
      counting.set(key, entry);
      keys.set(entry, key);
      if (buffer.length >= batchSize && !running) flush().catch(options.onError);
    },
    async flush() {
      // A flush already running may have taken its batch before the latest reads arrived: run again after it.
      await running?.catch(() => undefined);
      await flush();
    },
    start() {
      if (timer || options.flushMs <= 0) return;
      timer = setInterval(() => {
        if (buffer.length > 0 && !running) flush().catch(options.onError);
      }, options.flushMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running?.catch(() => undefined);
      await flush().catch(options.onError);
    },
  };
}

function toEntry(row: typeof accessLog.$inferSelect): AccessEntry {
  return {
    seq: row.seq,
    created_at: row.createdAt.toISOString(),
    profile_id: row.profileId,
    actor: row.actorId,
    actor_email: row.actorEmail,
    ip: row.ip,
    kind: row.kind as AccessKind,
    object_type: row.objectType,
    object_id: row.objectId,
    detail: row.detail,
    count: row.count,
  };
}

/** A page of the company's reads, newest first, by sequence number. */
export async function listAccess(db: DbOrTx, companyId: number, query: AccessListQuery): Promise<AccessPage> {
  const where: SQL[] = [eq(accessLog.companyId, companyId)];
  if (query.profile !== undefined) where.push(eq(accessLog.profileId, query.profile));
  if (query.user !== undefined) where.push(eq(accessLog.actorId, query.user));
  if (query.kind) where.push(eq(accessLog.kind, query.kind));
  if (query.before !== undefined) where.push(lt(accessLog.seq, query.before));
  const rows = await db
    .select()
    .from(accessLog)
    .where(and(...where))
    .orderBy(desc(accessLog.seq))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  return {
    results: page.map(toEntry),
    next_before: rows.length > query.limit ? (page.at(-1)?.seq ?? null) : null,
  };
}

/** Every read of one person, oldest first (the export). */
export async function accessOfProfile(
  db: DbOrTx,
  companyId: number,
  profileId: number,
): Promise<AccessEntry[]> {
  const rows = await db
    .select()
    .from(accessLog)
    .where(and(eq(accessLog.companyId, companyId), eq(accessLog.profileId, profileId)))
    .orderBy(asc(accessLog.seq));
  return rows.map(toEntry);
}

export interface ChainCheck {
  ok: boolean;
  /** Rows checked. */
  rows: number;
  /** The first row after the anchor (null: none). */
  from: number | null;
  /** The last row and its hash: keep it somewhere else to notice rows cut off the end later. */
  head: { seq: number; hash: string };
  /** The first break found. */
  broken: { seq: number; reason: string } | null;
}

/**
 * Walks the whole chain from its anchor: sequence numbers without a gap, each `prev_hash` the hash before it, each
 * `hash` recomputed from the row. Reads `batch` rows at a time, so a long log never sits in memory.
 */
export async function verifyAccessLog(db: DbOrTx, batch = 5_000): Promise<ChainCheck> {
  const [anchor] = await db.select().from(accessLogAnchor).where(eq(accessLogAnchor.id, 1));
  let expected = anchor ? { seq: anchor.seq, hash: anchor.hash } : { seq: 0, hash: GENESIS_HASH };
  let rows = 0;
  let from: number | null = null;
  for (;;) {
    const page = await db
      .select()
      .from(accessLog)
      .where(gt(accessLog.seq, rows === 0 ? 0 : expected.seq))
      .orderBy(asc(accessLog.seq))
      .limit(batch);
    for (const row of page) {
      from ??= row.seq;
      const fail = (reason: string): ChainCheck => ({
        ok: false,
        rows,
        from,
        head: expected,
        broken: { seq: row.seq, reason },
      });
      if (row.seq !== expected.seq + 1)
        return fail(
          row.seq > expected.seq + 1
            ? `rows ${expected.seq + 1} to ${row.seq - 1} are missing`
            : `row ${row.seq} is out of order`,
        );
      if (row.prevHash !== expected.hash) return fail('its prev_hash is not the hash of the row before it');
      if (chainHash(row.prevHash, row) !== row.hash) return fail('its content does not match its hash');
      rows += 1;
      expected = { seq: row.seq, hash: row.hash };
    }
    if (page.length < batch) return { ok: true, rows, from, head: expected, broken: null };
  }
}

/**
 * Removes the reads older than `retentionDays` (a prefix of the chain: every row up to the last one older than
 * that) and moves the anchor to the last removed row, so the chain still verifies from there. The trigger lets
 * only this transaction delete (it sets `idv.access_log_prune`). Answers how many rows went.
 */
export async function pruneAccessLog(db: DbOrTx, retentionDays: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  return db.transaction(async (tx: Tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CHAIN_LOCK})`);
    const [last] = await tx
      .select({ seq: accessLog.seq, hash: accessLog.hash })
      .from(accessLog)
      .where(lt(accessLog.createdAt, cutoff))
      .orderBy(desc(accessLog.seq))
      .limit(1);
    if (!last) return 0;
    await tx.execute(sql`set local idv.access_log_prune = 'on'`);
    const removed = await tx
      .delete(accessLog)
      .where(sql`${accessLog.seq} <= ${last.seq}`)
      .returning({ seq: accessLog.seq });
    await tx
      .insert(accessLogAnchor)
      .values({ id: 1, seq: last.seq, hash: last.hash, prunedAt: now })
      .onConflictDoUpdate({
        target: accessLogAnchor.id,
        set: { seq: last.seq, hash: last.hash, prunedAt: now },
      });
    return removed.length;
  });
}
