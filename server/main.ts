import type { Socket } from 'node:net';
import { loadConfig } from './config';
import { closeListener } from './http/listener';
import { ensureSecretFile } from './secretFile';
import { startTelemetry } from './telemetry/start';

async function main() {
  // Loading the configuration writes nothing: the secret a new data folder needs is kept before it is read.
  ensureSecretFile();
  const config = loadConfig();
  // Tracing starts before the app's modules load: its instrumentations patch fastify, pg and ioredis as they
  // are imported, so the app is imported afterwards.
  const telemetry = config.otlpEndpoint ? await startTelemetry({ endpoint: config.otlpEndpoint }) : null;
  const [{ buildApp }, { demoLoginLines }] = await Promise.all([import('./app'), import('./db/seed')]);
  const app = await buildApp(config);
  // The plain HTTP connections (upgraded sockets leave the set): the stop below waits for them to close.
  const httpConnections = new Set<Socket>();
  let connectionClosed: () => void = () => undefined;
  app.server.on('connection', (socket: Socket) => {
    httpConnections.add(socket);
    socket.once('close', () => {
      httpConnections.delete(socket);
      connectionClosed();
    });
  });
  app.server.on('upgrade', (_request, socket: Socket) => httpConnections.delete(socket));
  const address = await app.listen({ port: config.port, host: config.host });
  console.log(
    `\nIDV Studio server on ${address}  (studio: ${config.publicUrl}, API: ${config.publicUrl}/api/v2)`,
  );
  console.log(
    `Database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.pgliteDir}`}`,
  );
  if (config.otlpEndpoint) console.log(`Tracing: OpenTelemetry spans to ${config.otlpEndpoint}`);
  if (config.redisUrl || config.s3)
    console.log(
      `Distributed mode: ${config.redisUrl ? 'Redis (REDIS_URL)' : 'no Redis'}, storage ${config.s3 ? `S3 bucket ${config.s3.bucket}` : 'local folder'}`,
    );
  console.log('Demo logins:');
  for (const line of demoLoginLines()) console.log(line);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal} received, stopping`);
    // /readyz answers 503 from now on; the load balancer sends new work to the other processes.
    app.ops.draining = true;
    // Requests in flight (uploads) may finish within the grace period; past it the process stops anyway.
    const timer = setTimeout(() => {
      app.log.warn(`requests still running after ${config.shutdownGraceMs} ms: stopping anyway`);
      process.exit(1);
    }, config.shutdownGraceMs);
    timer.unref();
    const started = Date.now();
    // Each answer from now on closes its connection; idle ones are closed by the balancer (its keep-alive
    // timeout, shorter than ours) or by the next answer. Waited for up to half the grace period.
    app.server.prependListener('request', (_request, reply) => reply.setHeader('connection', 'close'));
    // New connections are refused from now on, before the workers' stops below take their time: a refused
    // connection is one the load balancer retries on another process at once (any method, nothing was sent),
    // and the sockets closed next reconnect there instead of to this process while it still listens.
    await closeListener(app.server);
    // Ctrl-C comes from a person at the terminal, not from a balancer that may be sending on an idle connection;
    // a browser keeps its idle ones open for minutes, and nobody should wait for them.
    if (signal === 'SIGINT' && 'closeIdleConnections' in app.server) app.server.closeIdleConnections();
    await new Promise<void>((resolve) => {
      const check = () => {
        if (httpConnections.size === 0) resolve();
      };
      connectionClosed = check;
      setTimeout(resolve, config.shutdownGraceMs / 2).unref();
      check();
    });
    // Closing stops accepting connections, closes the sockets without a "server disconnect" (clients
    // reconnect, through the load balancer to another process), then waits for the requests in flight.
    await app.close();
    // The spans of the last requests are sent before the process ends.
    await telemetry?.shutdown().catch((error: unknown) => app.log.warn({ err: error }, 'traces not sent'));
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
