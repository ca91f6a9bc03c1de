import { timingSafeEqual } from 'node:crypto';
import { signature } from '../webhooks/signer';
import { NotificationRefused } from './provider';

/**
 * Verifies a Standard Webhooks request (https://www.standardwebhooks.com): `webhook-id`,
 * `webhook-timestamp` (seconds, within the tolerance of now) and `webhook-signature` (one or more
 * `v1,<base64 HMAC-SHA256 of id.timestamp.body>`). Returns the id; throws NotificationRefused.
 */
export function verifyStandardWebhook(
  secret: string,
  rawBody: string,
  headers: Record<string, string | string[] | undefined>,
  toleranceSeconds: number,
  nowMs: number = Date.now(),
): string {
  const header = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const id = header('webhook-id');
  const timestamp = header('webhook-timestamp');
  const signatures = header('webhook-signature');
  if (!id || !timestamp || !signatures) throw new NotificationRefused('Missing webhook signature headers');
  if (!/^\d{1,12}$/.test(timestamp)) throw new NotificationRefused('Invalid webhook timestamp');
  const age = Math.floor(nowMs / 1000) - Number(timestamp);
  if (Math.abs(age) > toleranceSeconds) throw new NotificationRefused('Webhook timestamp too old or too new');
  const expected = Buffer.from(signature(secret, id, Number(timestamp), rawBody));
  const match = signatures
    .split(' ')
    .map((s) => Buffer.from(s))
    .some((given) => given.length === expected.length && timingSafeEqual(given, expected));
  if (!match) throw new NotificationRefused('Invalid webhook signature');
  return id;
}
