import fp from 'fastify-plugin';
import { sweepStorage } from '../domain/evidence';

/** An S3 store is shared by several processes: what is younger than this may be another one's upload in flight. */
const SHARED_STORE_GRACE_MS = 3_600_000;

/** At start, what a crash in the middle of an upload left in storage (partial files, files nothing references) goes. */
export const storageSweepPlugin = fp(async (app) => {
  const { ctx } = app;
  const before = new Date(Date.now() - (ctx.config.s3 ? SHARED_STORE_GRACE_MS : 0));
  const swept = await sweepStorage(ctx.db, ctx.storage, before, (error) =>
    app.log.warn({ err: error }, 'storage sweep failed'),
  );
  if (swept.partial + swept.unreferenced > 0)
    app.log.info(swept, 'storage: removed what interrupted uploads left behind');
});
