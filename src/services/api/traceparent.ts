/**
 * W3C Trace Context for the studio's requests: each request starts a trace of its own, whose id the server's
 * spans of that request join (docs/operators/tracing.md). The studio records no spans itself; the id is what
 * ties what the browser saw (its network panel) to the server's trace.
 */

const hex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** Random bytes, none of them all zero (an all-zero trace or span id is invalid). */
function randomId(length: number): string {
  const bytes = new Uint8Array(length);
  do crypto.getRandomValues(bytes);
  while (bytes.every((byte) => byte === 0));
  return hex(bytes);
}

/**
 * A new `traceparent`: version 00, a new trace id and parent id, sampled (flag 01), so a server that samples
 * by its parent keeps the request's spans.
 */
export function newTraceparent(): string {
  return `00-${randomId(16)}-${randomId(8)}-01`;
}

/** The trace id of a `traceparent` (what a trace backend is searched by). */
export const traceIdOf = (traceparent: string): string => traceparent.split('-')[1] ?? '';
