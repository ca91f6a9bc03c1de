import {
  and,
  count,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  lt,
  max,
  or,
  type Placeholder,
  type SQL,
  sql,
} from 'drizzle-orm';
import { DAY_MS } from '#contract/time';
import {
  isWebhookUrl,
  WEBHOOK_EVENTS,
  WEBHOOK_URL_MESSAGE,
  type WebhookEndpoint,
  type WebhookEventType,
  type WebhookLog,
} from '#contract/webhooks';
import type { SecretBox } from '../auth/secrets';
import type { DbOrTx } from '../db/client';
import {
  webhookDeliveries,
  webhookEndpoints,
  webhookEventToggles,
  webhookLogs,
  webhookMessages,
  webhookSettings,
} from '../db/schema';
import { badRequest, notFound } from '../errors';
import { bornClaimed, claimedOf, fanOutCtes, openTo, withCtes } from '../integrations/webhooks/fanOut';
import { claimedIn, roomIn } from '../integrations/webhooks/handoff';
import { newMessageId } from '../integrations/webhooks/signer';
import { checkTarget } from '../integrations/webhooks/ssrf';
import { countList, DEFAULT_COUNT_CAP, type ListCount } from './counting';
import { iso, likePattern } from './format';
import { type KeysetLinks, type KeysetOrdering, type KeysetPaging, readKeysetPage } from './keyset';

export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  'profile.created': 'A customer profile was created',
  'profile.updated': 'A customer profile was edited',
  'profile.status_changed': 'A customer profile changed status',
  'profile.erased': "A customer's personal data was erased (only an anonymised stub is left)",
  'document.uploaded': 'A document was uploaded',
  'document.approved': 'A document was approved',
  'document.rejected': 'A document was rejected',
  'aml.checked': 'An AML screening finished',
  'aml.approved': 'An AML result was approved',
  'videocall.created': 'A customer started a video call',
  'videocall.completed': 'A video call ended with a status',
  'videocall.recorded': "A video call's recording was stored (with its SHA-256)",
  'user.created': 'A studio user was created',
  'review.requested': "A reviewer's decision waits for a second reviewer (four-eyes)",
  'review.decided': 'A review case was decided',
};

// ---------------------------------------------------------------- enqueue (the outbox)

/** The most deliveries one enqueue claims for its own process (the rest are left to the worker's pass). */
const CLAIM_AT_ENQUEUE = 4;

/**
 * Records an event for delivery (unless the company switched the event off): one statement, so it commits or rolls
 * back with the change it reports when given that change's transaction. In a transaction whose commit the worker of
 * this process follows, the statement also fans the message out and claims its deliveries, which are sent right
 * after COMMIT (integrations/webhooks/handoff.ts); otherwise the worker fans it out, woken by the commit.
 */
export async function enqueueWebhookEvent(
  db: DbOrTx,
  companyId: number,
  type: WebhookEventType,
  data: Record<string, unknown>,
): Promise<void> {
  const event = webhookEventInsert(db, companyId, type, data);
  const result = await db.execute(
    event.claims ? sql`with ${withCtes(event.ctes)} ${event.claimed}` : (event.ctes[0]?.body ?? sql``),
  );
  event.handOver((result as unknown as { rows: Record<string, unknown>[] }).rows);
}

/** The outbox's statement for one event, as CTEs a write path can add to a statement of its own. */
export interface QueuedEvent {
  /** The CTEs: the message's insert (named `msgs`), then its fan-out when it claims. */
  ctes: { name: string; body: SQL }[];
  /** A JSON array of the claimed deliveries, to select beside the statement's own result; null: nothing claimed. */
  claims: SQL | null;
  /** The claimed deliveries as rows: the statement's result when it is the event's alone. */
  claimed: SQL;
  /** Hands what the statement claimed (its rows, or the JSON array `claims` selected) to the worker. */
  handOver(claimed: unknown): void;
}

/**
 * The outbox's statement for one event, for a write path that sends it inside a statement of its own (as
 * data-modifying CTEs): nothing is queued unless `when` holds (e.g. the change it reports happened) and the
 * company's toggle, read at the moment of the event, is on. In `tx` (see `enqueueWebhookEvent`) it may claim.
 */
