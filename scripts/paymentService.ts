import { type ChildProcess, spawn } from 'node:child_process';
import type { ServerConfig } from '../server/config';

/**
 * Starts the payment service (payment-service/main.ts) beside the studio's server, with the secrets the
 * server holds and the server's notification address, listening where `PAYMENT_SERVICE_URL` points.
 */
export function spawnPaymentService(
  config: ServerConfig,
  env: NodeJS.ProcessEnv = process.env,
): ChildProcess {
  const url = new URL(config.payment.serviceUrl);
  return spawn('npx', ['tsx', 'payment-service/main.ts'], {
    stdio: 'inherit',
    env: {
      ...env,
      PAYMENT_HOST: url.hostname.replace(/^\[|\]$/g, ''),
      PAYMENT_PORT: url.port || (url.protocol === 'https:' ? '443' : '80'),
      PAYMENT_PUBLIC_URL: config.payment.serviceUrl,
      PAYMENT_API_KEY: config.payment.apiKey,
      PAYMENT_WEBHOOK_SECRET: config.payment.webhookSecret,
      PAYMENT_NOTIFY_URL: `http://127.0.0.1:${config.port}/api/v2/payment/notification`,
      DATA_DIR: config.dataDir,
    },
  });
}
