import { timingSafeEqual } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { z } from 'zod';
import { CALL_STATUSES } from '#contract/common';
import { CALL_STATUS_WAITING } from '#contract/constants';
import type { AppContext } from '../context';
import { mailOutbox, videoCalls, webhookDeliveries, webhookEndpoints } from '../db/schema';
import { notFound, unauthorized } from '../errors';
import type { Storage } from '../storage/storage';
import { traceIdOf } from '../telemetry/traceparent';
import { PUBLIC } from './access';
import { backupToken } from './backupToken';

/** What GET /readyz checks, each with a time limit. */
const CHECK_MS = 2_000;

export interface Operations {
  registry: Registry;
  /** Counts the sockets connected to this process. */
  socketConnections: Gauge;
  /** Bytes of uploads stored. */
  uploadBytes: Counter;
  /**
   * Calls that reached their end, by how: `status_set` (the agent gave the final status), `missed` (the
   * customer left before an answer), or the CALL_END_REASONS code of a close the agent did not make.
   */
  callsEnded: Counter<'reason'>;
  /** Recording uploads by result: stored, refused (the client's fault: 4xx) or failed (the server's: 5xx). */
  recordingUploads: Counter<'result'>;
  /** True once SIGTERM arrived: /readyz says 503 so the load balancer sends new work elsewhere. */
  draining: boolean;
  /** The embedded database (PGlite) as a gzipped tarball, taken while it runs; unset on PostgreSQL. */
  dumpDatabase: (() => Promise<Uint8Array>) | undefined;
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

/**
 * The Node.js process's own metrics (memory, CPU, event loop lag, GC), once per process: their collectors
 * (an event loop monitor, a GC observer) live as long as the process, so several apps in one process (tests)
 * share them instead of each leaving its own behind.
 */
let processRegistry: Registry | null = null;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export function createOperations(options: { dumpDatabase?: () => Promise<Uint8Array> } = {}): Operations {
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
    callsEnded: new Counter({
      name: 'idv_calls_ended_total',
      help: 'Calls ended on this process, by reason (status_set, missed, or the reason of a close)',
      labelNames: ['reason'],
      registers: [registry],
    }),
    recordingUploads: new Counter({
      name: 'idv_recording_uploads_total',
      help: 'Call recording uploads by result (stored, refused: 4xx, failed: 5xx)',
      labelNames: ['result'],
      registers: [registry],
    }),
    draining: false,
    dumpDatabase: options.dumpDatabase,
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
  /** Every company's waiting calls whose customer is connected. */
  const waitingCalls = async () => {
    const rows = await ctx.db
      .selectDistinct({ companyId: videoCalls.companyId })
      .from(videoCalls)
      .where(eq(videoCalls.status, CALL_STATUS_WAITING));
    const waiting = [];
    for (const row of rows) waiting.push(...(await ctx.calls.queue(row.companyId)));
    return waiting;
  };
  new Gauge({
    name: 'idv_waiting_customers',
    help: 'Customers connected and waiting in a queue (all companies)',
    registers: [registry],
    async collect() {
      this.set((await waitingCalls()).length);
    },
  });
  new Gauge({
    name: 'idv_queue_oldest_wait_seconds',
    help: 'How long the customer waiting longest (any company) has waited; 0 with nobody waiting',
    registers: [registry],
    async collect() {
      const oldest = Math.min(...(await waitingCalls()).map((call) => Date.parse(call.created_at)));
      this.set(Number.isFinite(oldest) ? Math.max(0, (Date.now() - oldest) / 1000) : 0);
    },
  });
  const answerSeconds = new Histogram({
    name: 'idv_call_answer_seconds',
    help: 'From the customer joining the queue to an agent answering, for calls answered on this process',
    buckets: [1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1200],
    registers: [registry],
  });
  // The answer happens on one process (the database arbitrates), so each call is observed once.
  ctx.calls.onEvent((event) => {
    if (event.kind !== 'answered') return;
    ctx.db
      .select({ created: videoCalls.createdAt, answered: videoCalls.callStartTime })
      .from(videoCalls)
      .where(eq(videoCalls.id, event.callId))
      .then(([call]) => {
        if (call?.answered) answerSeconds.observe((call.answered.getTime() - call.created.getTime()) / 1000);
      })
      .catch((error: unknown) => app.log.warn({ err: error }, 'answer time not measured'));
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
  new Gauge({
    name: 'idv_webhook_endpoints',
    help: 'Webhook endpoints by state (healthy, failing, disabled by the server, off by their company)',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const rows = await ctx.db
        .select({
          state: sql<string>`case when ${webhookEndpoints.disabledReason} is not null then 'disabled'
            when not ${webhookEndpoints.isActive} then 'off'
            when ${webhookEndpoints.failingSince} is not null then 'failing' else 'healthy' end`,
          n: sql<number>`count(*)::int`,
        })
        .from(webhookEndpoints)
        .groupBy(sql`1`);
      this.reset();
      for (const state of ['healthy', 'failing', 'disabled', 'off']) this.set({ state }, 0);
      for (const row of rows) this.set({ state: row.state }, Number(row.n));
    },
  });
  new Gauge({
    name: 'idv_mail_outbox',
    help: 'Mail queue by status (queued: waiting or retrying, sent, failed) and whether it was tried before',
    labelNames: ['status', 'retried'],
    registers: [registry],
    async collect() {
      const rows = await ctx.db
        .select({
          status: mailOutbox.status,
          retried: sql<boolean>`${mailOutbox.attempts} > 0`,
          n: sql<number>`count(*)::int`,
        })
        .from(mailOutbox)
        .groupBy(sql`1`, sql`2`);
      this.reset();
      for (const status of ['queued', 'sent', 'failed'])
        for (const retried of ['true', 'false']) this.set({ status, retried }, 0);
      for (const row of rows) this.set({ status: row.status, retried: String(row.retried) }, Number(row.n));
    },
  });
  new Gauge({
    name: 'idv_mail_oldest_queued_seconds',
    help: 'Age of the oldest message still queued for the mail relay; 0 with none',
    registers: [registry],
    async collect() {
      const [row] = await ctx.db
        .select({ oldest: sql<string | null>`min(${mailOutbox.createdAt})` })
        .from(mailOutbox)
        .where(eq(mailOutbox.status, 'queued'));
      const oldest = row?.oldest ? new Date(row.oldest).getTime() : Number.NaN;
      this.set(Number.isFinite(oldest) ? Math.max(0, (Date.now() - oldest) / 1000) : 0);
    },
  });
  new Gauge({
    name: 'idv_ready',
    help: 'What GET /readyz says: 1 ready, 0 not (a dependency fails or the process is stopping)',
    registers: [registry],
    async collect() {
      this.set((await readiness()).ready ? 1 : 0);
    },
  });

  /** The checks of GET /readyz, each with a time limit. */
  async function readiness(): Promise<{ ready: boolean; checks: Record<string, string> }> {
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
    return { ready: Object.values(checks).every((v) => v === 'ok'), checks };
  }

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { method: request.method, route };
    requests.inc({ ...labels, status: String(reply.statusCode) });
    latency.observe(labels, reply.elapsedTime / 1000);
    if (reply.elapsedTime >= ctx.config.slowRequestMs) {
      const trace = traceIdOf(request.headers.traceparent);
      request.log.warn(
        {
          method: request.method,
          route,
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
          ...(trace ? { trace } : {}),
        },
        'slow request',
      );
    }
  });

