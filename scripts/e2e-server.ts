/**
 * The server the end-to-end tests run against: the reference server on a fresh data directory (demo data
 * seeded on start), serving the built studio. Builds the studio first when there is no build.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../server/config';
import { spawnPaymentService } from './paymentService';

const port = process.argv[2] ?? '4310';
// STUDIO_DIST lets parallel local runs build and serve their own copy of the studio.
const dist = process.env.STUDIO_DIST ?? 'dist';
if (!existsSync(join(dist, 'index.html')))
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', dist], { stdio: 'inherit' });

const dataDir = mkdtempSync(join(tmpdir(), 'idv-e2e-'));
// The payment service listens 1000 ports above the server, so parallel e2e servers do not collide.
const paymentEnv = {
  ...process.env,
  PORT: port,
  DATA_DIR: dataDir,
  PAYMENT_SERVICE_URL: `http://127.0.0.1:${Number(port) + 1000}`,
  PAYMENT_NOTIFY_RETRY: '1,1,2',
  LOG_LEVEL: 'warn',
};
const payment = spawnPaymentService(loadConfig(paymentEnv), paymentEnv);
const child = spawn('npx', ['tsx', 'server/main.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PAYMENT_SERVICE_URL: paymentEnv.PAYMENT_SERVICE_URL,
    PORT: port,
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // The suite signs in many times a minute from one address; the limits themselves are tested in tests/server.
    LOGIN_LIMIT_PER_ACCOUNT: '1000',
    LOGIN_LIMIT_PER_ADDRESS: '1000',
    // Every customer and agent of the run comes from loopback; the call and upload limits are tested in tests/server.
    CALLS_PER_ADDRESS_PER_HOUR: '1000',
    UPLOADS_PER_MINUTE: '1000',
    // The webhook console test delivers to a receiver on loopback; the SSRF guard is tested in tests/server.
    WEBHOOK_ALLOW_PRIVATE: '1',
    WEBHOOK_RETRY_SCHEDULE: '1,1',
  },
});
const stop = (signal: NodeJS.Signals) => {
  child.kill(signal);
  payment.kill(signal);
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stop(signal));
child.on('exit', (code) => {
  payment.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
