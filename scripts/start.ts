/**
 * `npm start`: builds the studio when its sources are newer than the last build, then starts the reference
 * server, which serves the studio and the API on one address and prints the demo logins, and beside it the
 * payment service (checkout pages, test cards, signed notifications) on its own address, unless Stripe is
 * configured (docs/operators/providers.md).
 */
import { spawn } from 'node:child_process';
import { loadConfig } from '../server/config';
import { ensureSecretFile } from '../server/secretFile';
import { spawnPaymentService } from './paymentService';
import { buildStudioIfStale } from './studioBuild';

buildStudioIfStale();

// The payment service's secrets derive from the server's: both processes must read the same kept secret.
ensureSecretFile();
const config = loadConfig();
const server = spawn('npx', ['tsx', 'server/main.ts'], { stdio: 'inherit' });
// With Stripe the local payment service has nothing to do.
const payment = config.payment.stripe ? null : spawnPaymentService(config);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    server.kill(signal);
    payment?.kill(signal);
  });
server.on('exit', (code) => {
  payment?.kill('SIGTERM');
  process.exit(code ?? 0);
});
payment?.on('exit', (code) => {
  if (code) console.error(`The payment service stopped (exit code ${code}); checkout is unavailable.`);
});
