/**
 * The one HTTP client of the studio (docs/product/api.md#base-addresses, docs/product/errors.md#behaviour-by-status). Every resource module
 * uses `api` (company server, bearer token of the active account), `publicApi` (company server, no token)
 * or `loginApi` (the login host). Failures reach callers as one `ApiError` type.
 */
import ky, { isHTTPError, isTimeoutError, type KyInstance } from 'ky';
import { sessionEndReasonOf } from '#contract/sessionEnd';
import { type AccountStore, accounts } from '../accounts';
import { raiseAppEvent, raiseOnce } from '../appEvents';
import { studioConfig } from '../config';
import { newTraceparent } from './traceparent';

export const SERVER_ERROR = 'Remote Server Error';

/** An HTTP failure: status 0 when no response came. `body` is the server's response body as received. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly body: unknown = null,
  ) {
    super(detail);
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

/**
 * The If-Match header of a versioned write: the version of the profile or document the screen
 * holds. A 409 ApiError then carries `{ detail, current }` in its body.
 */
export const ifMatch = (version: number) => ({ 'If-Match': `"${version}"` });

function detailOf(body: unknown): string | null {
  if (typeof body === 'object' && body !== null && 'detail' in body && typeof body.detail === 'string') {
    return body.detail;
  }
  return null;
}

export interface HttpOptions {
  store: AccountStore;
  /** Address of the login host, read at request time. */
  loginHost: () => string;
  /** Address of the payment service host (GET /config, GET /industry), read at request time. */
  paymentServiceHost?: () => string;
}

export interface Http {
  /** Company server of the active account, with its bearer token. */
  api: KyInstance;
  /** A company server without a token: the active account's, or the one given by `server`. */
  publicApi: (server?: string) => KyInstance;
  /** The login host (/api/v1). */
  loginApi: () => KyInstance;
  /** The payment service host, without a token. */
  paymentServiceApi: () => KyInstance;
}

export function createHttp({ store, loginHost, paymentServiceHost }: HttpOptions): Http {
  const toApiError = (authenticated: boolean) => async (error: Error) => {
    if (isHTTPError(error)) {
      const status = error.response.status;
      const body: unknown = error.data ?? null;
      const detail = detailOf(body) ?? (status >= 500 ? SERVER_ERROR : error.message);
      // The first 401 ends the session; others already on the way (e.g. the socket's token) change nothing.
      if (status === 401 && authenticated && store.active()) {
        const email = store.logout();
        raiseAppEvent({ type: 'session.ended', email, reason: sessionEndReasonOf(detail) });
      }
      if (status === 400 && detail === 'Password Reset Required')
        raiseOnce({ type: 'password-reset.required' });
      if (status === 400 && detail === 'Two Factor Reset Required') {
        raiseOnce({ type: 'two-factor-reset.required' });
      }
      return new ApiError(status, detail, body);
    }
    if (isTimeoutError(error)) return new ApiError(0, SERVER_ERROR);
    if (error.name === 'AbortError') return error;
    return new ApiError(0, SERVER_ERROR);
  };

  const base = ky.create({ timeout: 30_000, retry: { limit: 1 } });
  // Requests to the IDV servers (company and login hosts) carry a trace of their own that the server's spans
  // join; the payment service is another party and hears none.
  const traced = base.extend({
    hooks: {
      beforeRequest: [
        ({ request }) => {
          request.headers.set('traceparent', newTraceparent());
        },
      ],
    },
  });

  const companyServer = (server?: string): string => {
    const address = server ?? store.active()?.server;
    if (!address) throw new ApiError(401, 'Not signed in');
    return `${address.replace(/\/+$/, '')}/api/v2`;
  };

  const api = traced.extend({
    hooks: {
      init: [
        (options) => {
          options.prefix = companyServer();
        },
      ],
      beforeRequest: [
        ({ request }) => {
          const token = store.active()?.access;
          if (token) request.headers.set('Authorization', `Bearer ${token}`);
        },
      ],
      beforeError: [({ error }) => toApiError(true)(error)],
    },
  });

  const publicApi = (server?: string) =>
    traced.extend({
      prefix: companyServer(server),
      hooks: { beforeError: [({ error }) => toApiError(false)(error)] },
    });

  const loginApi = () =>
    traced.extend({
      prefix: `${loginHost().replace(/\/+$/, '')}/api/v1`,
      hooks: { beforeError: [({ error }) => toApiError(false)(error)] },
    });

  const paymentServiceApi = () =>
    base.extend({
      prefix: (paymentServiceHost ?? loginHost)().replace(/\/+$/, ''),
      hooks: { beforeError: [({ error }) => toApiError(false)(error)] },
    });

  return { api, publicApi, loginApi, paymentServiceApi };
}

export const { api, publicApi, loginApi, paymentServiceApi } = createHttp({
  store: accounts,
  loginHost: () => studioConfig().loginHost,
  paymentServiceHost: () => studioConfig().paymentServiceUrl,
});

/**
 * Ends an account's session on its server (POST /session/logout): its token gets 401 there from
 * now on. Best effort and `keepalive`, so it completes while the page reloads; a token already refused
 * (401, e.g. the session end of a 401) changes nothing.
 */
export function endServerSession(
  account: { server: string; access: string },
  send: typeof fetch = fetch,
): Promise<void> {
  const url = `${account.server.replace(/\/+$/, '')}/api/v2/session/logout`;
  return send(url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${account.access}` },
    keepalive: true,
  }).then(
    () => undefined,
    () => undefined,
  );
}

accounts.onSignOut((ended) => {
  for (const account of ended) void endServerSession(account);
});
