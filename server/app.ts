import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { ServerConfig } from './config';
import type { Database } from './db/client';
import { proxyTrust } from './domain/ipAllowList';
import { frameworkErrors } from './http/errors';
import { loggerOptions } from './http/logging';
import { frozenAnswersSerializerCompiler } from './http/serializer';
import type { FaceMatcher } from './integrations/faceMatch';
import type { PaymentProvider } from './integrations/payment/provider';
import { accessLogPlugin } from './plugins/accessLog';
import { contextPlugin } from './plugins/context';
import { httpPlugin } from './plugins/http';
import { machineChecksPlugin } from './plugins/machineChecks';
import { routesPlugin } from './plugins/routes';
import { socketHubPlugin } from './plugins/socketHub';
import { storageSweepPlugin } from './plugins/storageSweep';
import { workersPlugin } from './plugins/workers';

/** How often the HTTP server looks for requests past their header or request time-out (Node's default: 30 s). */
const TIMEOUT_CHECK_MS = 1_000;

export interface BuildOptions {
  /** An open database to use; it is then not closed with the app. */
  database?: Database;
  faceMatcher?: FaceMatcher;
  /** Where the log goes instead of stdout (tests that read the log). */
  logStream?: { write(line: string): void };
  paymentProvider?: PaymentProvider;
}

/**
 * Builds the whole server without listening: database (migrated, seeded when empty), API, OpenAPI, storage,
 * studio, the socket.io hub and the background workers. Each plugin starts what it owns and registers its own
 * close; fastify runs `preClose` hooks in order and `onClose` hooks in reverse, so what starts first (the
 * database) closes last.
 */
export async function buildApp(config: ServerConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config, options.logStream),
    // X-Forwarded-For only from the proxies TRUST_PROXY names (request.ip feeds the IP allow-list).
    trustProxy: proxyTrust(config.trustProxy),
    frameworkErrors,
    // No limit on a plugin's start: migrating and seeding a new database, or waiting for the process that
    // does, takes longer than fastify's default of 10 s.
    pluginTimeout: 0,
    // Slow clients (docs/server.md "Timeouts"): a connection with nothing coming or going for `idleMs` is
    // closed (a stalled body), the headers must arrive within `headersMs` and the whole request (a large
    // upload) within `requestMs`.
    connectionTimeout: config.timeouts.idleMs,
    // A request that reaches a stopping process on a connection the load balancer kept open is answered, with
    // `Connection: close`, rather than refused with a 503: nginx never passes a POST or PATCH it has already
    // sent on to another process (it may have done its work), so the client would see that 503.
    return503OnClosing: false,
    requestTimeout: config.timeouts.requestMs,
    http: { headersTimeout: config.timeouts.headersMs, connectionsCheckingInterval: TIMEOUT_CHECK_MS },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(frozenAnswersSerializerCompiler);

  // `app.ctx`: the database (seeded when empty), Redis, caches and services; open calls restored.
  await app.register(contextPlugin, {
    config,
    database: options.database,
    faceMatcher: options.faceMatcher,
    paymentProvider: options.paymentProvider,
  });
  await app.register(storageSweepPlugin);
  // Reads of personal data, buffered and written in batches; flushed at close, before the database closes.
  await app.register(accessLogPlugin);
  // The face match and MRZ read of a call's screenshots; closed after the routes, before the database.
  await app.register(machineChecksPlugin);
  // Hooks every request goes through, then the routes they guard.
  await app.register(httpPlugin);
  await app.register(routesPlugin);
  // The hub and the workers start last, once everything they call exists; they stop first.
  await app.register(socketHubPlugin);
  await app.register(workersPlugin);

  await app.ready();
  return app;
}
