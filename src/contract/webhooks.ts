import { z } from 'zod';
import { isoDateTime, pageSchema, searchText } from './common';

export const WEBHOOK_EVENTS = [
  'profile.created',
  'profile.updated',
  'profile.status_changed',
  'document.uploaded',
  'document.approved',
  'document.rejected',
  'aml.completed',
  'videocall.completed',
] as const;
export const webhookEventSchema = z.enum(WEBHOOK_EVENTS);

/** GET /api/v2/webhook/events */
export const webhookEventInfoSchema = z.object({ name: webhookEventSchema, description: z.string() });
/** GET /api/v2/events: event toggles with last-triggered time. */
export const webhookEventToggleSchema = z.object({
  event: webhookEventSchema,
  enabled: z.boolean(),
  last_triggered_at: isoDateTime.nullable(),
});

/** GET /api/v2/webhook */
export const webhookSettingsSchema = z.object({ url: z.string().nullable(), signature_enabled: z.boolean() });
/** GET /api/v2/webhook/token */
export const webhookTokenSchema = z.object({ token: z.string() });

export const webhookEndpointSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  enabled_events: z.array(webhookEventSchema),
  is_active: z.boolean(),
  created_at: isoDateTime,
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;
export const webhookSecretSchema = z.object({ secret: z.string() });

export const webhookLogSchema = z.object({
  id: z.number().int(),
  endpoint: z.number().int().nullable(),
  event: z.string(),
  url: z.string(),
  payload: z.record(z.string(), z.unknown()),
  response_status: z.number().int().nullable(),
  response_body: z.string().nullable(),
  success: z.boolean(),
  attempt: z.number().int(),
  duration_ms: z.number().int().nullable(),
  created_at: isoDateTime,
});
export type WebhookLog = z.infer<typeof webhookLogSchema>;

/** GET /api/v2/webhook/logs: page size default 10. */
export const webhookLogsQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(10),
  offset: z.coerce.number().int().min(0).default(0),
});
export const webhookLogPageSchema = pageSchema(webhookLogSchema);

/** GET /api/v2/webhook_endpoint/{id}/logs: newest first, `after_id` continues below that entry. */
export const endpointLogsQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(10),
  after_id: z.coerce.number().int().positive().optional(),
  search: searchText.optional(),
});
export const endpointLogsResponseSchema = z.object({
  results: z.array(webhookLogSchema),
  has_more: z.boolean(),
});
