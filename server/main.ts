import { buildApp } from './app';
import { loadConfig } from './config';
import { demoLoginLines } from './db/seed';

async function main() {
  const config = loadConfig();
  const app = await buildApp(config);
  const address = await app.listen({ port: config.port, host: config.host });
  console.log(
    `\nIDV Studio server on ${address}  (studio: ${config.publicUrl}, API: ${config.publicUrl}/api/v2)`,
  );
  console.log(
    `Database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.pgliteDir}`}`,
  );
  console.log('Demo logins:');
  for (const line of demoLoginLines()) console.log(line);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal} received, stopping`);
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    const started = Date.now();
    await app.close();
    console.log(`Stopped in ${Date.now() - started} ms`);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
