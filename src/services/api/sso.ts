/**
 * Single sign-on (contract/sso.ts): the sign-in page's look-up and start, the answer of the identity provider,
 * and the company's settings (GET and PUT /company/sso, the connection test, the SCIM token).
 */
import type {
  SsoCallbackBody,
  SsoCallbackResponse,
  SsoConfig,
  SsoConfigBody,
  SsoStartResponse,
  SsoTestReport,
} from '#contract/sso';
import { readTokenClaims } from '../../machines/tokenClaims';
import { studioConfig } from '../config';
import { api, publicApi } from './http';

type Options = { signal?: AbortSignal };

export const ssoKeys = { settings: ['company_sso'] as const };

/** The sign-in host: the provider sends the browser back to its /login. */
const signInHost = () => publicApi(studioConfig().loginHost);

/** Whether the address signs in with its company's identity provider (nothing is started). */
export const ssoLookup = (email: string, { signal }: Options = {}) =>
  signInHost()
    .post('sso/start', { json: { email, check_only: true }, signal, retry: 0 })
    .json<SsoStartResponse>();

/** Starts a sign-in: the provider's address to send the browser to. */
export const ssoStart = (email: string, returnTo: string | null, { signal }: Options = {}) =>
  signInHost()
    .post('sso/start', { json: { email, ...(returnTo ? { return_to: returnTo } : {}) }, signal, retry: 0 })
    .json<SsoStartResponse>();

/** Answers posted already, by state: each is used once by the server, so a page mounted twice shares one. */
const finishing = new Map<string, Promise<SsoCallbackResponse>>();

/** Posts the provider's answer (the query it sent the browser back with): the new session. Never cancelled halfway. */
export function ssoFinish(body: SsoCallbackBody): Promise<SsoCallbackResponse> {
  let answer = finishing.get(body.state);
  if (!answer) {
    answer = signInHost().post('sso/callback', { json: body, retry: 0 }).json<SsoCallbackResponse>();
    finishing.set(body.state, answer);
  }
  return answer;
}

export const getSsoConfig = ({ signal }: Options = {}) =>
  api.get('company/sso', { signal }).json<SsoConfig>();

export const setSsoConfig = (body: SsoConfigBody) => api.put('company/sso', { json: body }).json<SsoConfig>();

export const testSsoConnection = (issuer?: string) =>
  api.post('company/sso/test', { json: issuer ? { issuer } : {} }).json<SsoTestReport>();

/** The sessions (token ids) this browser started through single sign-on: their Logout also signs out at the provider. */
const SSO_SESSIONS_KEY = 'sso-sessions';
const sessionIdOf = (access: string) => {
  const id = readTokenClaims(access)?.jti;
  return typeof id === 'string' ? id : null;
};
const ssoSessions = (): string[] => {
  try {
    const list: unknown = JSON.parse(localStorage.getItem(SSO_SESSIONS_KEY) ?? '[]');
    return Array.isArray(list) ? list.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
};

/** Notes that the session of `access` came from single sign-on (the last 20 are kept). */
export function rememberSsoSession(access: string): void {
  const id = sessionIdOf(access);
  if (id) localStorage.setItem(SSO_SESSIONS_KEY, JSON.stringify([...ssoSessions(), id].slice(-20)));
}

export const isSsoSession = (access: string | null | undefined): boolean => {
  const id = access ? sessionIdOf(access) : null;
  return id !== null && ssoSessions().includes(id);
};

/**
 * Ends a session at its server (POST /sso/logout): the identity provider's logout address when the session came
 * from single sign-on and the provider offers one, else null (also when the server does not answer).
 */
export async function ssoLogout(account: { server: string; access: string }): Promise<string | null> {
  try {
    const answer = await publicApi(account.server)
      .post('sso/logout', {
        headers: { Authorization: `Bearer ${account.access}` },
        retry: 0,
        timeout: 5_000,
      })
      .json<{ logout_url: string | null }>();
    return answer.logout_url;
  } catch {
    return null;
  }
}

/** A new SCIM token, shown once. */
export const rotateScimToken = () => api.post('company/scim/token', { json: {} }).json<{ token: string }>();
