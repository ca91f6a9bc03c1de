/**
 * Signing in (docs/product/states.md#sign-in): credentials, then a region choice, a one-time code or a face photo when the
 * server asks for them, then the account is loaded and stored. Forced branches: a password reset (400
 * "Password Reset Required") and a two-factor setup (400 "Two Factor Reset Required") that ends with the user
 * signing in again. Pure: the API, the account store and navigation come in through `provide`.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { LoginResponse, LoginSuccess, Region } from '#contract/auth';
import type { StartPage } from '#contract/constants';
import type { PasskeyAssertion } from '#contract/passkeys';
import { ACCOUNT_DISABLED_DETAIL } from '#contract/sessionEnd';
import { detailIs, failureOf } from './failure';
import { isApiUserToken, readTokenClaims } from './tokenClaims';

/** What the login call sends (POST /api/v1/login/). */
export interface LoginRequest {
  username: string;
  password: string;
  otp: string | null;
  photo: string | null;
  server: string | null;
  /** The passkey as the second factor, instead of `otp`. */
  passkey: PasskeyAssertion | null;
}

/** The session's stored account, as the accounts store keeps it. */
export interface SignedInAccount {
  id: number;
  email: string;
  access: string;
  server: string;
  company_id: number;
  regions: Region[];
  permissions: string[];
  role: string;
  name: string;
  /** The screen `/` opens; an account stored before it existed reads as 'customers'. */
  start_page: StartPage;
}

/** Server details the machine branches on (docs/product/errors.md and the reference server's login answers). */
export const LOGIN_DETAILS = {
  invalidCredentials: 'Invalid Credentials',
  otpRequired: 'OTP Required',
  invalidOtp: 'Invalid OTP',
  photoRequired: 'Face Photo Required',
  photoRejected: 'Face Not Matched',
  photoUnavailable: 'Face Login Unavailable',
  passwordReset: 'Password Reset Required',
  twoFactorReset: 'Two Factor Reset Required',
  passkeyRequired: 'Passkey Required',
  passkeyRegistration: 'Passkey Registration Required',
  passkeyRejected: 'Passkey Not Accepted',
} as const;

export type SessionError =
  | 'invalidCredentials'
  | 'accountDisabled'
  | 'invalidCode'
  | 'photoRejected'
  | 'photoUnavailable'
  | 'noCameraPermission'
  | 'apiUser'
  | 'passkeyFailed'
  | 'server';

export type SessionNotice = 'passwordChanged' | 'twoFactorEnabled' | 'passkeyRegistered';

export interface SessionContext {
  email: string;
  password: string;
  otp: string | null;
  photo: string | null;
  server: string | null;
  regions: Region[];
  /** How this sign-in goes: the password (then a second factor), or a passkey alone. */
  method: 'password' | 'passkey';
  /** The browser's passkey answer for the second factor, sent with the password. */
  passkey: PasskeyAssertion | null;
  /** With "Passkey Required": a TOTP code is accepted instead. */
  otpAllowed: boolean;
  login: LoginSuccess | null;
  /** The restricted session of a forced two-factor setup, when the server gave one. */
  setup: TwoFactorSetupSession | null;
  error: SessionError | null;
  /** The server's own words for an unexpected failure. */
  errorDetail: string | null;
  notice: SessionNotice | null;
}

/** What a 400 "Two Factor Reset Required" answer carries: a token that may only set up two-factor. */
export interface TwoFactorSetupSession {
  access: string;
  server: string | null;
  user_id: number | null;
}

function setupSessionOf(body: unknown): TwoFactorSetupSession | null {
  if (typeof body !== 'object' || body === null) return null;
  const b = body as Record<string, unknown>;
  if (typeof b.access !== 'string') return null;
  const claims = readTokenClaims(b.access);
  return {
    access: b.access,
    server: typeof b.server === 'string' ? b.server : null,
    user_id:
      typeof b.user_id === 'number' ? b.user_id : typeof claims?.user_id === 'number' ? claims.user_id : null,
  };
}