export function webhookEventInsert(
  tx: DbOrTx,
  companyId: number,
  type: WebhookEventType,
  data: Record<string, unknown>,
  when: SQL = sql`true`,
): QueuedEvent {
  const body = JSON.stringify({ type, timestamp: new Date().toISOString(), data });
  const room = roomIn(tx, CLAIM_AT_ENQUEUE);
  const insert = sql`
    insert into ${webhookMessages} (msg_id, company_id, event_type, body, fanned_out)
    select ${newMessageId()}::text, ${companyId}::integer, ${type}::text, ${body}::text, ${room !== null}::boolean
    where ${when} and not exists (
      select 1 from ${webhookEventToggles}
      where company_id = ${companyId} and event = ${type} and enabled = false
    )`;
  if (!room)
    return { ctes: [{ name: 'msgs', body: insert }], claims: null, claimed: sql``, handOver: () => {} };
  const claimed = bornClaimed(room.lease);
  return {
    ctes: [
      {
        name: 'msgs',
        body: sql`${insert} returning id, company_id, event_type, endpoint_id, created_at, msg_id, body`,
      },
      ...fanOutCtes(room.lease, sql`${room.slots}::integer`, openTo(room)),
    ],
    claims: sql`(select coalesce(json_agg(c), '[]'::json) from (${claimed}) c)`,
    claimed,
    handOver(rows) {
      const list = typeof rows === 'string' ? JSON.parse(rows) : rows;
      if (Array.isArray(list)) claimedIn(tx, list.map(claimedOf));
    },
  };
}

// ---------------------------------------------------------------- reads

const knownEvents = (events: string[]) =>
  events.filter((e): e is WebhookEventType => (WEBHOOK_EVENTS as readonly string[]).includes(e));

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type LogRow = typeof webhookLogs.$inferSelect;
type Health = WebhookEndpoint['health'];

const EMPTY_HEALTH: Health = {
  last_delivery_at: null,
  last_status: null,
  success_rate_24h: null,
  attempts_24h: 0,
  pending: 0,
};

export function toEndpoint(row: EndpointRow, health: Health = EMPTY_HEALTH): WebhookEndpoint {
  const graceOn = row.previousSecretExpiresAt && row.previousSecretExpiresAt.getTime() > Date.now();
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    enabled_events: knownEvents(row.enabledEvents),
    is_active: row.isActive,
    disabled_reason: row.disabledReason,
    previous_secret_expires_at: graceOn ? iso(row.previousSecretExpiresAt) : null,
    created_at: iso(row.createdAt),
    health,
  };
}

function parseBody(text: string | null | undefined, fallback: Record<string, unknown>) {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return fallback;
  }
}

export function toWebhookLog(row: LogRow, body?: string | null): WebhookLog {
  return {
    id: row.id,
    endpoint: row.endpointId,
    event: row.event,
    message_id: row.msgId,
    url: row.url,
    payload: parseBody(body, row.payload),
    request_body: body ?? null,
    request_headers: row.requestHeaders,
    response_status: row.responseStatus,
    response_body: row.responseBody,
    error: row.error,
    success: row.success,
    attempt: row.attempt,
    duration_ms: row.durationMs,
    next_retry_at: iso(row.nextRetryAt),
    created_at: iso(row.createdAt),
  };
}

