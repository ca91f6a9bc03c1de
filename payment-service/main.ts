import { buildPaymentService } from './app';
import { loadPaymentServiceConfig } from './config';

/** `npx tsx payment-service/main.ts`: the payment service alone (npm start runs it beside the server). */
async function main() {
  const config = loadPaymentServiceConfig();
  const app = await buildPaymentService(config);
  await app.listen({ port: config.port, host: config.host });
  console.log(`Payment service (test mode) on ${config.publicUrl}  (notifies ${config.notifyUrl})`);
  const stop = async () => {
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