export type SessionEvent =
  | { type: 'credentials.submitted'; email: string; password: string }
  | { type: 'region.chosen'; server: string }
  | { type: 'code.submitted'; otp: string }
  | { type: 'photo.taken'; photo: string }
  | { type: 'camera.denied' }
  | { type: 'back' }
  | { type: 'passwordReset.completed' }
  | { type: 'twoFactor.completed' }
  /** Sign in with a passkey alone (no password). */
  | { type: 'passkey.requested' }
  /** Use the passkey as the second factor. */
  | { type: 'passkey.chosen' }
  /** Use a TOTP code instead of the passkey (when the server accepts one). */
  | { type: 'code.chosen' }
  /** The forced passkey registration is done. */
  | { type: 'passkey.registered' }
  | { type: 'forced.cancelled' };

const isRegionChoice = (answer: LoginResponse): answer is { regions: Region[] } => !('access' in answer);

const fresh = {
  otp: null,
  photo: null,
  server: null,
  regions: [],
  method: 'password' as const,
  passkey: null,
  otpAllowed: false,
  login: null,
  setup: null,
};

const otpAllowedOf = (body: unknown) =>
  typeof body === 'object' && body !== null && (body as { otp?: unknown }).otp === true;
const clearMessages = { error: null, errorDetail: null, notice: null } as const;

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as { email?: string } | undefined,
    tags: {} as 'busy' | 'form',
  },
  actors: {
    login: fromPromise<LoginResponse, LoginRequest>(async () => {
      throw new Error('login is provided by the app');
    }),
    loadAccount: fromPromise<SignedInAccount, { login: LoginSuccess; email: string }>(async () => {
      throw new Error('loadAccount is provided by the app');
    }),
    /** The browser's passkey ceremony on a fresh sign-in challenge (second factor). */
    passkeyAssertion: fromPromise<PasskeyAssertion>(async () => {
      throw new Error('passkeyAssertion is provided by the app');
    }),
    /** Sign-in with a passkey alone: challenge, ceremony and login (with the face photo when asked). */
    passkeyLogin: fromPromise<LoginResponse, { photo: string | null }>(async () => {
      throw new Error('passkeyLogin is provided by the app');
    }),
  },
  actions: {
    storeAccount: (_, _account: SignedInAccount) => {},
    signedIn: () => {},
  },
  guards: {
    isRegionChoice: (_, answer: LoginResponse) => isRegionChoice(answer),
    isApiUser: ({ context }) => !!context.login && isApiUserToken(context.login.access),
    otpAllowed: ({ context }) => context.otpAllowed,
    byPasskey: ({ context }) => context.method === 'passkey',
    /** The invoked request failed with this server detail. */
    failedWith: ({ event }, detail: string) => detailIs((event as { error?: unknown }).error, detail),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    email: input?.email ?? '',
    password: '',
    ...fresh,
    ...clearMessages,
  }),
  initial: 'signedOut',
  states: {
    signedOut: {
      initial: 'credentials',
      tags: ['form'],
      states: {
        credentials: {
          on: {
            'credentials.submitted': {
              target: '#session.submitting',
              actions: assign(({ event }) => ({
                email: event.email.trim(),
                password: event.password,
                ...fresh,
                ...clearMessages,
              })),
            },
            'passkey.requested': {
              target: '#session.passkeySigningIn',
              actions: assign({ password: '', ...fresh, method: 'passkey', ...clearMessages }),
            },
          },
        },
        choosingRegion: {
          on: {
            'region.chosen': {
              target: '#session.submitting',
              actions: assign(({ event }) => ({ server: event.server, ...clearMessages })),
            },
            back: { target: 'credentials', actions: assign({ ...fresh, ...clearMessages }) },
          },
        },
        askingCode: {
          on: {
            'code.submitted': {
              target: '#session.submitting',
              actions: assign(({ event }) => ({ otp: event.otp.trim(), ...clearMessages })),
            },
            'passkey.chosen': { guard: 'otpAllowed', target: '#session.assertingPasskey' },
            back: { target: 'credentials', actions: assign({ ...fresh, ...clearMessages }) },
          },
        },
        /** The password was right; the user's passkey is the second factor (or a code, when allowed). */
        askingPasskey: {
          on: {
            'passkey.chosen': { target: '#session.assertingPasskey', actions: assign(clearMessages) },
            'code.chosen': { guard: 'otpAllowed', target: 'askingCode', actions: assign(clearMessages) },
            back: { target: 'credentials', actions: assign({ ...fresh, ...clearMessages }) },
          },
        },
        askingPhoto: {
          on: {
            'photo.taken': [
              {
                guard: 'byPasskey',
                target: '#session.passkeySigningIn',
                actions: assign(({ event }) => ({ photo: event.photo, ...clearMessages })),
              },
              {
                target: '#session.submitting',
                actions: assign(({ event }) => ({ photo: event.photo, ...clearMessages })),
              },
            ],
            'camera.denied': { actions: assign({ error: 'noCameraPermission' }) },
            back: { target: 'credentials', actions: assign({ ...fresh, ...clearMessages }) },
          },
        },
      },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        id: 'login',
        src: 'login',
        input: ({ context }) => ({
          username: context.email,
          password: context.password,
          otp: context.otp,
          photo: context.photo,
          server: context.server,
          passkey: context.passkey,
        }),
        onDone: [
          {
            guard: { type: 'isRegionChoice', params: ({ event }) => event.output },
            target: 'signedOut.choosingRegion',
            actions: assign(({ event }) => ({ regions: event.output.regions })),
          },
          {
            target: 'checkingToken',
            actions: assign(({ event }) => ({ login: event.output as LoginSuccess })),
          },
        ],
        onError: [
          {
            guard: { type: 'failedWith', params: LOGIN_DETAILS.otpRequired },
            target: 'signedOut.askingCode',
          },
          {
            guard: { type: 'failedWith', params: LOGIN_DETAILS.invalidOtp },
            target: 'signedOut.askingCode',
            actions: assign({ error: 'invalidCode' }),
          },
          {
            guard: { type: 'failedWith', params: LOGIN_DETAILS.photoRequired },
            target: 'signedOut.askingPhoto',
          },
          {
            guard: { type: 'failedWith', params: LOGIN_DETAILS.photoRejected },
            target: 'signedOut.askingPhoto',
            actions: assign({ error: 'photoRejected', photo: null }),
          },
          {
            guard: { type: 'failedWith', params: LOGIN_DETAILS.photoUnavailable },
            target: 'signedOut.credentials',
            actions: assign({ error: 'photoUnavailable', photo: null }),
          },
          {
            guard: { type: 'failedWith', params: LOGIN_DETAILS.passwordReset },
            target: 'forcedPasswordReset',
          },
          {
            guard: { type: 'failedWith', params: LOGIN_DETAILS.twoFactorReset },
            target: 'forcedTwoFactor',
            actions: assign(({ event }) => ({ setup: setupSessionOf(failureOf(event.error).body) })),
          },
          {
            guard: { type: 'failedWith', params: LOGIN_DETAILS.passkeyRequired },
            target: 'signedOut.askingPasskey',
            actions: assign(({ event }) => ({
              otpAllowed: otpAllowedOf(failureOf(event.error).body),
              passkey: null,
              otp: null,
            })),
          },
          {
            guard: { type: 'failedWith', params: LOGIN_DETAILS.passkeyRejected },
            target: 'signedOut.askingPasskey',
            actions: assign({ error: 'passkeyFailed', passkey: null }),
          },
          {
            guard: { type: 'failedWith', params: LOGIN_DETAILS.passkeyRegistration },
            target: 'forcedPasskey',
            actions: assign(({ event }) => ({ setup: setupSessionOf(failureOf(event.error).body) })),
          },
          {
            guard: { type: 'failedWith', params: LOGIN_DETAILS.invalidCredentials },
            target: 'signedOut.credentials',
            actions: assign({ error: 'invalidCredentials', password: '' }),
          },
          {
            guard: { type: 'failedWith', params: ACCOUNT_DISABLED_DETAIL },
            target: 'signedOut.credentials',
            actions: assign({ error: 'accountDisabled', password: '' }),
          },
          {
            target: 'signedOut.credentials',
            actions: assign(({ event }) => ({
              error: 'server' as const,
              errorDetail: failureOf(event.error).detail,
            })),
          },
        ],
      },
    },
    /** The browser's passkey ceremony for the second factor; then the password sign-in again with it. */
    assertingPasskey: {
      tags: ['busy'],
      invoke: {
        id: 'passkeyAssertion',
        src: 'passkeyAssertion',
        onDone: {
          target: 'submitting',
          actions: assign(({ event }) => ({ passkey: event.output, otp: null })),
        },
        onError: { target: 'signedOut.askingPasskey', actions: assign({ error: 'passkeyFailed' }) },
      },
    },
    /** Sign-in with a passkey alone (the server may still ask for the face photo or a forced step). */
    passkeySigningIn: {
      tags: ['busy'],
      invoke: {
        id: 'passkeyLogin',
        src: 'passkeyLogin',
        input: ({ context }) => ({ photo: context.photo }),
        onDone: {
          target: 'checkingToken',
          actions: assign(({ event }) => ({ login: event.output as LoginSuccess })),
        },
        onError: [
          {
            guard: { type: 'failedWith', params: LOGIN_DETAILS.photoRequired },
            target: 'signedOut.askingPhoto',
          },
          {
            guard: { type: 'failedWith', params: LOGIN_DETAILS.photoRejected },
            target: 'signedOut.askingPhoto',
            actions: assign({ error: 'photoRejected', photo: null }),
          },
          {
            guard: { type: 'failedWith', params: LOGIN_DETAILS.passwordReset },
            target: 'forcedPasswordReset',
          },
          {
            guard: { type: 'failedWith', params: LOGIN_DETAILS.twoFactorReset },
            target: 'forcedTwoFactor',
            actions: assign(({ event }) => ({ setup: setupSessionOf(failureOf(event.error).body) })),
          },
          {
            guard: { type: 'failedWith', params: LOGIN_DETAILS.photoUnavailable },
            target: 'signedOut.credentials',
            actions: assign({ ...fresh, error: 'photoUnavailable' }),
          },
          {
            // The browser's ceremony failed or was cancelled, or the server refused the passkey.
            target: 'signedOut.credentials',
            actions: assign({ ...fresh, error: 'passkeyFailed' }),
          },
        ],
      },
    },
    checkingToken: {
      tags: ['busy'],
      always: [
        {
          guard: 'isApiUser',
          target: 'signedOut.credentials',
          actions: assign({ error: 'apiUser', login: null, password: '' }),
        },
        { target: 'loadingAccount' },
      ],
    },
    loadingAccount: {
      tags: ['busy'],
      invoke: {
        id: 'loadAccount',
        src: 'loadAccount',
        input: ({ context }) => ({ login: context.login as LoginSuccess, email: context.email }),
        onDone: {
          target: 'signedIn',
          actions: [{ type: 'storeAccount', params: ({ event }) => event.output }, 'signedIn'],
        },
        onError: {
          target: 'signedOut.credentials',
          actions: assign(({ event }) => ({
            error: 'server' as const,
            errorDetail: failureOf(event.error).detail,
            login: null,
          })),
        },
      },
    },
    forcedPasswordReset: {
      on: {
        'passwordReset.completed': {
          target: 'signedOut.credentials',
          actions: assign({
            ...fresh,
            password: '',
            error: null,
            errorDetail: null,
            notice: 'passwordChanged',
          }),
        },
        'forced.cancelled': { target: 'signedOut.credentials', actions: assign({ ...fresh, password: '' }) },
      },
    },
    forcedTwoFactor: {
      on: {
        'twoFactor.completed': {
          target: 'signedOut.credentials',
          actions: assign({
            ...fresh,
            password: '',
            error: null,
            errorDetail: null,
            notice: 'twoFactorEnabled',
          }),
        },
        'forced.cancelled': { target: 'signedOut.credentials', actions: assign({ ...fresh, password: '' }) },
      },
    },
    /** 400 "Passkey Registration Required": the company requires passkeys; register one, then sign in again. */
    forcedPasskey: {
      on: {
        'passkey.registered': {
          target: 'signedOut.credentials',
          actions: assign({
            ...fresh,
            password: '',
            error: null,
            errorDetail: null,
            notice: 'passkeyRegistered',
          }),
        },
        'forced.cancelled': { target: 'signedOut.credentials', actions: assign({ ...fresh, password: '' }) },
      },
    },
    signedIn: { type: 'final' },
  },
});
