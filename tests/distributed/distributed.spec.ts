import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { Redis } from 'ioredis';
import pg from 'pg';
import { CALL_STATUS_MISSED, CALL_STATUS_TALKING, CALL_STATUS_WAITING } from '#contract/constants';
import {
  api,
  type ClientSocket,
  connected,
  customerCall,
  login,
  type OnlineAgent,
  onlineAgent,
  socketOf,
} from '../../bench/calls';
import { distURL } from '../../playwright.distributed.config';
import { BUCKET, METRICS_TOKEN, PIN_COOKIE, S3_KEY } from '../../scripts/cluster';
import { answerAndTalk, endWithStatus, goOnline, joinLink } from '../e2e/callSupport';
import { DEMO } from '../e2e/support';
import { RACE_AGENTS } from './setup';

/**
 * The studio scaled out on a real deployment: two server processes on PostgreSQL, Redis and s3rver behind
 * nginx. nginx pins a client to a process by the cookie `idv_backend` (a or b), falling back to the other
 * when it is down.
 */
test.describe.configure({ mode: 'serial' });

interface ServerInfo {
  name: string;
  url: string;
  pid: number;
}
const servers = (): ServerInfo[] => JSON.parse(process.env.DIST_SERVERS ?? '[]');
const pin = (name: string) => ({ cookie: `${PIN_COOKIE}=${name}` });
const ADMIN = { email: 'admin@acme.test', password: 'Admin@2026' };

/** The process that answered a request of the page (nginx's X-Upstream header) is the one pinned. */
async function pinnedPage(browser: Browser, name: string): Promise<Page> {
  const context = await browser.newContext({
    baseURL: distURL,
    permissions: ['camera', 'microphone'],
    locale: 'en-US',
  });
  await context.addCookies([{ name: PIN_COOKIE, value: name, url: distURL }]);
  const page = await context.newPage();
  const upstream = (await page.request.get('/healthz')).headers()['x-upstream'];
  const server = servers().find((s) => s.name === name);
  expect(server && upstream).toBe(server?.url.replace('http://', ''));
  return page;
}

/** Sockets connected to one process (its own /metrics, read directly, not through nginx). */
async function socketsOn(server: ServerInfo): Promise<number> {
  const text = await (
    await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
  ).text();
  return Number(/^idv_socket_connections (\d+)/m.exec(text)?.[1] ?? Number.NaN);
}

const sockets: ClientSocket[] = [];
test.afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});

test('an agent on one process and a customer on the other hold a call; the recording lands in S3', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const PROFILE = 3;
  const agent = await goOnline(await pinnedPage(browser, 'a'), DEMO.agent);
  const link = await joinLink(agent, PROFILE);
  const customer = await pinnedPage(browser, 'b');
  await customer.goto(link);
  await customer.getByRole('button', { name: 'I agree', exact: true }).click();
  await customer.getByRole('button', { name: 'Join the call', exact: true }).click();
  await expect(customer.getByTestId('queue-position')).toHaveText(/You are number 1 in the queue/);
  // The customer's socket is on b, the agent's on a: the ring crossed processes over Redis.
  await expect(agent.getByRole('alertdialog')).toContainText('Incoming video call');
  // WebRTC signalling crosses processes too: both sides see each other's video.
  await answerAndTalk(agent, customer, PROFILE);
  await endWithStatus(agent, 'Complete');
  await expect(customer.getByRole('heading', { name: 'The call has ended' })).toBeVisible();
  await expect(agent.getByText('Video call status updated successfully')).toBeVisible({ timeout: 30_000 });

  // The recording is an object of the S3 bucket, and its signed address streams it through nginx.
  const s3 = new S3Client({
    endpoint: process.env.DIST_S3_ENDPOINT,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: S3_KEY, secretAccessKey: S3_KEY },
  });
  await expect
    .poll(
      async () =>
        (await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'recordings/' }))).Contents?.filter(
          (o) => (o.Size ?? 0) > 0,
        ).length ?? 0,
      { timeout: 30_000 },
    )
    .toBe(1);
  const token = await login(distURL, ADMIN.email, ADMIN.password);
  const calls = await api<{ results: { recorded_file: string | null }[] }>(
    distURL,
    token,
    'GET',
    `/api/v2/videocall?profile=${PROFILE}&limit=1`,
  );
  const file = calls.results[0]?.recorded_file;
  expect(file).toMatch(/\/storage\/recordings\//);
  const download = await fetch(file as string);
  expect(download.status).toBe(200);
  const bytes = Buffer.from(await download.arrayBuffer());
  expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));
  await agent.context().close();
  await customer.context().close();
});

