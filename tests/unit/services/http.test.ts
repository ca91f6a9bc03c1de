/**
 * The HTTP client against a real local HTTP server (no mocked fetch): base addresses, token, the behaviour by
 * status of docs/product/errors.md.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AccountStore, STORAGE_KEYS } from '../../../src/services/accounts';
import { ApiError, createHttp, endServerSession, SERVER_ERROR } from '../../../src/services/api/http';
import { type AppEvent, onAppEvent, settleAppEvent } from '../../../src/services/appEvents';
import { MemoryStorage, sampleAccount } from '../../support/memoryStorage';

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
}

let server: Server;
let origin: string;
const seen: Seen[] = [];

/** Routes of the test server: the path decides the answer. */
function answer(req: IncomingMessage): [status: number, body: unknown] {
  const path = req.url ?? '';
  if (path.endsWith('/ok')) return [200, { ok: true }];
  if (path.endsWith('/unauthorized')) return [401, { detail: 'Token is expired' }];
  if (path.endsWith('/disabled'))
    return [401, { detail: 'Your account has been disabled. Contact your administrator.' }];
  if (path.endsWith('/forbidden'))
    return [403, { detail: 'You do not have permission to perform this action', code: 7 }];
  if (path.endsWith('/reset-required')) return [400, { detail: 'Password Reset Required' }];
  if (path.endsWith('/two-factor-required')) return [400, { detail: 'Two Factor Reset Required' }];
  if (path.endsWith('/bad')) return [400, { detail: 'Please type a valid url.' }];
  if (path.endsWith('/crash')) return [500, 'not json'];
  return [404, { detail: 'Not found.' }];
}

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    const [status, body] = answer(req);
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain' : 'application/json' });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const events: AppEvent[] = [];
let stopListening = onAppEvent((event) => events.push(event));
afterEach(() => {
  seen.length = 0;
  events.length = 0;
  settleAppEvent('password-reset.required');
  settleAppEvent('two-factor-reset.required');
  stopListening();
  stopListening = onAppEvent((event) => events.push(event));
});

function setup({ signedIn = true } = {}) {
  const storage = new MemoryStorage();
  const store = new AccountStore(storage);
  if (signedIn) {
    store.save(sampleAccount({ server: origin, company_id: 2, email: 'other@globex.test', access: 'other' }));
    store.save(sampleAccount({ server: `${origin}/`, email: 'agent@acme.test', access: 'secret-token' }));
  }
  const http = createHttp({ store, loginHost: () => `${origin}/login-host` });
  return { storage, store, ...http };
}

const failure = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as ApiError;
  }
  throw new Error('expected the request to fail');
};

