/**
 * The studio's socket layer (src/services/socket.ts) against the real hub: machine events from server events,
 * and what happens after a dropped connection (re-joined rooms, a re-synced queue, a fresh token).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRealtime, type Realtime, type RealtimeEvent } from '../../src/services/socket';
import { FAST_CALLS, PASSWORDS, type TestApp, talkingCall, tokenFor, userId } from './helpers';
import { type LiveApp, liveApp } from './liveSockets';

let live: LiveApp;
let t: TestApp;
const opened: Realtime[] = [];

beforeAll(async () => {
  // The agent's drop below outlasts FAST_CALLS' 100 ms grace: past it, the server would close the agent's call.
  live = await liveApp({ calls: { ...FAST_CALLS, agentGraceMs: 5_000 } });
  t = live.t;
});
afterAll(async () => {
  for (const realtime of opened) realtime.close();
  await live.close();
});

async function studioSocket(email: string, password: string) {
  const access = await tokenFor(t.app, email, password);
  let tokens = 0;
  const events: RealtimeEvent[] = [];
  const realtime = connectRealtime({
    server: live.url,
    socketToken: () => {
      tokens += 1;
      return live.socketToken(access);
    },
  });
  opened.push(realtime);
  realtime.subscribe((event) => events.push(event));
  return { realtime, events, tokens: () => tokens };
}

const dropTransport = async (email: string) => {
  const response = await t.app.inject({ method: 'POST', url: `/api/dev/sockets/drop?email=${email}` });
  expect(response.json().dropped).toBeGreaterThan(0);
};

describe('the studio socket layer', () => {
  it('turns server events into machine events: status, stats and the queue on connect', async () => {
    const { realtime, events } = await studioSocket('agent@acme.test', PASSWORDS.user);
    await expect
      .poll(() => events.map((e) => e.type))
      .toEqual(expect.arrayContaining(['AGENT.STATUS', 'STATS.UPDATE', 'QUEUE.SYNC']));
    expect(realtime.latestStats()?.agents.length).toBeGreaterThan(0);
    await expect(realtime.answer(999_999)).rejects.toMatchObject({ detail: 'Call Already Answered' });
  });

  it('after a drop: Connection lost, a fresh token, the call room re-joined, the queue re-synced', async () => {
    const agent = await studioSocket('agent@acme.test', PASSWORDS.user);
    await expect.poll(() => agent.events.some((e) => e.type === 'QUEUE.SYNC')).toBe(true);
    // A call the agent answered, and its customer connected (in the call's room from the start).
    const {
      callId,
      room,
      customer: token,
    } = await talkingCall(t.app, await userId(t.app, 'agent@acme.test'));
    const customer = await live.connect({ customer: token, call_id: callId });
    await agent.realtime.join(room);
    const heard: unknown[] = [];
    agent.realtime.onSignal(room, (data) => heard.push(data));

    const syncsBefore = agent.events.filter((e) => e.type === 'QUEUE.SYNC').length;
    const tokensBefore = agent.tokens();
    await dropTransport('agent@acme.test');
    await expect.poll(() => agent.events.map((e) => e.type)).toContain('CONNECTION.LOST');
    await expect
      .poll(() => agent.events.map((e) => e.type), { timeout: 10_000 })
      .toContain('CONNECTION.RESTORED');
    expect(agent.tokens()).toBeGreaterThan(tokensBefore);
    await expect
      .poll(() => agent.events.filter((e) => e.type === 'QUEUE.SYNC').length)
      .toBeGreaterThan(syncsBefore);

    // The room was joined again before anyone was told: signals of a running call reach the agent.
    await customer.emitWithAck('signal.send', { room, data: { type: 'candidate', n: 1 } });
    await expect.poll(() => heard).toEqual([{ type: 'candidate', n: 1 }]);
    customer.disconnect();
  });
});
