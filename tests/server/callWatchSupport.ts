/**
 * A live call for watch tests: a test app listening on a port, staff and customer sockets that record what they
 * hear, and a call created by its customer and answered by its agent through the desk, as the studio does.
 */
import { expect } from 'vitest';
import { FAST_CALLS } from './helpers';
import { type ClientSocket, type LiveApp, liveApp } from './liveSockets';

export { heardOf } from './liveSockets';

export const WATCH_ICE = {
  urls: ['stun:stun.example.com:3478', 'turn:turn.example.com:3478?transport=udp'],
  secret: 'watch-test-secret',
  credentialTtlSeconds: 900,
  transportPolicy: 'all' as const,
};

export interface WatchWorld extends LiveApp {
  /** A call of `profile` answered by `agent` (whose socket is given), talking. */
  liveCall(
    agent: { socket: ClientSocket },
    profile: number,
  ): Promise<{ callId: number; room: string; customer: Awaited<ReturnType<LiveApp['customer']>> }>;
}

/** `watchGraceMs`: how long a watcher's channel may stay empty before the watch ends (the agents' grace). */
export async function watchWorld(watchGraceMs = 60_000): Promise<WatchWorld> {
  const live = await liveApp({
    calls: { ...FAST_CALLS, agentGraceMs: watchGraceMs, customerGraceMs: 60_000, unattachedCallMs: 60_000 },
    ice: WATCH_ICE,
  });
  return {
    ...live,
    async liveCall(agent, profile) {
      const customer = await live.customer(profile);
      await expect
        .poll(async () => (await agent.socket.emitWithAck('call.answer', { call_id: customer.call.id })).ok)
        .toBe(true);
      return { callId: customer.call.id, room: customer.call.room_id, customer };
    },
  };
}
