/**
 * The metrics an operator's dashboard and alert rules read (deploy/grafana, deploy/prometheus): each moves when
 * its event happens, and every metric the dashboard and the rules query is one the server exports.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, videoCalls, webhookEndpoints } from '../../server/db/schema';
import { createCall } from '../../server/domain/videocalls/lifecycle';
import { uploadRecording } from '../server/evidenceUploads';
import {
  bearer,
  FAST_CALLS,
  PASSWORDS,
  post,
  startTestApp,
  type TestApp,
  talkingCall,
  tokenFor,
  userId,
} from '../server/helpers';

const TOKEN = 'metrics-token-for-the-deploy-test';
const ROOT = join(import.meta.dirname, '../..');
const WEBM = Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(1024, 7)]);

let t: TestApp;
let admin: string;
let adminId: number;

beforeAll(async () => {
  // A customer who drops is gone at once (the missed call); the agent, who has no socket here, stays Online.
  t = await startTestApp({ metricsToken: TOKEN, calls: { ...FAST_CALLS, agentGraceMs: 600_000 } });
  admin = await tokenFor(t.app, 'admin@acme.test', PASSWORDS.admin);
  adminId = await userId(t.app, 'admin@acme.test');
});
afterAll(async () => {
  await t?.close();
});

interface Scrape {
  text: string;
  /** The value of the sample `series` (name and labels as the exposition writes them), or undefined. */
  value(series: string): number | undefined;
  /** Every metric name a query may use: the families, and a histogram's _bucket, _sum and _count. */
  names: Set<string>;
}

async function scrape(): Promise<Scrape> {
  const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(TOKEN) });
  expect(response.statusCode).toBe(200);
  const text = response.body;
  const samples = new Map<string, number>();
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      const [, name, kind] = type as unknown as [string, string, string];
      names.add(name);
      if (kind === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
      if (kind === 'summary') for (const suffix of ['_sum', '_count']) names.add(name + suffix);
      continue;
    }
    const sample = /^(\S+?(?:\{.*\})?) (\S+)$/.exec(line);
    if (sample && !line.startsWith('#')) samples.set(sample[1] as string, Number(sample[2]));
  }
  return { text, names, value: (series) => samples.get(series) };
}

