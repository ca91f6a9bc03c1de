import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { HOUR_MS } from '#contract/time';
import { type AccessLogger, type AccessRead, createAccessLogger, pruneAccessLog } from '../domain/accessLog';

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's buffer of reads of personal data (server/domain/accessLog.ts). */
    accessLog: AccessLogger;
  }
}

/**
 * Notes a read of a person's data by the caller of `request` (or by `actorId`, for a request without a token such
 * as a signed file address). Costs the request a push onto a buffer.
 */
export function recordRead(
  request: FastifyRequest,
  read: Omit<AccessRead, 'actorId' | 'ip'> & { actorId?: number },
): void {
  request.server.accessLog.add({
    ...read,
    actorId: read.actorId ?? request.principal?.id ?? null,
    ip: request.ip ?? null,
  });
}

/**
 * The access log of this process: its buffer, written every ACCESS_LOG_FLUSH_MS and at close (after the last
 * request, before the database closes), and the hourly pruning of reads older than ACCESS_LOG_RETENTION_DAYS (several processes may prune at
 * once: the chain lock serialises them).
 */
export const accessLogPlugin = fp(async (app) => {
  const { ctx } = app;
  const { evidence } = ctx.config;
  const logger = createAccessLogger(ctx.db, {
    flushMs: evidence.accessLogFlushMs,
    onError: (error) => app.log.error({ err: error }, 'access log write failed'),
  });
  app.decorate('accessLog', logger);
  logger.start();
  const prune = setInterval(() => {
    pruneAccessLog(ctx.db, evidence.accessLogRetentionDays).catch((error) =>
      app.log.error({ err: error }, 'access log pruning failed'),
    );
  }, HOUR_MS);
  prune.unref();
  // After the last request has been answered (a stopping process still answers what reaches it while the load
  // balancer moves away) and before the database closes (its hook was added first, so it runs last).
  app.addHook('onClose', async () => {
    clearInterval(prune);
    await logger.stop();
  });
});
