/**
 * The server as `server/main.ts` starts it, but with reads of personal data not noted: the "access log off" side
 * of `bench:api` and `bench:profiles`, which measure the same requests with and without the log in one run. A
 * bench-only entry, so the product has no switch that turns its access log off.
 */
import { loadConfig } from '../server/config';
import { ensureSecretFile } from '../server/secretFile';

async function main() {
  ensureSecretFile();
  const config = loadConfig();
  const { buildApp } = await import('../server/app');
  const app = await buildApp(config);
  // The buffer stays (its timer finds nothing to write); only the push a read costs the request is gone.
  app.accessLog.add = () => undefined;
  await app.listen({ port: config.port, host: config.host });
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
