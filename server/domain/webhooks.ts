import { and, desc, eq, ilike, lt, or, type SQL } from 'drizzle-orm';
import { WEBHOOK_EVENTS, type WebhookEndpoint, type WebhookLog } from '../../src/contract/webhooks';
import type { SecretBox } from '../auth/secrets';
import type { DbOrTx } from '../db/client';
import { webhookEndpoints, webhookEventToggles, webhookLogs, webhookSettings } from '../db/schema';
import { notFound } from '../errors';
import { iso, likePattern } from './format';

type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventName, string> = {
  'profile.created': 'A customer profile was created',
  'profile.updated': 'A customer profile was edited',
  'profile.status_changed': 'A customer profile changed status',
  'document.uploaded': 'A document was uploaded',
  'document.approved': 'A document was approved',
  'document.rejected': 'A document was rejected',
  'aml.completed': 'An AML screening finished',
  'videocall.completed': 'A video call ended with a status',
};

const knownEvents = (events: string[]) =>
  events.filter((e): e is WebhookEventName => (WEBHOOK_EVENTS as readonly string[]).includes(e));

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type LogRow = typeof webhookLogs.$inferSelect;

export function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    enabled_events: knownEvents(row.enabledEvents),
    is_active: row.isActive,
    created_at: iso(row.createdAt),
  };
}

export function toWebhookLog(row: LogRow): WebhookLog {
  return {
    id: row.id,
    endpoint: row.endpointId,
    event: row.event,
    url: row.url,
    payload: row.payload,
    response_status: row.responseStatus,
    response_body: row.responseBody,
    success: row.success,
    attempt: row.attempt,
    duration_ms: row.durationMs,
    created_at: iso(row.createdAt),
  };
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

export async function requireEndpoint(db: DbOrTx, companyId: number, id: number): Promise<EndpointRow> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.companyId, companyId)));
  if (!row) throw notFound();
  return row;
}

/** An endpoint's delivery logs, newest first; `after_id` continues below that entry. */
export async function endpointLogs(
  db: DbOrTx,
  endpointId: number,
  query: { limit: number; after_id?: number | undefined; search?: string | undefined },
) {
  const where: SQL[] = [eq(webhookLogs.endpointId, endpointId)];
  if (query.after_id !== undefined) where.push(lt(webhookLogs.id, query.after_id));
  if (query.search) {
    const pattern = likePattern(query.search);
    const match = or(ilike(webhookLogs.event, pattern), ilike(webhookLogs.url, pattern));
    if (match) where.push(match);
  }
  const rows = await db
    .select()
    .from(webhookLogs)
    .where(and(...where))
    .orderBy(desc(webhookLogs.id))
    .limit(query.limit + 1);
  return { results: rows.slice(0, query.limit).map(toWebhookLog), has_more: rows.length > query.limit };
}
