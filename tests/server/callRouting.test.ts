/**
 * One-at-a-time routing against the real server with socket.io clients: a waiting call is
 * offered to one free agent only, passes to the next when the offer lapses, an answer of an agent it is not
 * offered to is refused, the customer's language decides who is offered first, and the agents' queue (the
 * supervisor's view) says who is being offered.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { QueuedCall } from '#contract/socket';
import { auditLog, callOffers, companies, users, videoCalls } from '../../server/db/schema';
import { bearer, FAST_CALLS, makeAgents, PASSWORDS, type TestApp, tokenFor } from './helpers';
import { type ClientSocket, connectTo, type LiveApp, liveApp, next } from './liveSockets';

let live: LiveApp;
let t: TestApp;
let adminToken = '';
let sockets: ClientSocket[] = [];

beforeAll(async () => {
  live = await liveApp({ calls: FAST_CALLS });
  t = live.t;
  adminToken = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await live.close();
});
beforeEach(async () => {
  // Each test starts from the company's default routing, with no change of it audited yet: the one-at-a-time
  // tests set their own.
  await t.app.ctx.db
    .update(companies)
    .set({ callRouting: 'ring_all', offerSeconds: 15, joinLinkRetries: 1 })
    .where(eq(companies.id, 1));
  await t.app.ctx.db.delete(auditLog).where(eq(auditLog.action, 'call_routing_changed'));
});
afterEach(async () => {
  // Each test starts with nobody connected and nobody Online: the previous test's agents are no candidates.
  for (const s of sockets) s.disconnect();
  sockets = [];
  await t.app.ctx.db.update(users).set({ agentStatus: 'Offline' }).where(eq(users.companyId, 1));
  await new Promise((r) => setTimeout(r, 300));
});

/** A socket of this test: it is closed after the test. */
const connect = (auth: Record<string, unknown>) => connectTo(live.url, sockets, auth);

/** Every `call.incoming` a socket hears, as it comes. */
function collect(socket: ClientSocket): QueuedCall[] {
  const heard: QueuedCall[] = [];
  socket.on('call.incoming', (call) => heard.push(call));
  return heard;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A staff socket of an Online agent (statuses set through the desk, as the studio does). */
async function onlineAgent(userId: number): Promise<ClientSocket> {
  const token = await t.app.ctx.tokens.signSocket({ user_id: userId, company_id: 1 });
  const socket = await connect({ token });
  await t.app.ctx.calls.setAgentStatus(1, userId, 'Online');
  return socket;
}

/** The admin's socket: a supervisor watching the queue (Offline: never offered a call). */
async function supervisor(): Promise<ClientSocket> {
  const [admin] = await t.app.ctx.db.select().from(users).where(eq(users.email, 'admin@acme.test'));
  const token = await t.app.ctx.tokens.signSocket({ user_id: admin?.id as number, company_id: 1 });
  return connect({ token });
}

async function waitingCustomer(profile: number, language?: 'en-US' | 'tr') {
  const link = await t.app.inject({
    method: 'POST',
    url: '/api/v2/profile/url',
    headers: bearer(adminToken),
    payload: { profile },
  });
  const { token } = link.json() as { token: string };
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v2/videocall',
    headers: bearer(token),
    payload: { profile, status: 0, ...(language ? { consent: { language } } : {}) },
  });
  expect(created.statusCode).toBe(201);
  const call = created.json() as { id: number; room_id: string };
  const socket = await connect({ customer: token, call_id: call.id });
  return { call, socket };
}

/** One-at-a-time routing, with an offer of `seconds` (below the API's bounds for a quick test: set directly). */
async function oneAtATime(seconds: number) {
  const put = await t.app.inject({
    method: 'PUT',
    url: '/api/v2/call_routing',
    headers: bearer(adminToken),
    payload: { call_routing: 'one_at_a_time', offer_seconds: 5 },
  });
  expect(put.statusCode).toBe(200);
  await t.app.ctx.db.update(companies).set({ offerSeconds: seconds }).where(eq(companies.id, 1));
}

const offersOf = (callId: number) =>
  t.app.ctx.db.select().from(callOffers).where(eq(callOffers.callId, callId)).orderBy(asc(callOffers.id));