/** Health of the company's endpoints: last attempt, the last 24 h's success rate, deliveries waiting. */
export async function endpointHealth(db: DbOrTx, companyId: number): Promise<Map<number, Health>> {
  const since = new Date(Date.now() - DAY_MS);
  const [recent, last, pending] = await Promise.all([
    db
      .select({
        endpointId: webhookLogs.endpointId,
        total: count(),
        ok: sql<number>`count(*) filter (where ${webhookLogs.success})`.mapWith(Number),
      })
      .from(webhookLogs)
      .where(and(eq(webhookLogs.companyId, companyId), gte(webhookLogs.createdAt, since)))
      .groupBy(webhookLogs.endpointId),
    db
      .select({ endpointId: webhookLogs.endpointId, lastId: max(webhookLogs.id) })
      .from(webhookLogs)
      .where(eq(webhookLogs.companyId, companyId))
      .groupBy(webhookLogs.endpointId),
    db
      .select({ endpointId: webhookDeliveries.endpointId, total: count() })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.companyId, companyId), eq(webhookDeliveries.status, 'pending')))
      .groupBy(webhookDeliveries.endpointId),
  ]);
  const lastIds = last.map((l) => l.lastId).filter((v): v is number => v !== null);
  const lastRows = lastIds.length
    ? await db
        .select({
          endpointId: webhookLogs.endpointId,
          at: webhookLogs.createdAt,
          status: webhookLogs.responseStatus,
        })
        .from(webhookLogs)
        .where(inArray(webhookLogs.id, lastIds))
    : [];
  const health = new Map<number, Health>();
  const of = (id: number | null) => {
    if (id === null) return null;
    const existing = health.get(id) ?? { ...EMPTY_HEALTH };
    health.set(id, existing);
    return existing;
  };
  for (const r of recent) {
    const h = of(r.endpointId);
    if (h) {
      h.attempts_24h = r.total;
      h.success_rate_24h = r.total > 0 ? r.ok / r.total : null;
    }
  }
  for (const r of lastRows) {
    const h = of(r.endpointId);
    if (h) {
      h.last_delivery_at = iso(r.at);
      h.last_status = r.status;
    }
  }
  for (const r of pending) {
    const h = of(r.endpointId);
    if (h) h.pending = r.total;
  }
  return health;
}

/** The company's settings row; created (with a fresh token) the first time it is asked for. */
export async function webhookSettingsOf(
  db: DbOrTx,
  secrets: SecretBox,
  companyId: number,
  newToken: () => string,
) {
  const [row] = await db.select().from(webhookSettings).where(eq(webhookSettings.companyId, companyId));
  if (row) return row;
  const [created] = await db
    .insert(webhookSettings)
    .values({ companyId, token: secrets.seal(newToken()) })
    .onConflictDoNothing()
    .returning();
  if (created) return created;
  const [existing] = await db.select().from(webhookSettings).where(eq(webhookSettings.companyId, companyId));
  if (!existing) throw new Error('webhook settings vanished');
  return existing;
}

/** Every known event with its toggle (enabled unless switched off) and last-triggered time. */
export async function eventToggles(db: DbOrTx, companyId: number) {
  const rows = await db
    .select()
    .from(webhookEventToggles)
    .where(eq(webhookEventToggles.companyId, companyId));
  return WEBHOOK_EVENTS.map((event) => {
    const row = rows.find((r) => r.event === event);
    return { event, enabled: row?.enabled ?? true, last_triggered_at: iso(row?.lastTriggeredAt ?? null) };
  });
}

/** Switches events on or off for the whole company. */
export async function setEventToggles(
  db: DbOrTx,
  companyId: number,
  events: Partial<Record<WebhookEventType, boolean>>,
): Promise<void> {
  for (const [event, enabled] of Object.entries(events)) {
    if (enabled === undefined) continue;
    await db
      .insert(webhookEventToggles)
      .values({ companyId, event, enabled })
      .onConflictDoUpdate({
        target: [webhookEventToggles.companyId, webhookEventToggles.event],
        set: { enabled },
      });
  }
}

export async function requireEndpoint(db: DbOrTx, companyId: number, id: number): Promise<EndpointRow> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.companyId, companyId)));
  if (!row) throw notFound();
  return row;
}

/**
 * The URL rule ("Please type a valid url") and the SSRF guard (unless private targets are
 * allowed): the host's addresses must not be loopback, private, link-local or metadata ones.
 */
export async function checkWebhookUrl(url: string, allowPrivate: boolean): Promise<string> {
  const trimmed = url.trim();
  if (!isWebhookUrl(trimmed)) throw badRequest(WEBHOOK_URL_MESSAGE);
  if (!allowPrivate) {
    const reason = await checkTarget(trimmed);
    if (reason) throw badRequest(reason);
  }
  return trimmed;
}

interface LogQuery {
  limit: number;
  after_id?: number | undefined;
  offset?: number | undefined;
  search?: string | undefined;
  status?: 'succeeded' | 'failed' | undefined;
  event?: string | undefined;
}

