/**
 * Tracing end to end: the server started as operators start it (`server/main.ts`, OTEL_EXPORTER_OTLP_ENDPOINT
 * set) exports its spans over OTLP/HTTP to a receiver in this process (tests/support/otlpReceiver.ts; no
 * OpenTelemetry Collector installs here). A customer joins, an agent answers over real sockets, and one trace
 * holds the join, the desk, the ring and the answer with their parent links; a request's `traceparent` is
 * joined by the server's spans and named by its log lines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueuedCall } from '#contract/socket';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from '../support/otlpReceiver';
import { type ClientSocket, connectTo } from './liveSockets';
import { type MainProcess, startMainProcess } from './mainProcess';

/** Trace and parent ids the test's "browser" sends. */
const BROWSER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const BROWSER_SPAN = '00f067aa0ba902b7';

let receiver: OtlpReceiver;
let server: MainProcess;
let url = '';
/** The server's stdout, line by line (JSON log lines among them). */
let output: string[] = [];
const sockets: ClientSocket[] = [];

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  server = await startMainProcess({
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    // Spans leave the process a tenth of a second after they end, not five seconds.
    OTEL_BSP_SCHEDULE_DELAY: '100',
  });
  url = server.url;
  output = server.output;
}, 120_000);

afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await server?.stop();
  await receiver?.close();
});

async function call<T>(method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return (await response.json()) as T;
}

async function signIn(username: string, password: string): Promise<string> {
  return (await call<{ access: string }>('POST', '/api/v1/login/', { body: { username, password } })).access;
}

const connect = (auth: Record<string, unknown>, listen?: (socket: ClientSocket) => void) =>
  connectTo(url, sockets, auth, listen);

/** Waits until the receiver holds a span matching `where`. */
async function received(where: (span: ReceivedSpan) => boolean): Promise<ReceivedSpan> {
  await expect.poll(() => receiver.spans.some(where), { timeout: 20_000 }).toBe(true);
  return receiver.spans.find(where) as ReceivedSpan;
}

describe('traces', () => {
  it("follows one call from the customer's join through the desk and the ring to the agent's answer", async () => {
    const admin = await signIn('admin@acme.test', 'Admin@2026');
    const agent = await signIn('agent@acme.test', 'User@2026');
    await call('POST', '/api/v2/videocall/agent_status', { token: agent, body: { status: 'Online' } });
    const { token: socketToken } = await call<{ token: string }>('POST', '/api/v2/user/socket_token', {
      token: agent,
      body: { studio: true },
    });
    let ringing: (call: QueuedCall) => void = () => {};
    const incoming = new Promise<QueuedCall>((resolve) => {
      ringing = resolve;
    });
    const agentSocket = await connect({ token: socketToken }, (socket) =>
      socket.on('call.incoming', ringing),
    );

    const link = await call<{ token: string }>('POST', '/api/v2/profile/url', {
      token: admin,
      body: { profile: 1 },
    });
    const created = await call<{ id: number }>('POST', '/api/v2/videocall', {
      token: link.token,
      body: { profile: 1, status: 0 },
    });
    await connect({ customer: link.token, call_id: created.id });
    expect((await incoming).call_id).toBe(created.id);
    const answered = await agentSocket.emitWithAck('call.answer', { call_id: created.id });
    expect(answered.ok).toBe(true);

    const ofCall = (name: string) => (span: ReceivedSpan) =>
      span.name === name && span.attributes['idv.call_id'] === created.id;
    const deskAnswer = await received(ofCall('call_desk.answer'));
    const join = await received(ofCall('socket customer.join'));
    const desk = await received(ofCall('call_desk.customer_connected'));
    const queue = await received(ofCall('call_desk.queue'));
    const ring = await received(ofCall('call_desk.ring'));
    const socketAnswer = await received(ofCall('socket call.answer'));

    // One trace, every hop the child of the one before.
    for (const span of [desk, queue, ring, socketAnswer, deskAnswer]) expect(span.traceId).toBe(join.traceId);
    expect(join.parentSpanId).toBe('');
    expect(desk.parentSpanId).toBe(join.spanId);
    expect(queue.parentSpanId).toBe(desk.spanId);
    expect(ring.parentSpanId).toBe(desk.spanId);
    expect(socketAnswer.parentSpanId).toBe(ring.spanId);
    expect(deskAnswer.parentSpanId).toBe(socketAnswer.spanId);
    expect(deskAnswer.attributes['idv.answer']).toBe('taken');
    expect(socketAnswer.attributes['idv.agent_id']).toBeTypeOf('number');
    expect(join.resource['service.name']).toBe('idv-studio');
  });

  it("joins the trace of an incoming traceparent, and the request's log lines name it", async () => {
    const response = await fetch(`${url}/api/v1/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${BROWSER_TRACE}-${BROWSER_SPAN}-01` },
      body: JSON.stringify({ username: 'viewer@acme.test', password: 'User@2026' }),
    });
    expect(response.status).toBe(200);
    // The HTTP server span is the browser span's child; fastify's request span is in the same trace.
    const httpSpan = await received(
      (span) => span.traceId === BROWSER_TRACE && span.parentSpanId === BROWSER_SPAN,
    );
    expect(httpSpan.kind).toBe(2);
    const route = await received(
      (span) => span.traceId === BROWSER_TRACE && span.scope === '@fastify/otel' && span.name === 'request',
    );
    expect(route.parentSpanId).toBe(httpSpan.spanId);
    expect(route.attributes['http.route']).toBe('/api/v1/login/');

    const logged = output
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { trace_id?: string; span_id?: string; msg?: string });
    expect(logged.filter((line) => line.trace_id === BROWSER_TRACE).length).toBeGreaterThan(0);

    // Probes are not traced: a load balancer's checks would drown the requests. A request after the probe
    // has its spans exported, so the probe's would have been too.
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    const after = `00-${'5'.repeat(32)}-${BROWSER_SPAN}-01`;
    await fetch(`${url}/api/v2/no-such-route`, { headers: { traceparent: after } });
    await received((span) => span.traceId === '5'.repeat(32));
    const probed = (span: ReceivedSpan) =>
      Object.values(span.attributes).some((value) => String(value).endsWith('/healthz'));
    expect(receiver.spans.filter(probed)).toEqual([]);
  });
});