describe('the call routing setting', () => {
  it('is ring_all with 15 seconds by default; an Admin changes it, audited', async () => {
    const before = await t.app.inject({
      method: 'GET',
      url: '/api/v2/call_routing',
      headers: bearer(adminToken),
    });
    expect(before.json()).toEqual({ call_routing: 'ring_all', offer_seconds: 15, join_link_retries: 1 });
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/v2/call_routing',
      headers: bearer(adminToken),
      payload: { call_routing: 'one_at_a_time', offer_seconds: 20 },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ call_routing: 'one_at_a_time', offer_seconds: 20, join_link_retries: 1 });
    const [audit] = await t.app.ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'call_routing_changed'), eq(auditLog.companyId, 1)));
    expect(audit?.before).toEqual({ call_routing: 'ring_all', offer_seconds: 15, join_link_retries: 1 });
    expect(audit?.after).toEqual({ call_routing: 'one_at_a_time', offer_seconds: 20, join_link_retries: 1 });
    const reset = await t.app.inject({
      method: 'PUT',
      url: '/api/v2/call_routing',
      headers: bearer(adminToken),
      payload: { call_routing: 'ring_all', offer_seconds: 15 },
    });
    expect(reset.statusCode).toBe(200);
  });

  it('stores an agent’s languages from administration and lists them', async () => {
    const [id] = await makeAgents(t.app, 'lang', [[]]);
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/v2/user/${id}`,
      headers: bearer(adminToken),
      payload: { password: PASSWORDS.admin, languages: ['tr', 'en-US'] },
    });
    expect(patch.statusCode).toBe(200);
    expect(patch.json().languages).toEqual(['en-US', 'tr']);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/v2/user?search=lang0',
      headers: bearer(adminToken),
    });
    expect(list.json().results[0].languages).toEqual(['en-US', 'tr']);
    const twice = await t.app.inject({
      method: 'PATCH',
      url: `/api/v2/user/${id}`,
      headers: bearer(adminToken),
      payload: { password: PASSWORDS.admin, languages: ['tr', 'tr'] },
    });
    expect(twice.statusCode).toBe(400);
  });
});

describe('one agent at a time', () => {
  it('offers the call to one agent only; the supervisor sees whom; another agent’s answer is refused', async () => {
    await oneAtATime(30);
    const ids = await makeAgents(t.app, 'one', [[], [], []]);
    const agents = await Promise.all(ids.map((id) => onlineAgent(id)));
    const heard = agents.map((a) => collect(a));
    const watcher = await supervisor();
    const offered = next(watcher, 'call.offer', (c) => c.offer != null);
    const { call } = await waitingCustomer(3);
    const offer = await offered;
    expect(offer.call_id).toBe(call.id);
    const chosen = offer.offer?.agent_id as number;
    expect(ids).toContain(chosen);
    expect(offer.offer?.agent_name).toMatch(/^Agent one\d$/);
    await pause(300);
    // call.incoming reached the chosen agent alone.
    expect(heard.map((h) => h.length)).toEqual(ids.map((id) => (id === chosen ? 1 : 0)));
    expect(heard[ids.indexOf(chosen)]?.[0]?.offer?.agent_id).toBe(chosen);
    // The supervisor's queue says who is being offered the call.
    const synced = await watcher.emitWithAck('queue.sync');
    expect(synced.ok && synced.calls.find((c) => c.call_id === call.id)?.offer?.agent_id).toBe(chosen);

    const other = agents[ids.findIndex((id) => id !== chosen)] as ClientSocket;
    expect(await other.emitWithAck('call.answer', { call_id: call.id })).toEqual({
      ok: false,
      detail: 'This call is offered to another agent',
    });
    expect((await agents[ids.indexOf(chosen)]?.emitWithAck('call.answer', { call_id: call.id }))?.ok).toBe(
      true,
    );
  });

  it('passes the call to the next agent when the offer lapses, and round again after everyone had it', async () => {
    await oneAtATime(1);
    const ids = await makeAgents(t.app, 'lapse', [[], []]);
    const agents = await Promise.all(ids.map((id) => onlineAgent(id)));
    const watcher = await supervisor();
    const offers: number[] = [];
    watcher.on('call.offer', (c) => {
      if (c.offer) offers.push(c.offer.agent_id);
    });
    const { call } = await waitingCustomer(4);
    await pause(2_600);
    // Both agents had it once before anyone had it twice.
    expect(offers.length).toBeGreaterThanOrEqual(3);
    expect(new Set(offers.slice(0, 2)).size).toBe(2);
    const current = offers[offers.length - 1] as number;
    const lapsed = ids.find((id) => id !== current) as number;
    // The agent whose offer lapsed is refused; the one offered now takes it.
    const refused = await agents[ids.indexOf(lapsed)]?.emitWithAck('call.answer', { call_id: call.id });
    expect(refused).toEqual({ ok: false, detail: 'This call is offered to another agent' });
    const rows = await offersOf(call.id);
    expect(rows.map((r) => r.agentId)).toEqual(offers.slice(0, rows.length));
  });

  it('offers the call first to an agent who speaks the customer’s language, else to any, and records why', async () => {
    await oneAtATime(1);
    const [turkish, english] = await makeAgents(t.app, 'speaks', [['tr'], ['en-US']]);
    await onlineAgent(turkish as number);
    await onlineAgent(english as number);
    const watcher = await supervisor();
    const second = next(watcher, 'call.offer', (c) => c.offer?.agent_id === english);
    const { call } = await waitingCustomer(5, 'tr');
    await second;
    const rows = await offersOf(call.id);
    expect(rows[0]).toMatchObject({ agentId: turkish, language: 'tr', languageMatched: true, candidates: 1 });
    // Once the Turkish speaker let it lapse, nobody left speaks Turkish: any free agent (recorded as such).
    expect(rows[1]).toMatchObject({ agentId: english, language: 'tr', languageMatched: false });
  });

  it('offers the call to the agent who answered the fewest calls in the last hour, counting no older call', async () => {
    await oneAtATime(30);
    const [busier, rested] = (await makeAgents(t.app, 'hour', [[], []])) as [number, number];
    const now = Date.now();
    const finished = (agentId: number, minutesAgo: number, roomId: string) => ({
      companyId: 1,
      profileId: 15,
      agentId,
      roomId,
      status: 3,
      callStartTime: new Date(now - minutesAgo * 60_000),
      callEndTime: new Date(now - minutesAgo * 60_000 + 30_000),
    });
    // One call within the hour for one agent; two, but older than an hour, for the other.
    const earlier = await t.app.ctx.db
      .insert(videoCalls)
      .values([
        finished(busier, 10, 'hour-recent'),
        finished(rested, 61, 'hour-old-1'),
        finished(rested, 120, 'hour-old-2'),
      ])
      .returning({ id: videoCalls.id });
    try {
      await onlineAgent(busier);
      await onlineAgent(rested);
      const watcher = await supervisor();
      const offers: QueuedCall[] = [];
      watcher.on('call.offer', (c) => offers.push(c));
      const { call } = await waitingCustomer(16);
      await expect
        .poll(() => offers.find((c) => c.call_id === call.id && c.offer)?.offer?.agent_id, {
          timeout: 15_000,
        })
        .toBe(rested);
      const [row] = await offersOf(call.id);
      expect(row).toMatchObject({ agentId: rested, candidates: 2, fewestCalls: 0 });
    } finally {
      await t.app.ctx.db.delete(videoCalls).where(
        inArray(
          videoCalls.id,
          earlier.map((r) => r.id),
        ),
      );
    }
  });

  it('never offers two calls at once to one agent while customers join together', async () => {
    await oneAtATime(30);
    const ids = await makeAgents(t.app, 'together', [[], [], []]);
    const agents = await Promise.all(ids.map((id) => onlineAgent(id)));
    const heard = agents.map((a) => collect(a));
    const watcher = await supervisor();
    const announced = new Map<number, number | null>();
    watcher.on('call.offer', (c) => announced.set(c.call_id, c.offer?.agent_id ?? null));
    const joined = await Promise.all(
      [7, 8, 9, 10, 11, 12, 13, 14].map((profile) => waitingCustomer(profile)),
    );
    // Every call is announced to the agents: three offered, one to each agent, the rest waiting for one.
    await expect
      .poll(() => joined.every(({ call }) => announced.has(call.id)), { timeout: 15_000 })
      .toBe(true);
    await expect.poll(() => heard.flat().length, { timeout: 15_000 }).toBe(3);
    expect(heard.map((h) => h.length)).toEqual([1, 1, 1]);
    const offered = [...announced.values()].filter((agent) => agent !== null);
    expect(offered.sort()).toEqual([...ids].sort());
    const rows = await Promise.all(joined.map(({ call }) => offersOf(call.id)));
    expect(
      rows
        .flat()
        .map((r) => r.agentId)
        .sort(),
    ).toEqual([...ids].sort());
  });

  it('passes the offer on when the offered agent goes away, and offers it to an agent who comes', async () => {
    await oneAtATime(30);
    const [first, later] = await makeAgents(t.app, 'away', [[], []]);
    await onlineAgent(first as number);
    const watcher = await supervisor();
    const toFirst = next(watcher, 'call.offer', (c) => c.offer?.agent_id === first);
    const { call } = await waitingCustomer(6);
    await toFirst;
    const nobody = next(watcher, 'call.offer', (c) => c.call_id === call.id && c.offer === null);
    await t.app.ctx.calls.setAgentStatus(1, first as number, 'Break');
    await nobody;
    const toLater = next(watcher, 'call.offer', (c) => c.offer?.agent_id === later);
    const socket = await onlineAgent(later as number);
    const rung = next(socket, 'call.incoming');
    await toLater;
    expect((await rung).call_id).toBe(call.id);
  });
});
