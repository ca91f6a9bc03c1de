import { type Context, ROOT_CONTEXT, type Span, type SpanContext, trace } from '@opentelemetry/api';
import type { Redis } from 'ioredis';
import { TRACEPARENT } from '../../telemetry/traceparent';

/**
 * Where a waiting call's trace goes on: the span that offered it to the agents (the ring), kept until the call
 * leaves the queue, so the agent's answer, which arrives on another socket and maybe another process, becomes
 * the ring's child and one trace shows the customer's join, the desk, the ring and the answer
 * (docs/decisions/0210-traces-end-to-end.md). Nothing is kept for a span that does not record (tracing off).
 */
export interface CallTraces {
  /** The call was offered in `span`. */
  keep(callId: number, span: Span): void;
  /** The context an answer of the call continues in; undefined when the call was not traced (or is gone). */
  of(callId: number): Promise<Context | undefined>;
  /** The call left the queue (answered, missed, closed). */
  forget(callId: number): void;
  close(): void;
}

/** Distributed mode: kept as long as a waiting call can wait, then dropped by Redis. */
const SHARED_TTL_SECONDS = 24 * 60 * 60;
const sharedKey = (callId: number) => `idv:desk:trace:${callId}`;

/** The context as a W3C `traceparent`, the one form it takes across processes. */
const traceparentOf = ({ traceId, spanId, traceFlags }: SpanContext) =>
  `00-${traceId}-${spanId}-${`0${traceFlags.toString(16)}`.slice(-2)}`;

function contextOf(traceparent: string | null): Context | undefined {
  const match = traceparent ? TRACEPARENT.exec(traceparent) : null;
  if (!match) return undefined;
  const [, traceId = '', spanId = '', flags = '00'] = match;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId,
    spanId,
    traceFlags: Number.parseInt(flags, 16),
    isRemote: true,
  });
}

/**
 * This process's calls in memory; with Redis (distributed mode), also in Redis, so the process an agent's answer
 * reaches finds the trace of a call another process rang. A failure to reach Redis costs the link, never the call.
 */
export function createCallTraces(redis?: Pick<Redis, 'set' | 'get' | 'del'>): CallTraces {
  const local = new Map<number, Context>();
  return {
    keep(callId, span) {
      if (!span.isRecording()) return;
      local.set(callId, trace.setSpan(ROOT_CONTEXT, span));
      redis
        ?.set(sharedKey(callId), traceparentOf(span.spanContext()), 'EX', SHARED_TTL_SECONDS)
        .catch(() => {});
    },
    async of(callId) {
      const kept = local.get(callId);
      if (kept || !redis) return kept;
      return contextOf(await redis.get(sharedKey(callId)).catch(() => null));
    },
    forget(callId) {
      // Most calls were never traced: nothing to delete in Redis for them.
      if (!local.delete(callId) && !redis) return;
      redis?.del(sharedKey(callId)).catch(() => {});
    },
    close() {
      local.clear();
    },
  };
}
