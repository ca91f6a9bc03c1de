import fp from 'fastify-plugin';
import { corsOriginCheck } from '../http/cors';
import { createHub, type RealtimeHub } from '../realtime/hub';
import { sessionRoom } from '../realtime/rooms';

declare module 'fastify' {
  interface FastifyInstance {
    hub: RealtimeHub;
  }
}

/**
 * The socket.io hub on the HTTP server, and the services that push through it. Closed before the requests in
 * flight finish (`preClose`), without a "server disconnect", so clients reconnect (to another process if any).
 */
export const socketHubPlugin = fp(async (app) => {
  const { ctx, ops, cluster } = app;
  const hub = createHub(app.server, {
    db: ctx.db,
    tokens: ctx.tokens,
    calls: ctx.calls,
    ice: ctx.callIce,
    ipAllowList: ctx.ipAllowList,
    proxyTrust: ctx.proxyTrust,
    corsOrigins: corsOriginCheck(ctx.config),
    sessions: { isActive: (claims) => ctx.sessions.check(ctx.db, claims) },
    onError: (error) => app.log.error({ err: error }, 'socket handler failed'),
    statsEveryMs: ctx.config.calls.statsEveryMs,
    cluster: cluster ? { adapter: cluster.adapter, sweepMs: cluster.sweepMs } : undefined,
    onConnection: (change) => ops.socketConnections.inc(change),
    watchGraceMs: ctx.config.calls.agentGraceMs,
  });
  app.decorate('hub', hub);
  ctx.sessions.onEnded((ids) => hub.io.in(ids.map(sessionRoom)).disconnectSockets(true));
  ctx.profileWatch.bind(hub.io);
  ctx.reviewFeed.bind(hub.io);
  ctx.userPush.bind(hub.io);
  app.addHook('preClose', async () => hub.close());
});
