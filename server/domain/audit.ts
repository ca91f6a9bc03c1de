/**
 * The audit log: one function, `recordAudit`, that every staff write path calls inside its own
 * transaction, so an entry exists exactly when the change does. Who and from where come from the request
 * (an AsyncLocalStorage set by `installAuditContext`); the write path says what changed.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { and, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AuditEntry, AuditListQuery } from '#contract/audit';
import type { AuditAction } from '#contract/logEvents';
import type { DbOrTx } from '../db/client';
import { jsonRows } from '../db/rows';
import { auditLog } from '../db/schema';
import { countList, DEFAULT_COUNT_CAP, type ListCount } from './counting';
import { type KeysetLinks, type KeysetOrdering, keyTextOf, readKeysetPage } from './keyset';

/** The request a write runs in: its caller and client address. */
interface AuditRequestContext {
  actorId: number | null;
  actorEmail: string | null;
  ip: string | null;
}

const requestContext = new AsyncLocalStorage<AuditRequestContext>();

/** The caller and client address of the request running now (undefined outside a route handler). */
export const currentRequest = (): Readonly<AuditRequestContext> | undefined => requestContext.getStore();

/**
 * Runs every route handler inside a context that knows the caller and the client address. A `preHandler`
 * (after the body is read, whose stream events would lose the context) with a callback, so the handler
 * and everything it awaits run inside `run`.
 */
export function installAuditContext(app: FastifyInstance): void {
  app.addHook('preHandler', (request, _reply, done) => {
    const principal = request.principal;
    requestContext.run(
      { actorId: principal?.id ?? null, actorEmail: principal?.email ?? null, ip: request.ip ?? null },
      done,
    );
  });
}

/** Field names whose values never enter the log (passwords, secrets, tokens, codes). */
const SECRET_FIELD = /(password|passwordhash|secret|token|otp|codehash|signaturekey)$/;
const isSecret = (key: string) => SECRET_FIELD.test(key.toLowerCase().replace(/_/g, ''));

function redact(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    out[key] = isSecret(key) ? '[redacted]' : value instanceof Date ? value.toISOString() : value;
  }
  return out;
}

export interface AuditRecord {
  companyId: number;
  /** The staff user who made the change (null: the system, e.g. a customer's own call). */
  actorId: number | null;
  /** `user`, `group`, `profile`, `document`, `aml`, `videocall`, `webhook`, … */
  object: string;
  objectId: number | string;
  /** What happened: a code of the catalogue (AUDIT_ACTIONS in contract/logEvents.ts). */
  action: AuditAction;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

/** The one audit function: records a staff write in the caller's transaction (secrets never stored). */
export async function recordAudit(db: DbOrTx, entry: AuditRecord): Promise<void> {
  await recordAudits(db, [entry]);
}

/** Many staff writes of one request at once (a batch of cases auto-assigned): one statement. */
export async function recordAudits(db: DbOrTx, entries: AuditRecord[]): Promise<void> {
  if (entries.length === 0) return;
  await db.execute(auditInsert(entries));
}

/**
 * The audit log's one INSERT, for a write path that sends it inside a statement of its own (a data-modifying
 * CTE): the entries are written only when `when` holds (e.g. the change they record happened).
 */
export function auditInsert(entries: AuditRecord[], when: SQL = sql`true`): SQL {
  const request = requestContext.getStore();
  const rows = entries.map((entry) => ({
    company_id: entry.companyId,
    actor_id: entry.actorId,
    actor_email: entry.actorId !== null && request?.actorId === entry.actorId ? request.actorEmail : null,
    ip: request?.ip ?? null,
    object_type: entry.object,
    object_id: String(entry.objectId),
    action: entry.action,
    before: redact(entry.before ?? {}),
    after: redact(entry.after ?? {}),
  }));
  return sql`
    insert into audit_log (company_id, actor_id, actor_email, ip, object_type, object_id, action, before, after)
    select company_id, actor_id, actor_email, ip, object_type, object_id, action, before, after
      from ${jsonRows(
        rows,
        'company_id int, actor_id int, actor_email text, ip text, object_type text, object_id text, action text, before jsonb, after jsonb',
      )}
     where ${when}`;
}

/**
 * The fields that differ between two versions of an object, as `{ before, after }` (a field given in
 * `after` and equal in `before` is left out). Handy for the write paths' one audit line.
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after)) {
    if (value === undefined) continue;
    if (JSON.stringify(before[key] ?? null) === JSON.stringify(value ?? null)) continue;
    was[key] = before[key] ?? null;
    now[key] = value;
  }
  return { before: was, after: now };
}

function filters(companyId: number, query: Omit<AuditListQuery, 'limit' | 'offset'>): SQL | undefined {
  const where: SQL[] = [eq(auditLog.companyId, companyId)];
  if (query.user !== undefined) where.push(eq(auditLog.actorId, query.user));
  if (query.object_type) where.push(eq(auditLog.objectType, query.object_type));
  if (query.object_id) where.push(eq(auditLog.objectId, query.object_id));
  if (query.action) where.push(eq(auditLog.action, query.action));
  if (query.start_date) where.push(gte(auditLog.createdAt, new Date(`${query.start_date}T00:00:00Z`)));
  if (query.end_date) {
    const end = new Date(`${query.end_date}T00:00:00Z`);
    end.setUTCDate(end.getUTCDate() + 1);
    where.push(lt(auditLog.createdAt, end));
  }
  return and(...where);
}

/** An audit row as the API answers it (the log, its CSV, a person's export). */
export function toEntry(row: typeof auditLog.$inferSelect): AuditEntry {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    actor: row.actorId,
    actor_email: row.actorEmail,
    ip: row.ip,
    object_type: row.objectType,
    object_id: row.objectId,
    action: row.action,
    before: row.before,
    after: row.after,
  };
}

/** The log's one ordering, newest first, by keyset (docs/decisions/0164-keyset-lists.md). */
const AUDIT_ORDERING: KeysetOrdering = {
  name: '-created_at',
  key: { expr: auditLog.createdAt, kind: 'timestamp' },
  id: auditLog.id,
  descending: true,
};

/** A page of the company's audit log, newest first. */
export async function listAudit(
  db: DbOrTx,
  companyId: number,
  query: AuditListQuery,
  countCap = DEFAULT_COUNT_CAP,
): Promise<ListCount & { links: KeysetLinks; results: AuditEntry[] }> {
  const where = filters(companyId, query);
  const [total, page] = await Promise.all([
    countList(db, db.select({ one: sql`1` }).from(auditLog).where(where), countCap),
    readKeysetPage(
      AUDIT_ORDERING,
      query,
      (place, orderBy, limit) =>
        db
          .select({ entry: auditLog, position: keyTextOf(AUDIT_ORDERING) })
          .from(auditLog)
          .where(place ? and(where, place) : where)
          .orderBy(...orderBy)
          .limit(limit),
      (row) => ({ key: row.position, id: row.entry.id }),
      { db, where },
    ),
  ]);
  return { ...total, links: page.links, results: page.rows.map((row) => toEntry(row.entry)) };
}

/** Every matching entry, newest first, at most `max` (the CSV export). */
export async function allAudit(
  db: DbOrTx,
  companyId: number,
  query: Omit<AuditListQuery, 'limit' | 'offset'>,
  max = 50_000,
): Promise<AuditEntry[]> {
  const rows = await db
    .select()
    .from(auditLog)
    .where(filters(companyId, query))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(max);
  return rows.map(toEntry);
}
