import { z } from 'zod';
import {
  idSchema,
  idText,
  isoDateTime,
  keysetPageSchema,
  keysetPagingQuery,
  lineText,
  searchText,
} from './common';

/** The event catalogue (docs/webhooks.md): every type a delivery's body can carry. */
export const WEBHOOK_EVENTS = [
  'profile.created',
  'profile.updated',
  'profile.status_changed',
  'profile.erased',
  'document.uploaded',
  'document.approved',
  'document.rejected',
  'aml.checked',
  'aml.approved',
  'videocall.created',
  'videocall.completed',
  'videocall.recorded',
  'user.created',
  'review.requested',
  'review.decided',
] as const;
export const webhookEventSchema = z.enum(WEBHOOK_EVENTS);
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** The test event sent by POST /webhook_endpoint/{id}/test when no event is named. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** The message under a webhook URL field. */
export const WEBHOOK_URL_MESSAGE = 'Please type a valid url';
export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_DESCRIPTION_MAX = 200;
/** Grace period of a rotated secret: both sign until it ends (hours). */
export const SECRET_GRACE_DEFAULT_HOURS = 24;
export const SECRET_GRACE_MAX_HOURS = 168;

/** An http(s) address with a host: the console's rule and the server's first check (docs/product/validation.md). */
export function isWebhookUrl(value: string): boolean {
  const text = value.trim();
  if (text.length === 0 || text.length > WEBHOOK_URL_MAX) return false;
  try {
    const url = new URL(text);
    return (
      (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.length > 0 && !url.username
    );
  } catch {
    return false;
  }
}

/** GET /api/v2/webhook/events */
export const webhookEventInfoSchema = z.object({ name: webhookEventSchema, description: z.string() });
/** GET /api/v2/events: event toggles with last-triggered time. */
export const webhookEventToggleSchema = z.object({
  event: webhookEventSchema,
  enabled: z.boolean(),
  last_triggered_at: isoDateTime.nullable(),
});
export type WebhookEventToggle = z.infer<typeof webhookEventToggleSchema>;

/** GET /api/v2/webhook */
export const webhookSettingsSchema = z.object({ url: z.string().nullable(), signature_enabled: z.boolean() });
/** PUT /api/v2/webhook: the company's event toggles (and the legacy single URL). */
export const webhookSettingsBodySchema = z.strictObject({
  url: lineText.max(WEBHOOK_URL_MAX).nullable().optional(),
  signature_enabled: z.boolean().optional(),
  events: z.partialRecord(webhookEventSchema, z.boolean()).optional(),
});
/** GET /api/v2/webhook/token */
export const webhookTokenSchema = z.object({ token: z.string() });

export const webhookEndpointHealthSchema = z.object({
  last_delivery_at: isoDateTime.nullable(),
  last_status: z.number().int().nullable(),
  /** Share of the last 24 hours' attempts that succeeded, 0..1; null without attempts. */
  success_rate_24h: z.number().nullable(),
  attempts_24h: z.number().int(),
  /** Deliveries waiting for an attempt or a retry. */
  pending: z.number().int(),
});

export const webhookEndpointSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  description: z.string(),
  /** Empty: every event. */
  enabled_events: z.array(webhookEventSchema),
  is_active: z.boolean(),
  /** Why the server disabled it (e.g. failing for 5 days); null when an admin did or it is active. */
  disabled_reason: z.string().nullable(),
  /** While a rotated secret still signs too. */
  previous_secret_expires_at: isoDateTime.nullable(),
  created_at: isoDateTime,
  health: webhookEndpointHealthSchema,
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

/** POST /api/v2/webhook_endpoint */
export const webhookEndpointBodySchema = z.strictObject({
  url: lineText.max(WEBHOOK_URL_MAX),
  description: lineText.max(WEBHOOK_DESCRIPTION_MAX).optional(),
  enabled_events: z.array(webhookEventSchema).max(WEBHOOK_EVENTS.length).default([]),
});
/** PATCH /api/v2/webhook_endpoint/{id} */
export const webhookEndpointPatchSchema = z.strictObject({
  url: lineText.max(WEBHOOK_URL_MAX).optional(),
  description: lineText.max(WEBHOOK_DESCRIPTION_MAX).optional(),
  enabled_events: z.array(webhookEventSchema).max(WEBHOOK_EVENTS.length).optional(),
  is_active: z.boolean().optional(),
});

export const webhookSecretSchema = z.object({ secret: z.string() });
/** PATCH /api/v2/webhook_endpoint/{id}/secret: a new secret; the old one signs too for the grace period. */
export const webhookRotateBodySchema = z.strictObject({
  grace_period_hours: z.number().int().min(0).max(SECRET_GRACE_MAX_HOURS).default(SECRET_GRACE_DEFAULT_HOURS),
});
export const webhookRotateResponseSchema = z.object({
  secret: z.string(),
  previous_secret_expires_at: isoDateTime.nullable(),
});

/** POST /api/v2/webhook_endpoint/{id}/test */
export const webhookTestBodySchema = z.strictObject({
  event: z.union([webhookEventSchema, z.literal(WEBHOOK_TEST_EVENT)]).default(WEBHOOK_TEST_EVENT),
});
export const webhookTestResultSchema = z.object({
  success: z.boolean(),
  message_id: z.string(),
  status_code: z.number().int().nullable(),
  response_body: z.string().nullable(),
  duration_ms: z.number().int(),
  error: z.string().nullable(),
});
export type WebhookTestResult = z.infer<typeof webhookTestResultSchema>;

/** POST /api/v2/webhook_endpoint/retry: retry (failed) or replay (delivered) the deliveries of these log entries. */
export const webhookRetryBodySchema = z.strictObject({
  ids: z.array(idSchema).min(1).max(100),
});
export const webhookRetryResponseSchema = z.object({ queued: z.number().int() });

export const webhookLogSchema = z.object({
  id: z.number().int(),
  endpoint: z.number().int().nullable(),
  event: z.string(),
  /** The message's `webhook-id`: the same on every attempt and replay of one message. */
  message_id: z.string().nullable(),
  url: z.string(),
  /** The body sent, parsed; null for callers without the webhook permission (Admin). */
  payload: z.record(z.string(), z.unknown()).nullable(),
  /** The body sent, byte for byte as signed; null for callers without the webhook permission (Admin). */
  request_body: z.string().nullable(),
  /** The headers sent, signatures included; null for callers without the webhook permission (Admin). */
  request_headers: z.record(z.string(), z.string()).nullable(),
  response_status: z.number().int().nullable(),
  /** The receiver's answer, first 2,000 characters; null for callers without the webhook permission. */
  response_body: z.string().nullable(),
  /** Why no answer came (time-out, refused address, network error). */
  error: z.string().nullable(),
  success: z.boolean(),
  attempt: z.number().int(),
  duration_ms: z.number().int().nullable(),
  /** When the next attempt of this delivery is due; null when it is final. */
  next_retry_at: isoDateTime.nullable(),
  created_at: isoDateTime,
});
export type WebhookLog = z.infer<typeof webhookLogSchema>;

const logFilters = {
  search: searchText.optional(),
  status: z.enum(['succeeded', 'failed']).optional(),
  event: lineText.max(60).optional(),
};

/** GET /api/v2/webhook/logs: page size default 10. */
export const webhookLogsQuerySchema = z.strictObject({
  ...keysetPagingQuery,
  limit: z.coerce.number().int().min(1).max(200).default(10),
  ...logFilters,
});
export const webhookLogPageSchema = keysetPageSchema(webhookLogSchema);

/** GET /api/v2/webhook_endpoint/{id}/logs: newest first, `after_id` continues below that entry. */
export const endpointLogsQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(10),
  after_id: idText.optional(),
  ...logFilters,
});
export const endpointLogsResponseSchema = z.object({
  results: z.array(webhookLogSchema),
  has_more: z.boolean(),
});
