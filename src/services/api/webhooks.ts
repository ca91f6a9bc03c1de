/** Webhooks (/webhook*, /events): endpoints, secrets, event toggles, token, test, logs and retry. */
import type { z } from 'zod';
import type {
  WebhookEndpoint,
  WebhookEventToggle,
  WebhookEventType,
  WebhookLog,
  WebhookTestResult,
  webhookEndpointBodySchema,
  webhookEndpointPatchSchema,
} from '#contract/webhooks';
import { api } from './http';

type Options = { signal?: AbortSignal };
export type EndpointBody = z.input<typeof webhookEndpointBodySchema>;
export type EndpointPatch = z.input<typeof webhookEndpointPatchSchema>;
export interface LogFilter {
  status?: 'succeeded' | 'failed' | undefined;
  event?: string | undefined;
  search?: string | undefined;
}
export interface LogPage {
  results: WebhookLog[];
  has_more: boolean;
}

export const webhookKeys = {
  all: ['webhooks'] as const,
  endpoints: () => ['webhooks', 'endpoints'] as const,
  events: () => ['webhooks', 'events'] as const,
  logs: (endpointId: number, filter: LogFilter) => ['webhooks', 'logs', endpointId, filter] as const,
};

export function listEndpoints({ signal }: Options = {}): Promise<WebhookEndpoint[]> {
  return api.get('webhook_endpoint', { signal }).json<WebhookEndpoint[]>();
}

export function createEndpoint(body: EndpointBody): Promise<WebhookEndpoint> {
  return api.post('webhook_endpoint', { json: body }).json<WebhookEndpoint>();
}

export function updateEndpoint(id: number, body: EndpointPatch): Promise<WebhookEndpoint> {
  return api.patch(`webhook_endpoint/${id}`, { json: body }).json<WebhookEndpoint>();
}

export async function deleteEndpoint(id: number): Promise<void> {
  await api.delete(`webhook_endpoint/${id}`);
}

/** GET /webhook_endpoint/{id}/secret, confirmed with the admin's password. */
export async function revealSecret(id: number, password: string): Promise<string> {
  const answer = await api
    .get(`webhook_endpoint/${id}/secret`, { headers: { 'X-Password': password } })
    .json<{ secret: string }>();
  return answer.secret;
}

export function rotateSecret(
  id: number,
  gracePeriodHours: number,
): Promise<{ secret: string; previous_secret_expires_at: string | null }> {
  return api
    .patch(`webhook_endpoint/${id}/secret`, { json: { grace_period_hours: gracePeriodHours } })
    .json<{ secret: string; previous_secret_expires_at: string | null }>();
}

export function sendTestEvent(id: number): Promise<WebhookTestResult> {
  return api.post(`webhook_endpoint/${id}/test`, { json: {}, timeout: 30_000 }).json<WebhookTestResult>();
}

export function listEventToggles({ signal }: Options = {}): Promise<WebhookEventToggle[]> {
  return api.get('events', { signal }).json<WebhookEventToggle[]>();
}

export async function setEventEnabled(event: WebhookEventType, enabled: boolean): Promise<void> {
  await api.put('webhook', { json: { events: { [event]: enabled } } });
}

export async function getWebhookToken(): Promise<string> {
  return (await api.get('webhook/token').json<{ token: string }>()).token;
}

export async function regenerateWebhookToken(): Promise<string> {
  return (await api.patch('webhook/token').json<{ token: string }>()).token;
}

/** GET /webhook_endpoint/{id}/logs: 10 a page (docs/product/constants.md), `after_id` for the next. */
export function listEndpointLogs(
  id: number,
  filter: LogFilter & { after_id?: number | undefined },
  { signal }: Options = {},
): Promise<LogPage> {
  const searchParams: Record<string, string | number> = { limit: 10 };
  for (const [key, value] of Object.entries(filter))
    if (value !== undefined && value !== '') searchParams[key] = value;
  return api.get(`webhook_endpoint/${id}/logs`, { searchParams, signal }).json<LogPage>();
}

/** POST /webhook_endpoint/retry: retries or replays the deliveries of these log entries. */
export async function retryDeliveries(ids: number[]): Promise<number> {
  return (await api.post('webhook_endpoint/retry', { json: { ids } }).json<{ queued: number }>()).queued;
}
