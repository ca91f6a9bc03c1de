/**
 * Passkeys: the WebAuthn ceremonies of the browser (@simplewebauthn/browser) around the
 * server's challenges. The login host gives sign-in challenges; the company server keeps the user's passkeys.
 */
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { LoginResponse } from '#contract/auth';
import type { Passkey, PasskeyAssertion, PasskeyOptions, PasskeyPolicy } from '#contract/passkeys';
import { api, loginApi, publicApi } from './http';
import type { Session } from './users';

type Options = { signal?: AbortSignal };

/**
 * The browser's ceremonies, loaded when a passkey is used: the sign-in page offers passkeys, and its first load
 * stays within the /login budget (bench/bundle.ts) without them.
 */
const ceremonies = () => import('@simplewebauthn/browser');

export { passkeysAvailable } from '../passkeySupport';

/** A fresh sign-in challenge of the login host, answered by the browser's passkey. */
export async function passkeyAssertion({ signal }: Options = {}): Promise<PasskeyAssertion> {
  const { challenge_id, options } = await loginApi()
    .post('login/passkey/options', { signal, retry: 0 })
    .json<PasskeyOptions>();
  const { startAuthentication } = await ceremonies();
  const response = await startAuthentication({
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
  return { challenge_id, response: response as PasskeyAssertion['response'] };
}

/** POST /api/v1/login/passkey: sign in with the passkey alone (the face photo when the server asked for it). */
export async function loginWithPasskey(
  { photo }: { photo: string | null },
  { signal }: Options = {},
): Promise<LoginResponse> {
  const assertion = await passkeyAssertion({ signal });
  return loginApi()
    .post('login/passkey', { json: { ...assertion, ...(photo ? { photo } : {}) }, signal, retry: 0 })
    .json<LoginResponse>();
}

const client = (session?: Session) =>
  session ? publicApi(session.server).extend({ headers: { Authorization: `Bearer ${session.token}` } }) : api;

export const passkeyKeys = {
  all: ['passkeys'] as const,
  list: () => [...passkeyKeys.all, 'list'] as const,
  policy: () => [...passkeyKeys.all, 'policy'] as const,
};

export function listPasskeys({ signal }: Options = {}): Promise<Passkey[]> {
  return api.get('passkeys', { signal }).json<Passkey[]>();
}

/**
 * Registers a passkey of this browser: the server's challenge, the browser's ceremony, then the attestation
 * with its name and the account password. `session`: the restricted token of "Passkey Registration Required".
 */
export async function registerPasskey(
  { name, password }: { name: string; password: string },
  { signal, session }: Options & { session?: Session } = {},
): Promise<Passkey> {
  const http = client(session);
  const { challenge_id, options } = await http
    .post('passkeys/options', { signal, retry: 0 })
    .json<PasskeyOptions>();
  const { startRegistration } = await ceremonies();
  const response = await startRegistration({
    optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
  });
  return http
    .post('passkeys', { json: { challenge_id, name, password, response }, signal, retry: 0 })
    .json<Passkey>();
}

export async function removePasskey(id: number, password: string, { signal }: Options = {}): Promise<void> {
  await api.delete(`passkeys/${id}`, { json: { password }, signal });
}

export function getPasskeyPolicy({ signal }: Options = {}): Promise<PasskeyPolicy> {
  return api.get('company/passkeys', { signal }).json<PasskeyPolicy>();
}

export function setPasskeyPolicy(
  body: { require_passkeys: boolean; password: string },
  { signal }: Options = {},
): Promise<PasskeyPolicy> {
  return api.put('company/passkeys', { json: body, signal }).json<PasskeyPolicy>();
}
