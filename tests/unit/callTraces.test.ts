/**
 * Where a waiting call's trace is kept between its ring and its answer: in memory, and (distributed mode) in
 * Redis, so the answer on another process continues the same trace. Nothing is kept when tracing is off.
 */
import { type Span, trace } from '@opentelemetry/api';
import { tracing } from '@opentelemetry/sdk-node';
import { describe, expect, it } from 'vitest';
import { createCallTraces } from '../../server/realtime/callDesk/traces';

/** A recording span, from a tracer provider of the test's own (nothing registered globally). */
function recordingSpan(): Span {
  return new tracing.BasicTracerProvider().getTracer('test').startSpan('call_desk.ring');
}

/** The few Redis commands the store uses, over a Map. */
function fakeRedis() {
  const values = new Map<string, string>();
  const calls: string[] = [];
  return {
    values,
    calls,
    redis: {
      async set(key: string, value: string) {
        calls.push(`set ${key}`);
        values.set(key, value);
        return 'OK' as const;
      },
      async get(key: string) {
        calls.push(`get ${key}`);
        return values.get(key) ?? null;
      },
      async del(key: string) {
        calls.push(`del ${key}`);
        return values.delete(key) ? 1 : 0;
      },
    },
  };
}

describe('call traces', () => {
  it("continues the ring's span in this process until the call leaves the queue", async () => {
    const traces = createCallTraces();
    const ring = recordingSpan();
    traces.keep(7, ring);
    const kept = await traces.of(7);
    if (!kept) throw new Error('the trace was not kept');
    expect(trace.getSpanContext(kept)).toEqual(ring.spanContext());
    traces.forget(7);
    expect(await traces.of(7)).toBeUndefined();
  });

  it('keeps nothing for a span that does not record (tracing off)', async () => {
    const shared = fakeRedis();
    const traces = createCallTraces(shared.redis as never);
    traces.keep(7, trace.wrapSpanContext(recordingSpan().spanContext()));
    expect(shared.calls).toEqual([]);
    expect(await createCallTraces().of(7)).toBeUndefined();
  });

  it('hands the trace to another process through Redis as a traceparent', async () => {
    const shared = fakeRedis();
    const ringing = createCallTraces(shared.redis as never);
    const answering = createCallTraces(shared.redis as never);
    const ring = recordingSpan();
    ringing.keep(9, ring);
    await expect.poll(() => shared.values.size).toBe(1);
    const { traceId, spanId } = ring.spanContext();
    expect([...shared.values.values()]).toEqual([`00-${traceId}-${spanId}-01`]);
    const handed = await answering.of(9);
    if (!handed) throw new Error('the trace was not handed over');
    const remote = trace.getSpanContext(handed);
    expect(remote).toMatchObject({ traceId, spanId, traceFlags: 1, isRemote: true });
    answering.forget(9);
    await expect.poll(() => shared.values.size).toBe(0);
  });

  it('ignores a damaged value in Redis', async () => {
    const shared = fakeRedis();
    shared.values.set('idv:desk:trace:5', '00-not-a-trace');
    expect(await createCallTraces(shared.redis as never).of(5)).toBeUndefined();
  });
});
