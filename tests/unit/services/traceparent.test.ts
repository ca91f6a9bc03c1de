/**
 * The studio's requests start a W3C trace of their own (`traceparent`) that the server's spans join; the
 * payment service, another party, hears none.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStore } from '../../../src/services/accounts';
import { createHttp } from '../../../src/services/api/http';
import { newTraceparent, traceIdOf } from '../../../src/services/api/traceparent';
import { MemoryStorage, sampleAccount } from '../../support/memoryStorage';

const TRACEPARENT = /^00-(?!0{32})[0-9a-f]{32}-(?!0{16})[0-9a-f]{16}-01$/;

let server: Server;
let origin = '';
const seen: (string | undefined)[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(request.headers.traceparent as string | undefined);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('traceparent', () => {
  it('is version 00, sampled, with ids that are never all zero', () => {
    for (let i = 0; i < 200; i++) expect(newTraceparent()).toMatch(TRACEPARENT);
  });

  it('starts a new trace for every request', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => traceIdOf(newTraceparent())));
    expect(ids.size).toBe(1000);
  });

  it("is sent with the company server's and the login host's requests, not the payment service's", async () => {
    const store = new AccountStore(new MemoryStorage());
    store.save(sampleAccount({ server: origin }));
    const http = createHttp({ store, loginHost: () => origin, paymentServiceHost: () => origin });
    seen.length = 0;
    await http.api.get('ok').json();
    await http.api.get('ok').json();
    await http.publicApi().get('ok').json();
    await http.loginApi().get('ok').json();
    await http.paymentServiceApi().get('ok').json();
    const [first, second, ...rest] = seen;
    expect(first).toMatch(TRACEPARENT);
    expect(second).toMatch(TRACEPARENT);
    expect(traceIdOf(first ?? '')).not.toBe(traceIdOf(second ?? ''));
    expect(rest.slice(0, 2)).toEqual([
      expect.stringMatching(TRACEPARENT),
      expect.stringMatching(TRACEPARENT),
    ]);
    expect(rest[2]).toBeUndefined();
  });
});
