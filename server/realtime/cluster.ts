import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import type { ServerOptions } from 'socket.io';
import { createSharedDesk, LEASE_MS, type SharedDesk } from './shared';

/** Distributed mode's connections (REDIS_URL): one client for commands and publishing, one for subscribing. */
export interface Cluster {
  redis: Redis;
  adapter: ServerOptions['adapter'];
  shared: SharedDesk;
  /** How often the desk refreshes its lease and looks for the calls of processes that died. */
  sweepMs: number;
  close(): Promise<void>;
}

export async function openCluster(redisUrl: string): Promise<Cluster> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 3, lazyConnect: true });
  const subscriber = redis.duplicate();
  await Promise.all([redis.connect(), subscriber.connect()]);
  const shared = createSharedDesk(redis);
  await shared.heartbeat();
  return {
    redis,
    // A process that does not answer a cluster-wide request (fetchSockets) within 3 s is left out.
    adapter: createAdapter(redis, subscriber, { requestsTimeout: 3_000 }),
    shared,
    sweepMs: Math.floor(LEASE_MS / 3),
    async close() {
      await shared.leave().catch(() => undefined);
      await Promise.allSettled([redis.quit(), subscriber.quit()]);
    },
  };
}
