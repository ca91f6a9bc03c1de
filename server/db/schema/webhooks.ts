/** Webhooks: settings, endpoints, messages, deliveries and the delivery log. */
import { boolean, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, id, ts } from './columns';
import { companies } from './companies';

/** Company-wide webhook settings (GET/PUT /webhook, GET/PATCH /webhook/token). */
export const webhookSettings = pgTable('webhook_settings', {
  companyId: integer()
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  url: text(),
  /** AES-GCM encrypted token. */
  token: text().notNull(),
  signatureEnabled: boolean().notNull().default(true),
});

/** Event toggles with last-triggered time (GET /events). */
export const webhookEventToggles = pgTable(
  'webhook_event_toggles',
  {
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    event: text().notNull(),
    enabled: boolean().notNull().default(true),
    lastTriggeredAt: ts(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.event] })],
);

export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: id(),
  companyId: integer()
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  url: text().notNull(),
  enabledEvents: jsonb().$type<string[]>().notNull().default([]),
  /** AES-GCM encrypted signing secret. */
  secret: text().notNull(),
  isActive: boolean().notNull().default(true),
  createdAt: createdAt(),
  description: text().notNull().default(''),
  /** The secret before the last rotation (encrypted); it signs too until `previousSecretExpiresAt`. */
  previousSecret: text(),
  previousSecretExpiresAt: ts(),
  /** Set when the server disabled the endpoint (failing too long); cleared when enabled again. */
  disabledReason: text(),
  /** First failed attempt since the last success; null while healthy. */
  failingSince: ts(),
});

/**
 * The durable outbox (docs/webhooks.md): one row per event, inserted in the transaction of the change it
 * reports. The worker fans each out into deliveries, one per subscribed endpoint.
 */
export const webhookMessages = pgTable(
  'webhook_messages',
  {
    id: id(),
    /** The `webhook-id` header: the same on every attempt and replay. */
    msgId: text().notNull().unique(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    eventType: text().notNull(),
    /** The exact body sent, `{ "type", "timestamp", "data" }` as JSON text (replays send the same bytes). */
    body: text().notNull(),
    /** Only this endpoint (test events); null: every subscribed endpoint. */
    endpointId: integer().references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    fannedOut: boolean().notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_messages_pending').on(t.fannedOut, t.id)],
);

/** One message to one endpoint: its state and the time of its next attempt (a lease while one runs). */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    messageId: integer()
      .notNull()
      .references(() => webhookMessages.id, { onDelete: 'cascade' }),
    endpointId: integer()
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** pending (waiting or retrying), succeeded, failed (final). */
    status: text().notNull().default('pending'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: ts().notNull().defaultNow(),
    createdAt: createdAt(),
    updatedAt: ts().notNull().defaultNow(),
  },
  (t) => [
    index('webhook_deliveries_due').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_endpoint').on(t.endpointId, t.status),
  ],
);

export const webhookLogs = pgTable(
  'webhook_logs',
  {
    id: id(),
    companyId: integer()
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    endpointId: integer().references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    event: text().notNull(),
    url: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    responseStatus: integer(),
    responseBody: text(),
    success: boolean().notNull(),
    attempt: integer().notNull().default(1),
    durationMs: integer(),
    createdAt: createdAt(),
    deliveryId: integer().references(() => webhookDeliveries.id, { onDelete: 'set null' }),
    msgId: text(),
    requestHeaders: jsonb().$type<Record<string, string>>().notNull().default({}),
    error: text(),
    nextRetryAt: ts(),
  },
  (t) => [
    index('webhook_logs_company').on(t.companyId, t.id),
    index('webhook_logs_endpoint').on(t.endpointId, t.id),
    // The delivery log's filters with its order (docs/decisions/0164-keyset-lists.md).
    index('webhook_logs_company_event').on(t.companyId, t.event, t.id),
    index('webhook_logs_company_success').on(t.companyId, t.success, t.id),
  ],
);
