import {
  type Attributes,
  type Context,
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';

/**
 * Hand-made spans where no instrumentation exists (the socket layer and the call desk). Without a started SDK
 * (server/telemetry/start.ts) the API hands out non-recording spans: a few function calls, nothing kept.
 */
const tracer = trace.getTracer('idv-studio');

export interface SpanOptions {
  attributes?: Attributes;
  /** The span's parent instead of the active span (a call's stored trace). */
  parent?: Context;
  /** A socket event a client sent is the start of server work, like a request. */
  kind?: SpanKind;
}

/**
 * Runs `work` in a new span that is active meanwhile (queries and emits inside are its children), ended when
 * the work settles; a thrown error is recorded on it and thrown on.
 */
export function inSpan<T>(name: string, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  const parent = options.parent ?? context.active();
  return tracer.startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes },
    parent,
    async (span) => {
      try {
        return await work(span);
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

export { SpanKind };

/** The ids a log line carries when a recording span is active (pino's mixin); nothing otherwise. */
export function activeTraceFields(): { trace_id?: string; span_id?: string; trace_flags?: string } {
  const span = trace.getActiveSpan();
  if (!span?.isRecording()) return {};
  const { traceId, spanId, traceFlags } = span.spanContext();
  return { trace_id: traceId, span_id: spanId, trace_flags: `0${traceFlags.toString(16)}`.slice(-2) };
}

/** What every span about a call carries, so a backend finds one call's spans by its id. */
export const callAttributes = (companyId: number, callId: number): Attributes => ({
  'idv.company_id': companyId,
  'idv.call_id': callId,
});
