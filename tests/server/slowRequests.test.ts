import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers';

/**
 * A request slower than SLOW_REQUEST_MS is logged as a warning with its route and the trace id the studio sent,
 * so an answer a user waited on can be found in the log. Here every request counts as slow (threshold 0), or
 * none does.
 */
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

describe('slow requests', () => {
  const lines: string[] = [];
  let everySlow: TestApp;
  let noneSlow: TestApp;
  const warnings = () =>
    lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((l) => l.msg === 'slow request');

  beforeAll(async () => {
    const logStream = { write: (line: string) => void lines.push(line) };
    everySlow = await startTestApp({ logLevel: 'warn', slowRequestMs: 0 }, { logStream });
    noneSlow = await startTestApp({ logLevel: 'warn', slowRequestMs: 60_000 }, { logStream });
  });
  afterAll(async () => {
    await everySlow?.close();
    await noneSlow?.close();
  });

  it('names the method, route, status, time and the trace of a well-formed traceparent', async () => {
    lines.length = 0;
    const traced = await everySlow.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` },
    });
    expect(traced.statusCode).toBe(200);
    const [warning] = warnings();
    expect(warning).toMatchObject({
      level: 40,
      method: 'GET',
      route: '/healthz',
      status: 200,
      trace: TRACE_ID,
    });
    expect(typeof warning?.ms).toBe('number');
  });

  it('leaves out a malformed traceparent rather than logging what the client sent', async () => {
    lines.length = 0;
    await everySlow.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { traceparent: 'not-a-trace\nforged' },
    });
    const [warning] = warnings();
    expect(warning?.route).toBe('/healthz');
    expect(warning).not.toHaveProperty('trace');
  });

  it('writes nothing for a request within the threshold', async () => {
    lines.length = 0;
    const answer = await noneSlow.app.inject({ method: 'GET', url: '/healthz' });
    expect(answer.statusCode).toBe(200);
    expect(warnings()).toEqual([]);
  });
});
