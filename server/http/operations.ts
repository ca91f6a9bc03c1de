import { timingSafeEqual } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { z } from 'zod';
import { CALL_STATUSES } from '#contract/common';
import { CALL_STATUS_WAITING } from '#contract/constants';
import type { AppContext } from '../context';
import { videoCalls, webhookDeliveries } from '../db/schema';
import { notFound, unauthorized } from '../errors';
import type { Storage } from '../storage/storage';
import { PUBLIC } from './access';

/** What GET /readyz checks, each with a time limit. */
const CHECK_MS = 2_000;

export interface Operations {
  registry: Registry;
  /** Counts the sockets connected to this process. */
  socketConnections: Gauge;
  /** Bytes of uploads stored. */
  uploadBytes: Counter;
  /** True once SIGTERM arrived: /readyz says 503 so the load balancer sends new work elsewhere. */
  draining: boolean;
}

const withTimeout = <T>(promise: Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });

/** A storage whose successful uploads are counted. */
export function countedStorage(storage: Storage, ops: Pick<Operations, 'uploadBytes'>): Storage {
  return {
    ...storage,
    async put(key, source, options) {
      const stored = await storage.put(key, source, options);
      ops.uploadBytes.inc(stored.size);
      return stored;
    },
  };
}

export function createOperations(): Operations {
  const registry = new Registry();
  return {
    registry,
    socketConnections: new Gauge({
      name: 'idv_socket_connections',
      help: 'socket.io connections open on this process',
      registers: [registry],
    }),
    uploadBytes: new Counter({
      name: 'idv_upload_bytes_total',
      help: 'Bytes of files stored (document pages, recordings, photos)',
      registers: [registry],
    }),
    draining: false,
  };
}

/**
 * GET /healthz (the process is alive), GET /readyz (database, Redis and storage answer; 503 while draining)
 * and GET /metrics (Prometheus, bearer METRICS_TOKEN; 404 when no token is configured). Request counts and
 * latency histograms are taken by route pattern (never the raw address, which holds ids and signatures).
 */
export function installOperations(
  app: FastifyInstance,
  ctx: AppContext,
  ops: Operations,
  deps: { redis?: Redis },
): void {
  const { registry } = ops;
  const requests = new Counter({
    name: 'idv_http_requests_total',
    help: 'HTTP requests answered, by method, route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'idv_http_request_duration_seconds',
    help: 'HTTP request latency by method and route',
    labelNames: ['method', 'route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: 'idv_calls',
    help: 'Video calls by status (all companies)',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      const rows = await ctx.db
        .select({ status: videoCalls.status, n: sql<number>`count(*)::int` })
        .from(videoCalls)
        .groupBy(videoCalls.status);
      this.reset();
      for (const row of rows)
        this.set({ status: CALL_STATUSES[row.status] ?? String(row.status) }, Number(row.n));
    },
  });
  new Gauge({
    name: 'idv_waiting_customers',
    help: 'Customers connected and waiting in a queue (all companies)',
    registers: [registry],
    async collect() {
      const rows = await ctx.db
        .selectDistinct({ companyId: videoCalls.companyId })
        .from(videoCalls)
        .where(eq(videoCalls.status, CALL_STATUS_WAITING));
      let waiting = 0;
      for (const row of rows) waiting += (await ctx.calls.queue(row.companyId)).length;
      this.set(waiting);
    },
  });
  new Gauge({
    name: 'idv_webhook_deliveries',
    help: 'Webhook deliveries by status (pending, succeeded, failed)',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      const rows = await ctx.db
        .select({ status: webhookDeliveries.status, n: sql<number>`count(*)::int` })
        .from(webhookDeliveries)
        .groupBy(webhookDeliveries.status);
      this.reset();
      for (const row of rows) this.set({ status: row.status }, Number(row.n));
    },
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { method: request.method, route };
    requests.inc({ ...labels, status: String(reply.statusCode) });
    latency.observe(labels, reply.elapsedTime / 1000);
  });

  const token = ctx.config.metricsToken ? Buffer.from(`Bearer ${ctx.config.metricsToken}`) : null;
  const tokenMatches = (header: string | undefined) => {
    if (!token || !header) return false;
    const given = Buffer.from(header);
    return given.length === token.length && timingSafeEqual(given, token);
  };

  const routes: FastifyPluginAsyncZod = async (r) => {
    r.get(
      '/healthz',
      {
        config: { access: PUBLIC },
        schema: {
          tags: ['Operations'],
          description: 'The process is alive.',
          response: { 200: z.object({ status: z.literal('ok') }) },
        },
      },
      async () => ({ status: 'ok' as const }),
    );
    r.get(
      '/readyz',
      {
        config: { access: PUBLIC },
        schema: {
          tags: ['Operations'],
          description:
            'The database, Redis (distributed mode) and the storage answer; 503 otherwise or while stopping.',
          response: {
            200: z.object({ status: z.literal('ready'), checks: z.record(z.string(), z.string()) }),
            503: z.object({ status: z.literal('unavailable'), checks: z.record(z.string(), z.string()) }),
          },
        },
      },
      async (_request, reply) => {
        const checks: Record<string, string> = {};
        const check = async (name: string, run: () => Promise<unknown>) => {
          try {
            await withTimeout(run(), CHECK_MS);
            checks[name] = 'ok';
          } catch (error) {
            checks[name] = `failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 200);
          }
        };
        await Promise.all([
          check('database', () => ctx.db.execute(sql`select 1`)),
          check('storage', () => ctx.storage.ping()),
          ...(deps.redis ? [check('redis', () => (deps.redis as Redis).ping())] : []),
        ]);
        if (ops.draining) checks.process = 'stopping';
        const ready = Object.values(checks).every((v) => v === 'ok');
        if (ready) return { status: 'ready' as const, checks };
        return reply.code(503).send({ status: 'unavailable' as const, checks });
      },
    );
    r.get(
      '/metrics',
      {
        config: { access: PUBLIC },
        schema: { tags: ['Operations'], description: 'Prometheus metrics (bearer METRICS_TOKEN).' },
      },
      async (request, reply) => {
        if (!token) throw notFound();
        if (!tokenMatches(request.headers.authorization)) throw unauthorized('Invalid metrics token');
        return reply.type(registry.contentType).send(await registry.metrics());
      },
    );
  };
  void app.register(routes);
}
