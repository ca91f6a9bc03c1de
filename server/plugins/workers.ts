import fp from 'fastify-plugin';
import { startErasureJob } from '../domain/erasure';
import { startRetentionJob } from '../domain/evidenceRetention';

/**
 * The background work of this process: webhook delivery, the mail queue's hand-over to the relay, and the
 * evidence retention sweep. Each can run in several processes at once (they claim their rows), and each stops
 * when the server closes, before the database does.
 */
export const workersPlugin = fp(async (app) => {
  const { ctx } = app;
  const { config } = ctx;

  // A write may have enqueued webhook events or mail (committed by the time it is answered): look at once.
  app.addHook('onResponse', async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      ctx.webhooks.kick();
      ctx.mailWorker?.kick();
    }
  });

  app.addHook('preClose', async () => ctx.webhooks.stop());
  if (config.webhooks.worker) ctx.webhooks.start();

  app.addHook('preClose', async () => ctx.mailWorker?.stop());
  if (config.mail.worker) ctx.mailWorker?.start();

  // Evidence past its company's retention period is deleted.
  const retention = startRetentionJob(ctx.db, ctx.storage, config.evidence.retentionSweepMs, (error) =>
    app.log.error({ err: error }, 'evidence retention failed'),
  );
  app.addHook('onClose', async () => retention.stop());

  // Erasures whose retained evidence has reached its day.
  const erasures = startErasureJob(ctx.db, ctx.storage, config.evidence.erasureSweepMs, (error) =>
    app.log.error({ err: error }, 'erasure job failed'),
  );
  app.addHook('onClose', async () => erasures.stop());
});