/** The filters of both log lists: status, event, and a search over event, URL and message id. */
export function logFilters(base: SQL, query: LogQuery): SQL[] {
  const where: SQL[] = [base];
  if (query.after_id !== undefined) where.push(lt(webhookLogs.id, query.after_id));
  if (query.status) where.push(eq(webhookLogs.success, query.status === 'succeeded'));
  if (query.event) where.push(eq(webhookLogs.event, query.event));
  if (query.search) {
    const pattern = likePattern(query.search);
    const match = or(
      ilike(webhookLogs.event, pattern),
      ilike(webhookLogs.url, pattern),
      ilike(webhookLogs.msgId, pattern),
    );
    if (match) where.push(match);
  }
  return where;
}

/** Log rows with the exact body of their message. */
/**
 * A log entry as someone without the webhook permission (Admin, the one that manages webhooks) sees it: what
 * happened and when, without the payload, the signature headers or the receiver's answer.
 */
export function withoutContent(log: WebhookLog): WebhookLog {
  return { ...log, payload: null, request_body: null, request_headers: null, response_body: null };
}

export async function logsWithBodies(
  db: DbOrTx,
  where: SQL[],
  limit: number | Placeholder,
  orderBy: SQL[] = [desc(webhookLogs.id)],
) {
  const rows = await db
    .select({ log: webhookLogs, body: webhookMessages.body })
    .from(webhookLogs)
    .leftJoin(webhookMessages, eq(webhookMessages.msgId, webhookLogs.msgId))
    .where(and(...where))
    .orderBy(...orderBy)
    .limit(limit);
  return rows.map((r) => toWebhookLog(r.log, r.body));
}

/** The company's delivery log's one ordering, newest first: the id alone (docs/decisions/0164-keyset-lists.md). */
const LOG_ORDERING: KeysetOrdering = { name: '-id', id: webhookLogs.id, descending: true };

/** A page of the company's delivery log by keyset (or offset), with its capped count. */
export async function listLogs(
  db: DbOrTx,
  where: SQL[],
  paging: KeysetPaging,
  countCap = DEFAULT_COUNT_CAP,
): Promise<ListCount & { links: KeysetLinks; results: WebhookLog[] }> {
  const [total, page] = await Promise.all([
    countList(
      db,
      db
        .select({ one: sql`1` })
        .from(webhookLogs)
        .where(and(...where)),
      countCap,
    ),
    readKeysetPage(
      LOG_ORDERING,
      paging,
      (place, orderBy, limit) => logsWithBodies(db, place ? [...where, place] : where, limit, orderBy),
      (log) => ({ key: null, id: log.id }),
      { db, where: and(...where) },
    ),
  ]);
  return { ...total, links: page.links, results: page.rows };
}

/** An endpoint's delivery logs, newest first; `after_id` continues below that entry. */
export async function endpointLogs(db: DbOrTx, endpointId: number, query: LogQuery) {
  const where = logFilters(eq(webhookLogs.endpointId, endpointId), query);
  const rows = await logsWithBodies(db, where, query.limit + 1);
  return { results: rows.slice(0, query.limit), has_more: rows.length > query.limit };
}

/**
 * Retry (a failed or waiting delivery) or replay (a delivered one) the deliveries of these log entries of
 * the company: each is due now again, with the same message and so the same `webhook-id`.
 */
export async function requeueDeliveries(db: DbOrTx, companyId: number, logIds: number[]): Promise<number> {
  const rows = await db
    .select({ id: webhookLogs.id, deliveryId: webhookLogs.deliveryId, active: webhookEndpoints.isActive })
    .from(webhookLogs)
    .leftJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookLogs.endpointId))
    .where(and(eq(webhookLogs.companyId, companyId), inArray(webhookLogs.id, logIds)));
  if (rows.length !== new Set(logIds).size) throw notFound();
  if (rows.some((r) => r.deliveryId === null)) throw badRequest('This delivery can not be retried');
  if (rows.some((r) => r.active !== true)) throw badRequest('Enable the endpoint before retrying');
  const ids = [...new Set(rows.map((r) => r.deliveryId as number))];
  const updated = await db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: new Date(), updatedAt: new Date() })
    .where(and(inArray(webhookDeliveries.id, ids), eq(webhookDeliveries.companyId, companyId)))
    .returning({ id: webhookDeliveries.id });
  return updated.length;
}
