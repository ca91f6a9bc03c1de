import { join, resolve } from 'node:path';
import type { PaymentServiceOptions } from './app';

export interface PaymentServiceConfig extends PaymentServiceOptions {
  port: number;
  host: string;
}

/**
 * The payment service's settings, from the environment. `npm start` and `scripts/e2e-servers.ts` pass the
 * secrets the studio's server holds (PAYMENT_API_KEY, PAYMENT_WEBHOOK_SECRET), so the two agree.
 */
export function loadPaymentServiceConfig(env: NodeJS.ProcessEnv = process.env): PaymentServiceConfig {
  const port = Number(env.PAYMENT_PORT ?? 9080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PAYMENT_PORT must be 0..65535, got ${env.PAYMENT_PORT}`);
  const apiKey = env.PAYMENT_API_KEY;
  const webhookSecret = env.PAYMENT_WEBHOOK_SECRET;
  if (!apiKey || !webhookSecret) throw new Error('PAYMENT_API_KEY and PAYMENT_WEBHOOK_SECRET are required');
  const host = env.PAYMENT_HOST ?? '127.0.0.1';
  const retrySchedule = env.PAYMENT_NOTIFY_RETRY
    ? env.PAYMENT_NOTIFY_RETRY.split(',').map((s) => Number(s.trim()))
    : undefined;
  if (retrySchedule?.some((s) => !Number.isFinite(s) || s < 0))
    throw new Error(`PAYMENT_NOTIFY_RETRY must be comma-separated seconds, got ${env.PAYMENT_NOTIFY_RETRY}`);
  return {
    port,
    host,
    publicUrl: (env.PAYMENT_PUBLIC_URL ?? `http://${host}:${port}`).replace(/\/$/, ''),
    apiKey,
    webhookSecret,
    notifyUrl: env.PAYMENT_NOTIFY_URL ?? 'http://127.0.0.1:8080/api/v2/payment/notification',
    retrySchedule,
    sweepMs: 15_000,
    dataFile: env.PAYMENT_DATA_FILE ?? join(resolve(env.DATA_DIR ?? '.data'), 'payment-service.json'),
    logLevel: env.LOG_LEVEL ?? 'info',
  };
}