describe('http client', () => {
  it('sends authenticated calls to the active account server + /api/v2 with its bearer token', async () => {
    const { api } = setup();
    expect(await api.get('profile/ok').json()).toEqual({ ok: true });
    expect(seen[0]).toEqual({
      method: 'GET',
      url: '/api/v2/profile/ok',
      authorization: 'Bearer secret-token',
    });
  });

  it('sends unauthenticated calls to the same base without a token, or to a given server', async () => {
    const { publicApi } = setup();
    await publicApi().post('user/reset_password/send/ok', { json: { email: 'a@b.co' } });
    await publicApi(`${origin}/second`).get('stp/packages/ok');
    expect(seen.map((s) => [s.method, s.url, s.authorization])).toEqual([
      ['POST', '/api/v2/user/reset_password/send/ok', undefined],
      ['GET', '/second/api/v2/stp/packages/ok', undefined],
    ]);
  });

  it('sends login calls to the login host from runtime configuration', async () => {
    const { loginApi } = setup({ signedIn: false });
    await loginApi().post('login/ok', { json: {} });
    expect(seen[0]?.url).toBe('/login-host/api/v1/login/ok');
    expect(seen[0]?.authorization).toBeUndefined();
  });

  it('refuses an authenticated call when signed out, without sending it', async () => {
    const { api } = setup({ signedIn: false });
    const error = await failure((async () => api.get('profile/ok').json())());
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(401);
    expect(seen).toHaveLength(0);
  });

  it('401 ends the session: token and active account gone, other tabs told, session.ended with the email', async () => {
    const { api, store, storage } = setup();
    const error = await failure(api.get('profile/unauthorized').json());
    expect(error.status).toBe(401);
    expect(store.active()).toBeNull();
    expect(store.list().map((a) => a.email)).toEqual(['other@globex.test']);
    expect(storage.getItem(STORAGE_KEYS.logoutEvent)).not.toBeNull();
    expect(events).toEqual([{ type: 'session.ended', email: 'agent@acme.test', reason: null }]);
  });

  it("401 of an ended session carries the server's reason", async () => {
    const { api } = setup();
    await failure(api.get('profile/disabled').json());
    expect(events).toEqual([{ type: 'session.ended', email: 'agent@acme.test', reason: 'disabled' }]);
  });

  it('401 on a public or login call does not end any session', async () => {
    const { publicApi, loginApi, store } = setup();
    await failure(publicApi().get('x/unauthorized').json());
    await failure(loginApi().get('x/unauthorized').json());
    expect(store.active()?.email).toBe('agent@acme.test');
    expect(events).toEqual([]);
  });

  it('403 passes the response body to the caller', async () => {
    const { api, store } = setup();
    const error = await failure(api.get('document/forbidden').json());
    expect(error.status).toBe(403);
    expect(error.detail).toBe('You do not have permission to perform this action');
    expect(error.body).toEqual({ detail: 'You do not have permission to perform this action', code: 7 });
    expect(store.active()).not.toBeNull();
  });

  it('400 Password Reset Required raises its event once until settled', async () => {
    const { api, loginApi } = setup();
    await failure(api.get('user/reset-required').json());
    await failure(loginApi().post('login/reset-required').json());
    expect(events).toEqual([{ type: 'password-reset.required' }]);
    settleAppEvent('password-reset.required');
    await failure(api.get('user/reset-required').json());
    expect(events).toHaveLength(2);
  });

  it('400 Two Factor Reset Required raises its event', async () => {
    const { api } = setup();
    const error = await failure(api.get('user/two-factor-required').json());
    expect(error.detail).toBe('Two Factor Reset Required');
    expect(events).toEqual([{ type: 'two-factor-reset.required' }]);
  });

  it('other errors reach the caller with the server detail, and no event', async () => {
    const { api } = setup();
    const error = await failure(api.post('webhook_endpoint/bad', { json: {} }).json());
    expect([error.status, error.detail]).toEqual([400, 'Please type a valid url.']);
    expect(events).toEqual([]);
  });

  it('a server failure without a detail reads as Remote Server Error', async () => {
    const { api } = setup();
    const error = await failure(api.post('profile/crash').json());
    expect([error.status, error.detail]).toEqual([500, SERVER_ERROR]);
  });

  it('no answer at all reads as Remote Server Error with status 0', async () => {
    const { publicApi } = setup();
    const error = await failure(publicApi('http://127.0.0.1:1').get('ok', { retry: 0 }).json());
    expect([error.status, error.detail]).toEqual([0, SERVER_ERROR]);
  });
});

describe('endServerSession', () => {
  it('posts the logout of the account’s own server with its token, and never fails', async () => {
    const calls: [string, RequestInit | undefined][] = [];
    const send = (async (url: string, init?: RequestInit) => {
      calls.push([url, init]);
      return new Response(null, { status: 204 });
    }) as typeof fetch;
    await endServerSession({ server: 'http://region.test/', access: 'token-1' }, send);
    expect(calls).toEqual([
      [
        'http://region.test/api/v2/session/logout',
        { method: 'POST', headers: { Authorization: 'Bearer token-1' }, keepalive: true },
      ],
    ]);
    const down = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    await expect(
      endServerSession({ server: 'http://down.test', access: 'x' }, down),
    ).resolves.toBeUndefined();
  });
});