test('20 agents answering one call at once, on both processes: exactly one wins', async () => {
  const [a, b] = servers() as [ServerInfo, ServerInfo];
  const heard = new Map<number, Set<number>>();
  const agents: OnlineAgent[] = [];
  for (let n = 1; n <= RACE_AGENTS; n++) {
    const agent = await onlineAgent(
      distURL,
      `dist-agent-${n}@acme.test`,
      'User@2026',
      (socket) =>
        socket.on('call.incoming', (call) => {
          const set = heard.get(call.call_id) ?? new Set();
          set.add(n);
          heard.set(call.call_id, set);
        }),
      { headers: pin(n % 2 ? 'a' : 'b') },
    );
    sockets.push(agent.socket);
    agents.push(agent);
  }
  // Half the agents' sockets are on each process.
  expect(await socketsOn(a)).toBeGreaterThanOrEqual(RACE_AGENTS / 2);
  expect(await socketsOn(b)).toBeGreaterThanOrEqual(RACE_AGENTS / 2);

  const admin = await login(distURL, ADMIN.email, ADMIN.password);
  const call = await customerCall(distURL, admin, 4);
  let answeredTold = 0;
  const customer = socketOf(
    distURL,
    { customer: call.token, call_id: call.callId },
    (s) => s.on('call.answered', () => answeredTold++),
    { headers: pin('a') },
  );
  sockets.push(customer);
  await connected(customer);
  await expect.poll(() => heard.get(call.callId)?.size ?? 0).toBe(RACE_AGENTS);

  const replies = await Promise.all(
    agents.map((agent) => agent.socket.timeout(30_000).emitWithAck('call.answer', { call_id: call.callId })),
  );
  const winners = replies.flatMap((reply, i) => (reply.ok ? [agents[i] as OnlineAgent] : []));
  expect(winners).toHaveLength(1);
  expect(replies.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.detail))).toEqual(
    Array(RACE_AGENTS - 1).fill('Call Already Answered'),
  );
  const winner = winners[0] as OnlineAgent;
  const db = new pg.Client({ connectionString: process.env.DIST_DATABASE_URL });
  await db.connect();
  const row = await db.query('SELECT status, agent_id FROM video_calls WHERE id = $1', [call.callId]);
  await db.end();
  expect(row.rows).toEqual([{ status: CALL_STATUS_TALKING, agent_id: winner.id }]);
  await expect.poll(() => answeredTold).toBe(1);

  // The winner is in a call on every process's view; the same agent cannot take a second call elsewhere.
  const second = await customerCall(distURL, admin, 5);
  const other = socketOf(distURL, { customer: second.token, call_id: second.callId }, undefined, {
    headers: pin('b'),
  });
  sockets.push(other);
  await connected(other);
  await expect.poll(() => heard.get(second.callId)?.size ?? 0).toBe(RACE_AGENTS);
  expect(await winner.socket.emitWithAck('call.answer', { call_id: second.callId })).toEqual({
    ok: false,
    detail: 'You are already in a call',
  });
  expect(await winner.socket.emitWithAck('call.hangup', { call_id: call.callId })).toEqual({ ok: true });
  await api(distURL, winner.token, 'PUT', `/api/v2/videocall/${call.callId}`, { status: 3 });
  // Free again: the second call is the winner's (answered through the other process's customer).
  expect(await winner.socket.emitWithAck('call.answer', { call_id: second.callId })).toMatchObject({
    ok: true,
  });
  expect(await winner.socket.emitWithAck('call.hangup', { call_id: second.callId })).toEqual({ ok: true });
  await api(distURL, winner.token, 'PUT', `/api/v2/videocall/${second.callId}`, { status: 3 });
});