  const token = ctx.config.metricsToken ? Buffer.from(`Bearer ${ctx.config.metricsToken}`) : null;
  const tokenMatches = (header: string | undefined) => {
    if (!token || !header) return false;
    const given = Buffer.from(header);
    return given.length === token.length && timingSafeEqual(given, token);
  };

  const backup = Buffer.from(`Bearer ${backupToken(ctx.config.jwtSecret)}`);
  const backupTokenMatches = (header: string | undefined) => {
    if (!header) return false;
    const given = Buffer.from(header);
    return given.length === backup.length && timingSafeEqual(given, backup);
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
        const { ready, checks } = await readiness();
        if (ready) return { status: 'ready' as const, checks };
        return reply.code(503).send({ status: 'unavailable' as const, checks });
      },
    );
    r.get(
      '/backup/database',
      {
        config: { access: PUBLIC },
        schema: {
          tags: ['Operations'],
          description:
            'The embedded database (PGlite) as a gzipped tarball of its data folder, taken while the server runs ' +
            '(scripts/backup.ts). Bearer: the backup token derived from the server secret. 404 on PostgreSQL ' +
            '(pg_dump backs it up).',
        },
      },
      async (request, reply) => {
        const dump = ops.dumpDatabase;
        if (!dump) throw notFound();
        if (!backupTokenMatches(request.headers.authorization)) throw unauthorized('Invalid backup token');
        const bytes = await dump();
        request.log.info({ bytes: bytes.byteLength }, 'database backup taken');
        return reply
          .type('application/gzip')
          .header('content-disposition', 'attachment; filename="pglite.tar.gz"')
          .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
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
        const [own, node] = await Promise.all([registry.metrics(), processMetrics().metrics()]);
        return reply.type(registry.contentType).send(`${own}\n${node}`);
      },
    );
  };
  void app.register(routes);
}
