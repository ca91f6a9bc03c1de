/** W3C `traceparent` (version 00): the one form a trace's context takes across processes and in requests. */
export const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The trace id of a well-formed `traceparent` header; anything else is no trace. */
export function traceIdOf(header: string | string[] | undefined): string | undefined {
  return typeof header === 'string' ? TRACEPARENT.exec(header)?.[1] : undefined;
}