test('a process killed mid-queue loses no waiting customer: they re-join and keep their place', async () => {
  const [, b] = servers() as [ServerInfo, ServerInfo];
  const admin = await login(distURL, ADMIN.email, ADMIN.password);
  const agent = await onlineAgent(distURL, 'dist-agent-1@acme.test', 'User@2026', undefined, {
    headers: pin('a'),
  });
  sockets.push(agent.socket);
  const cancelled: number[] = [];
  agent.socket.on('call.cancelled', (event) => cancelled.push(event.call_id));

  // Six customers waiting, alternately on a and b, reconnecting as the customer page does; a seventh on b
  // whose browser closes with the process (it never comes back: its call must end MISSED, not wait forever).
  const positions = new Map<number, number>();
  const waiting: number[] = [];
  for (let i = 0; i < 6; i++) {
    const call = await customerCall(distURL, admin, 10 + i);
    const socket = socketOf(
      distURL,
      { customer: call.token, call_id: call.callId },
      (s) => s.on('queue.position', (event) => positions.set(event.call_id, event.position)),
      { headers: pin(i % 2 ? 'b' : 'a'), reconnect: true },
    );
    sockets.push(socket);
    await connected(socket);
    waiting.push(call.callId);
  }
  const gone = await customerCall(distURL, admin, 20);
  const goneSocket = socketOf(distURL, { customer: gone.token, call_id: gone.callId }, undefined, {
    headers: pin('b'),
  });
  sockets.push(goneSocket);
  await connected(goneSocket);
  const queueNow = async () =>
    (
      (await agent.socket.timeout(10_000).emitWithAck('queue.sync')) as { calls: { call_id: number }[] }
    ).calls.map((c) => c.call_id);
  await expect.poll(queueNow).toEqual([...waiting, gone.callId]);

  // b dies without a word (SIGKILL): no graceful stop, no lease given back.
  process.kill(b.pid, 'SIGKILL');
  await expect.poll(async () => (await fetch(`${b.url}/healthz`).catch(() => null))?.ok ?? false).toBe(false);

  // The closed browser's call ends MISSED once the survivor adopts it (lease expired, then the grace period).
  const db = new pg.Client({ connectionString: process.env.DIST_DATABASE_URL });
  await db.connect();
  try {
    await expect
      .poll(
        async () =>
          (await db.query('SELECT status FROM video_calls WHERE id = $1', [gone.callId])).rows[0]?.status,
        { timeout: 40_000 },
      )
      .toBe(CALL_STATUS_MISSED);
    // Every other customer is still waiting, in the same order, and hears its place again.
    expect(await queueNow()).toEqual(waiting);
    const rows = await db.query('SELECT id, status FROM video_calls WHERE id = ANY($1) ORDER BY id', [
      waiting,
    ]);
    expect(rows.rows.map((r) => r.status)).toEqual(waiting.map(() => CALL_STATUS_WAITING));
    expect(cancelled).toEqual([gone.callId]);
    await expect.poll(() => waiting.map((id) => positions.get(id))).toEqual([1, 2, 3, 4, 5, 6]);
    // All presence now belongs to the survivor.
    const redis = new Redis(process.env.DIST_REDIS_URL as string);
    const [key] = await redis.keys('idv:desk:present:*');
    const owners = new Set(Object.values(await redis.hgetall(key as string)));
    await redis.quit();
    expect(owners.size).toBe(1);
  } finally {
    await db.end();
  }

  // The agent answers the second customer (it waited on b): the call goes on through the survivor.
  expect(await agent.socket.emitWithAck('call.answer', { call_id: waiting[1] as number })).toMatchObject({
    ok: true,
  });
});