describe('the metrics of the dashboard and the alerts', () => {
  it('measure the queue, the answer, the end of calls and recording uploads as they happen', async () => {
    const before = await scrape();
    expect(before.value('idv_waiting_customers')).toBe(0);
    expect(before.value('idv_queue_oldest_wait_seconds')).toBe(0);
    expect(before.value('idv_call_answer_seconds_count')).toBe(0);

    // A customer waiting 90 seconds.
    const call = await createCall(t.app.ctx.db, 1, 1);
    await t.app.ctx.db
      .update(videoCalls)
      .set({ createdAt: new Date(Date.now() - 90_000) })
      .where(eq(videoCalls.id, call.id));
    await t.app.ctx.calls.customerConnected(1, 1, call.id, async () => true);
    const waiting = await scrape();
    expect(waiting.value('idv_waiting_customers')).toBe(1);
    expect(waiting.value('idv_queue_oldest_wait_seconds')).toBeGreaterThanOrEqual(90);

    // An agent answers: ring to answer took those 90 seconds.
    await t.app.ctx.calls.setAgentStatus(1, adminId, 'Online');
    expect(await t.app.ctx.calls.answer(1, adminId, call.id)).toMatchObject({ ok: true });
    await expect.poll(async () => (await scrape()).value('idv_call_answer_seconds_count')).toBe(1);
    const answered = await scrape();
    expect(answered.value('idv_call_answer_seconds_sum')).toBeGreaterThanOrEqual(90);
    expect(answered.value('idv_call_answer_seconds_bucket{le="60"}')).toBe(0);
    expect(answered.value('idv_call_answer_seconds_bucket{le="120"}')).toBe(1);
    expect(answered.value('idv_waiting_customers')).toBe(0);

    // Its recording: stored once; the same again is refused (the client's); a storage that fails: failed.
    await uploadRecording(t.app, admin, call.id, WEBM);
    const again = await t.app.inject({
      method: 'PATCH',
      url: `/api/v2/videocall/${call.id}`,
      headers: { ...bearer(admin), 'content-type': 'multipart/form-data; boundary=b' },
      payload: `--b\r\nContent-Disposition: form-data; name="file"; filename="c.webm"\r\n\r\nx\r\n--b--\r\n`,
    });
    expect(again.statusCode).toBe(409);
    const other = await talkingCall(t.app, adminId, 2);
    const storage = t.app.ctx.storage;
    const put = storage.put;
    storage.put = async () => {
      throw new Error('the bucket does not answer');
    };
    try {
      const failed = await t.app.inject({
        method: 'PATCH',
        url: `/api/v2/videocall/${other.callId}`,
        headers: { ...bearer(admin), 'content-type': 'multipart/form-data; boundary=b' },
        payload: Buffer.concat([
          Buffer.from('--b\r\nContent-Disposition: form-data; name="file"; filename="c.webm"\r\n\r\n'),
          WEBM,
          Buffer.from('\r\n--b--\r\n'),
        ]),
      });
      expect(failed.statusCode).toBe(500);
    } finally {
      storage.put = put;
    }
    const uploads = await scrape();
    expect(uploads.value('idv_recording_uploads_total{result="stored"}')).toBe(1);
    expect(uploads.value('idv_recording_uploads_total{result="refused"}')).toBe(1);
    expect(uploads.value('idv_recording_uploads_total{result="failed"}')).toBe(1);

    // Three ends: the agent's status, an admin's close, a customer who left before an answer.
    const set = await t.app.inject({
      method: 'PUT',
      url: `/api/v2/videocall/${call.id}`,
      headers: bearer(admin),
      payload: { status: 3 },
    });
    expect(set.statusCode, set.body).toBe(200);
    const closed = await post(
      t.app,
      `/api/v2/videocall/${other.callId}/close`,
      { status: 4, reason: 'The agent cannot finish this call' },
      admin,
    );
    expect(closed.status).toBe(200);
    const left = await createCall(t.app.ctx.db, 1, 3);
    await t.app.ctx.calls.customerConnected(1, 3, left.id, async () => true);
    t.app.ctx.calls.customerDisconnected(1, left.id);
    await expect.poll(async () => (await scrape()).value('idv_calls_ended_total{reason="missed"}')).toBe(1);
    const ended = await scrape();
    expect(ended.value('idv_calls_ended_total{reason="status_set"}')).toBe(1);
    expect(ended.value('idv_calls_ended_total{reason="closed_by_admin"}')).toBe(1);
  });

  it('count disabled webhook endpoints, the mail queue and whether the process is ready', async () => {
    const before = await scrape();
    const disabledBefore = before.value('idv_webhook_endpoints{state="disabled"}') ?? 0;
    await t.app.ctx.db.insert(webhookEndpoints).values({
      companyId: 1,
      url: 'https://hooks.example.com/idv',
      secret: 'sealed-elsewhere',
      isActive: false,
      disabledReason: 'failing for three days',
      failingSince: new Date(Date.now() - 3 * 86_400_000),
    });
    await t.app.ctx.db.insert(mailOutbox).values({
      to: 'someone@example.com',
      subject: 'Your code',
      body: 'Your code is ******',
      attempts: 2,
      lastError: '451 try again later',
      createdAt: new Date(Date.now() - 600_000),
    });
    const after = await scrape();
    expect(after.value('idv_webhook_endpoints{state="disabled"}')).toBe(disabledBefore + 1);
    expect(after.value('idv_mail_outbox{status="queued",retried="true"}')).toBeGreaterThanOrEqual(1);
    expect(after.value('idv_mail_oldest_queued_seconds')).toBeGreaterThanOrEqual(600);

    expect(after.value('idv_ready')).toBe(1);
    t.app.ops.draining = true;
    try {
      expect((await scrape()).value('idv_ready')).toBe(0);
    } finally {
      t.app.ops.draining = false;
    }
  });

  it('include every metric the dashboard and the alert rules query', async () => {
    const { names } = await scrape();
    const dashboard = JSON.parse(
      readFileSync(join(ROOT, 'deploy/grafana/studio-dashboard.json'), 'utf8'),
    ) as {
      panels: { targets?: { expr: string }[] }[];
    };
    const dashboardExprs = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((t) => t.expr));
    const rules = readFileSync(join(ROOT, 'deploy/prometheus/alerts.yml'), 'utf8');
    const ruleExprs = [...rules.matchAll(/^\s+expr: (.+)$/gm)].map((match) => match[1] as string);
    const used = (exprs: string[]) =>
      new Set(
        exprs.flatMap((expr) =>
          [...expr.matchAll(/\b(?:idv|process|nodejs)_[a-z0-9_]+\b/g)].map((m) => m[0]),
        ),
      );

    const fromDashboard = used(dashboardExprs);
    const fromRules = used(ruleExprs);
    expect([...fromDashboard].filter((name) => !names.has(name))).toEqual([]);
    expect([...fromRules].filter((name) => !names.has(name))).toEqual([]);
    // What the dashboard must show, one metric each at least.
    for (const name of [
      'idv_waiting_customers',
      'idv_queue_oldest_wait_seconds',
      'idv_call_answer_seconds_bucket',
      'idv_calls_ended_total',
      'idv_webhook_deliveries',
      'idv_webhook_endpoints',
      'idv_mail_outbox',
      'idv_http_request_duration_seconds_bucket',
      'idv_socket_connections',
      'idv_recording_uploads_total',
      'idv_ready',
    ])
      expect(fromDashboard, name).toContain(name);
    expect(ruleExprs).toHaveLength(9);
  });
});
